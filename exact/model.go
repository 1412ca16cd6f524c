package exact

import (
	"fmt"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/decompile"
)

// ModelDFA returns the minimal DFA of the language of a transformer (over
// non-empty words; the DFA rejects ε). The model is first decompiled into an
// equivalent B-RASP program (Theorem 4.2, package transformer/decompile,
// whose enumeration of reachable activation values is exact), then the
// program's construction runs (ProgramDFA), within the budget. Position embeddings become
// MOD predicates there; a model whose decompilation needs Mid is refused as
// not regular.
func ModelDFA(bud *budget.Budget, m *transformer.Model, dopts decompile.Options) (*automata.DFA, error) {
	p, err := decompile.Decompile(bud, m, dopts)
	if err != nil {
		return nil, fmt.Errorf("decompiling the model: %w", err)
	}
	return ProgramDFA(bud, p)
}
