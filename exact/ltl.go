package exact

import (
	"errors"
	"fmt"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/ltl"
	"github.com/brasp-dev/brasp/ltl/toltlf"
	"github.com/brasp-dev/brasp/ltlf"
)

// FormulaDFA returns the minimal DFA of the language of the LTL formula f
// (evaluated at the last position of non-empty words; the DFA rejects ε),
// within the budget.
//
// Wherever it can, it builds the automaton symbolically (package
// ltl/toltlf: the letters encoded in ⌈log2 |Σ|⌉ propositions, the formula
// rewritten into LTLf read at the first step, ltlf.ToDFA, the result
// written out over the letters and minimised). Otherwise — MOD, Mid or
// PERIODIC predicates, or a past operator over a future subformula that is
// not anchored at the first position — the formula is translated by
// Theorem 3.2 (ltl.ToBRASP: one attention operation per temporal operator,
// scores and values reading only at j, so every operation has a single
// summary slot) and the program's construction runs on the result; a since
// becomes a deterministic prefix summary, an until a guessed suffix
// summary. Both routes give the same canonically numbered DFA.
func FormulaDFA(bud *budget.Budget, f *ltl.Formula) (*automata.DFA, error) {
	d, err := toltlf.DFA(bud, f)
	switch {
	case err == nil:
		return renamed(d), nil
	case !errors.Is(err, toltlf.ErrUnsupported) && !errors.Is(err, ltlf.ErrPastOverFuture):
		return nil, err
	}
	return BimachineFormulaDFA(bud, f)
}

// BimachineFormulaDFA is FormulaDFA by the bimachine of Theorem 3.2's
// program alone, the route for formulas the symbolic engine does not read.
func BimachineFormulaDFA(bud *budget.Budget, f *ltl.Formula) (*automata.DFA, error) {
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
