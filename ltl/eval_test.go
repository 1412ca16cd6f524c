package ltl

import (
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/internal/testkit"
)

// TestEvaluateMatchesDefinition checks the linear evaluator against the
// definition on random formulas with every operator and predicate, on all
// short words and on random words that cross 64-bit word boundaries.
func TestEvaluateMatchesDefinition(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	p := NewPool(mustAlphabet("a", "b", "c"))
	opt := genOptions{ops: allOps, predicates: true}
	for trial := 0; trial < 600; trial++ {
		f := randomFormula(r, p, 1+r.IntN(9), opt)
		ev := NewEvaluator(f)
		check := func(w []int) {
			tr := ev.Evaluate(w)
			memo := map[[2]int]bool{}
			for i := range w {
				if got, want := tr.Value(f, i), holdsRef(f, w, i, memo); got != want {
					t.Fatalf("%s on %v at %d: evaluator %v, definition %v", Format(f), w, i, got, want)
				}
			}
		}
		testkit.EachWord(3, 1, 4, check)
		for k := 0; k < 3; k++ {
			check(randomWord(r, 3, []int{63, 64, 65, 128, 60 + r.IntN(80)}[r.IntN(5)]))
		}
	}
}

func TestAcceptsEmptyWord(t *testing.T) {
	p := NewPool(mustAlphabet("a"))
	if Accepts(p.True(), nil) {
		t.Error("the empty word is accepted")
	}
}

// TestAcceptsRecyclesAgreesWithEvaluate: the memory-saving path of Accepts
// gives the same verdicts as the full trace.
func TestAcceptsRecyclesAgreesWithEvaluate(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(17, 18))
	p := NewPool(mustAlphabet("a", "b", "c"))
	for trial := 0; trial < 300; trial++ {
		f := randomFormula(r, p, 1+r.IntN(30), genOptions{ops: allOps, predicates: true})
		ev := NewEvaluator(f)
		for range 20 {
			w := randomWord(r, 3, 1+r.IntN(200))
			if ev.Accepts(w) != ev.Evaluate(w).Value(f, len(w)-1) {
				t.Fatalf("%s on %v", Format(f), w)
			}
		}
	}
}

// TestAcceptsBytes: a word stored a byte per symbol gets the verdict of the
// same word stored as ints, on random formulas and words across 64-bit
// word boundaries.
func TestAcceptsBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	p := NewPool(mustAlphabet("a", "b", "c"))
	opt := genOptions{ops: allOps, predicates: true}
	for trial := 0; trial < 300; trial++ {
		ev := NewEvaluator(randomFormula(r, p, 1+r.IntN(9), opt))
		for _, n := range []int{0, 1, 2, 7, 63, 64, 65, 130} {
			w := make([]int, n)
			bw := make([]byte, n)
			for i := range w {
				w[i] = r.IntN(3)
				bw[i] = byte(w[i])
			}
			if got, want := ev.AcceptsBytes(bw), ev.Accepts(w); got != want {
				t.Fatalf("%v on %v: bytes %v, ints %v", ev.f, w, got, want)
			}
		}
	}
}
