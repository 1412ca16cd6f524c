package exact

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/ltl"
)

// TestConvertersExactly is the third level of checking of the design:
// converters between representations are checked by comparing minimal DFAs,
// on all words at once. For random programs p (every mask and tie-break,
// predicates, scores and values reading i and j): the normal forms
// UnaryScore(UnaryValue(p)) (Prop. B.1, Lemma B.2), the formula FromBRASP(p)
// (Thm 3.3) and the program ToBRASP(FromBRASP(p)) (Thm 3.2) all have p's
// language.
func TestConvertersExactly(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 19))
	for n := range 400 {
		p := brasptest.RandomProgram(rng, brasptest.Options{Alphabet: 2, Ops: 3 + rng.IntN(4), Predicates: n%2 == 0})
		dp := mustDFA(t)(ProgramDFA(nil, p))
		same := func(what string, d2 func() (*automata.DFA, error)) {
			t.Helper()
			d, err := d2()
			if err != nil {
				t.Fatalf("%s: %v\n%s", what, err, brasp.Format(p))
			}
			if eq, w, pAcc, err := Equivalent(dp, d); err != nil || !eq {
				t.Fatalf("%s differs from the program on %q (program accepts: %v, %v)\n%s", what, p.Alphabet.FormatWord(w), pAcc, err, brasp.Format(p))
			}
		}
		same("UnaryScore(UnaryValue(p))", func() (*automata.DFA, error) {
			q, err := brasp.UnaryScore(budget.New(context.Background(), budget.Settings{"unary-score-copies": 1 << 10}), brasp.UnaryValue(p))
			if err != nil {
				return nil, err
			}
			return ProgramDFA(nil, q)
		})
		f, err := ltl.FromBRASP(nil, p)
		if err != nil {
			t.Fatalf("FromBRASP: %v", err)
		}
		same("FromBRASP(p)", func() (*automata.DFA, error) { return FormulaDFA(nil, f) })
		same("ToBRASP(FromBRASP(p))", func() (*automata.DFA, error) {
			q, err := ltl.ToBRASP(f)
			if err != nil {
				return nil, err
			}
			return ProgramDFA(nil, q)
		})
	}
}
