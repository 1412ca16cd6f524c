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
// It takes the route that costs less by a static estimate (symbolicFirst):
// formulas with future operators or over many letters are built
// symbolically where the engine reads them (package
// ltl/toltlf: the letters encoded in ⌈log2 |Σ|⌉ propositions, the formula
// rewritten into LTLf read at the first step, ltlf.ToDFA, the result
// written out over the letters and minimised). Otherwise — past-only
// formulas over few letters, and where the engine does not read the formula
// (MOD, Mid or PERIODIC predicates, or a past operator over a future
// subformula that is not anchored at the first position) — it is translated by
// Theorem 3.2 (ltl.ToBRASP: one attention operation per temporal operator,
// scores and values reading only at j, so every operation has a single
// summary slot) and the program's construction runs on the result; a since
// becomes a deterministic prefix summary, an until a guessed suffix
// summary. Both routes give the same canonically numbered DFA.
func FormulaDFA(bud *budget.Budget, f *ltl.Formula) (*automata.DFA, error) {
	if !symbolicFirst(f) {
		return BimachineFormulaDFA(bud, f)
	}
	d, err := toltlf.DFA(bud, f)
	switch {
	case err == nil:
		return renamed(d), nil
	case !errors.Is(err, toltlf.ErrUnsupported) && !errors.Is(err, ltlf.ErrPastOverFuture):
		return nil, err
	}
	return BimachineFormulaDFA(bud, f)
}

// symbolicFirst is the static estimate of which route costs less. The
// bimachine's work grows with the letters (a transition table per letter at
// every operation), the symbolic engine's with the nesting of past
// operators (a since chain over few letters, as in STAIR_k, costs it a
// product per level that the bimachine's deterministic prefix summaries do
// not pay) and it wins on future operators, which the bimachine can only
// guess. So a formula without future operators, with P ≥ 1 past operators
// (first-anchored ones, which the symbolic translation reads at the first
// step for free, not counted) over at most max(3, P) letters goes to the
// bimachine; every other one tries the symbolic engine first.
func symbolicFirst(f *ltl.Formula) bool {
	past := 0
	for _, g := range f.Nodes() {
		switch g.Op {
		case ltl.OpUntil, ltl.OpUntilNS, ltl.OpNext, ltl.OpWeakNext, ltl.OpEventually, ltl.OpGlobally:
			return true
		case ltl.OpSince, ltl.OpSinceNS, ltl.OpYesterday, ltl.OpWeakYesterday, ltl.OpOnce, ltl.OpHistorically:
			if !toltlf.Anchored(g) {
				past++
			}
		}
	}
	return past == 0 || len(f.Alphabet()) > max(3, past)
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
