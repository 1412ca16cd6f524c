package ltltest

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/ltl"
)

// TestRandomFormulaLeaves checks that MOD leaves appear exactly when asked
// for, and that the other kinds of leaves and the temporal operators occur.
func TestRandomFormulaLeaves(t *testing.T) {
	alpha, err := alphabet.New("a", "b")
	if err != nil {
		t.Fatal(err)
	}
	for _, mod := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(1, 2))
		var all strings.Builder
		for range 300 {
			pool := ltl.NewPool(alpha)
			all.WriteString(ltl.Format(RandomFormula(rng, pool, 1+rng.IntN(10), mod)))
			all.WriteByte('\n')
		}
		text := all.String()
		if strings.Contains(text, "MOD") != mod {
			t.Errorf("mod=%v: MOD drawn: %v", mod, strings.Contains(text, "MOD"))
		}
		for _, want := range []string{"first", "last", "since", "until", "a", "b"} {
			if !strings.Contains(text, want) {
				t.Errorf("mod=%v: no %q in 300 formulas", mod, want)
			}
		}
	}
}
