package exact

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/ltl"
	"github.com/brasp-dev/brasp/ltl/ltltest"
	"github.com/brasp-dev/brasp/ltl/toltlf"
	"github.com/brasp-dev/brasp/ltlf"
)

// stairSource is STAIR_k as a formula (App. C): γ_k | (1 since γ_k).
func stairSource(k int) string {
	g := "a"
	for range k - 1 {
		g = "a & (c since (" + g + "))"
	}
	return fmt.Sprintf("alphabet a b c\nlet g = %s in\ng | (1 since g)\n", g)
}

// TestRouteChoice: the paper's formulas (past only, three letters) go to
// the bimachine; formulas with a future operator, or past-only ones over
// more letters than past operators, to the symbolic engine.
func TestRouteChoice(t *testing.T) {
	cases := []struct {
		src      string
		symbolic bool
	}{
		{stairSource(1), false},
		{stairSource(6), false},
		{stairSource(40), false},
		{"alphabet a b \"#\"\n\"#\" & (b since (\"#\" & (a since \"#\")))\n", false},
		{"alphabet a b\n(O a) -> (O b)\n", false},
		{"alphabet a b c d\n(O a) -> (O b)\n", true},
		{"alphabet a b c d\na since (b since (c since (d since a)))\n", false},
		{"alphabet a b c d e f\na since (b since (c since (d since a)))\n", true},
		{"alphabet a b\nF a\n", true},
		{"alphabet a b\na | b\n", true},
		{"alphabet a b c\nO (first & (a | b))\n", true},
		{"alphabet a b c\nO (first & (a | Y b))\n", false},
		{"alphabet a b c\na since (b until c)\n", true},
	}
	for _, c := range cases {
		f, err := ltl.ParseFile("f.ltl", []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		if got := symbolicFirst(f); got != c.symbolic {
			t.Errorf("%s: symbolic first %v, want %v", strings.TrimSpace(c.src), got, c.symbolic)
		}
	}
}

// TestRoutesAgree: FormulaDFA, the bimachine and the symbolic engine give
// the very same DFA on STAIR_1..12 and on random past-only formulas over
// two to five letters (either side of the estimate).
func TestRoutesAgree(t *testing.T) {
	var fs []*ltl.Formula
	for k := 1; k <= 12; k++ {
		f, err := ltl.ParseFile("stair.ltl", []byte(stairSource(k)))
		if err != nil {
			t.Fatal(err)
		}
		fs = append(fs, f)
	}
	rng := rand.New(rand.NewPCG(29, 1))
	for len(fs) < 200 {
		pool := ltl.NewPool(brasptest.Alphabet(2 + rng.IntN(4)))
		f := ltltest.RandomFormula(rng, pool, 2+rng.IntN(10), false)
		if _, err := ltl.StrictPast(f); err == nil {
			fs = append(fs, f)
		}
	}
	routes := 0
	for _, f := range fs {
		d, err := FormulaDFA(nil, f)
		if err != nil {
			t.Fatalf("%s: %v", ltl.Format(f), err)
		}
		if symbolicFirst(f) {
			routes++
		}
		b, err := BimachineFormulaDFA(nil, f)
		if err != nil {
			t.Fatalf("%s: bimachine: %v", ltl.Format(f), err)
		}
		others := map[string]*automata.DFA{"bimachine": b}
		switch s, err := toltlf.DFA(nil, f); {
		case err == nil:
			others["symbolic"] = renamed(s)
		case !errors.Is(err, toltlf.ErrUnsupported) && !errors.Is(err, ltlf.ErrPastOverFuture):
			t.Fatalf("%s: symbolic: %v", ltl.Format(f), err)
		}
		for name, o := range others {
			if eq, w, _, err := Equivalent(d, o); err != nil || !eq {
				t.Fatalf("%s: FormulaDFA vs %s differ on %v (%v)", ltl.Format(f), name, w, err)
			}
		}
		ev := ltl.NewEvaluator(f)
		brasptest.AllWords(len(f.Alphabet()), 4, func(w []int) {
			if d.Accepts(w) != ev.Accepts(w) {
				t.Fatalf("%s on %v: DFA %v", ltl.Format(f), w, d.Accepts(w))
			}
		})
	}
	if routes == 0 || routes == len(fs) {
		t.Errorf("%d of %d formulas take the symbolic route: the test does not cover both", routes, len(fs))
	}
}
