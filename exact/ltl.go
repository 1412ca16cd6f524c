package exact

import (
	"fmt"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/ltl"
)

// FormulaDFA returns the minimal DFA of the language of the LTL formula f
// (evaluated at the last position of non-empty words; the DFA rejects ε),
// within the budget. The formula is translated by Theorem 3.2 (ltl.ToBRASP: one attention operation per
// temporal operator, scores and values reading only at j, so every
// operation has a single summary slot) and the program's construction runs on
// the result; a since becomes a deterministic prefix summary, an until a
// guessed suffix summary.
func FormulaDFA(bud *budget.Budget, f *ltl.Formula) (*automata.DFA, error) {
	for _, g := range f.Nodes() {
		if g.Op == ltl.OpPredicate && g.Pred.Kind == brasp.Mid {
			return nil, errMid
		}
	}
	p, err := ltl.ToBRASP(f)
	if err != nil {
		return nil, fmt.Errorf("exact: %w", err)
	}
	return ProgramDFA(bud, p)
}
