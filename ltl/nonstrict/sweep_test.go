package nonstrict_test

import (
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/ltl"
	"github.com/brasp-dev/brasp/ltl/ltltest"
	"github.com/brasp-dev/brasp/ltl/nonstrict"
)

// TestSweep: the swept formula agrees with the original at every position
// of every short word, is no deeper, and merges what it should.
func TestSweep(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	smaller := 0
	for k := range 150 {
		alpha := brasptest.Alphabet(1 + k%3)
		f := ltltest.RandomFormula(rng, ltl.NewPool(alpha), 3+rng.IntN(14), false)
		g, err := nonstrict.Sweep(nil, f)
		if err != nil {
			t.Fatal(err)
		}
		if g.Depth() > f.Depth() {
			t.Errorf("%s: depth %d → %d", ltl.Format(f), f.Depth(), g.Depth())
		}
		if g.DAGSize() < f.DAGSize() {
			smaller++
		}
		ef, eg := ltl.NewEvaluator(f), ltl.NewEvaluator(g)
		brasptest.AllWords(len(alpha), []int{8, 7, 5}[k%3], func(w []int) {
			if len(w) == 0 || t.Failed() {
				return
			}
			tf, tg := ef.Evaluate(w), eg.Evaluate(w)
			for i := range w {
				if tf.Value(f, i) != tg.Value(g, i) {
					t.Errorf("%s swept to %s: they differ on %q at %d", ltl.Format(f), ltl.Format(g), alpha.FormatWord(w), i+1)
					return
				}
			}
		})
		if t.Failed() {
			return
		}
	}
	if smaller < 30 {
		t.Errorf("only %d of 150 random formulas got smaller", smaller)
	}
	// The letter bookkeeping of a Krohn–Rhodes formula folds away.
	f, err := ltl.ParseFile("kr.ltl", []byte("alphabet a b\n(a | b) & ((false since !b) | (b & !a))"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := nonstrict.Sweep(nil, f)
	if err != nil {
		t.Fatal(err)
	}
	if got := ltl.Format(g); got != "b | (false since a)" && got != "(false since a) | b" {
		t.Errorf("swept to %s", got)
	}
}
