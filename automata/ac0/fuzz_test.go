package ac0_test

import (
	"context"
	"errors"
	"testing"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/ac0"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/exact"
)

// FuzzDFAToBRASP runs the construction on any .dfa text under small
// limits: it either stops at a limit, refuses a language that classify
// also calls not AC0, or returns a program exactly equivalent to the DFA.
func FuzzDFAToBRASP(f *testing.F) {
	for _, seed := range []string{
		"alphabet a\nstart e\naccept e\ne a o\no a e\n",
		"alphabet a b\nstart even\naccept odd\neven a even\neven b odd\nodd a odd\nodd b even\n",
		"alphabet a b\nstart 0\naccept 3\n0 a 1\n0 b 1\n1 a 0\n1 b 3\n3 a 1\n3 b 1\n",
		"alphabet a b c\nstart 0\naccept 0\n0 a 1\n0 b 1\n0 c 2\n1 a 2\n1 b 0\n1 c 0\n2 a 2\n2 b 2\n2 c 2\n",
		"alphabet a b\nstart p\naccept q\np a q\np b p\nq a p\nq b q\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := automata.Parse("fuzz.dfa", data)
		if err != nil || d.NumStates() > 12 || len(d.Alphabet) > 4 {
			return
		}
		settings := budget.Settings{}
		for _, s := range []string{"ac0-bytes=4M", "work=16M"} {
			if err := settings.Set(s); err != nil {
				t.Fatal(err)
			}
		}
		res, err := ac0.DFAToBRASP(budget.New(context.Background(), settings), d)
		var notAC0 *ac0.NotAC0Error
		switch {
		case errors.Is(err, budget.ErrLimit):
		case errors.As(err, &notAC0):
			if notAC0.Classification.AC0 {
				t.Fatalf("refused, but classify says AC0: %v", err)
			}
		case err != nil:
			t.Fatal(err)
		default:
			lim := budget.New(context.Background(), budget.Settings{"exact-states": 1 << 12})
			dp, err := exact.ProgramDFA(lim, res.Program)
			if err != nil {
				return // the exact construction's own limit
			}
			if eq, w, _, _ := exact.Equivalent(dp, d); !eq {
				t.Fatalf("the program differs from the DFA on %q", d.Alphabet.FormatWord(w))
			}
		}
	})
}
