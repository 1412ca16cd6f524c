package exact

import (
	"fmt"

	"github.com/brasp-dev/brasp/automata/krohnrhodes"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/position"
)

// FutureOnly makes Theorem 5.1 executable: it returns a program that
// accepts exactly the non-empty words p accepts and uses only rightmost,
// strictly future-masked attention (mask j<i). The route is the proof's:
// p → its minimal DFA (ProgramDFA) → the Krohn–Rhodes holonomy cascade
// of identity–reset automata → B-RASP, one "most recent reset wins"
// operation per cascade state (krohnrhodes.DFAToBRASP, Lemma B.6). A program
// whose language is not star-free (possible only with MOD predicates) has no
// such program; the error carries automata's witness.
func FutureOnly(bud *budget.Budget, p *brasp.Program) (*brasp.Program, error) {
	d, err := ProgramDFA(bud, p)
	if err != nil {
		return nil, err
	}
	q, _, err := krohnrhodes.DFAToBRASP(bud, d)
	if err != nil {
		return nil, fmt.Errorf("Krohn–Rhodes: %w", err)
	}
	if err := CheckFutureOnly(q); err != nil {
		return nil, fmt.Errorf("internal error: the cascade program is not future-only: %w", err)
	}
	return q, nil
}

// CheckFutureOnly reports an error naming the first attention operation of p
// that is not rightmost with strict future masking (j<i).
func CheckFutureOnly(p *brasp.Program) error {
	for _, v := range p.Vectors {
		if v.Kind == brasp.AttentionVector && (v.Att.Tiebreak != position.Rightmost || v.Att.Mask != position.MaskFuture) {
			return fmt.Errorf("operation %s is %s [%s, ...]", v.Name, v.Att.Tiebreak, v.Att.Mask.Predicate())
		}
	}
	return nil
}
