package brasp_test

import (
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
)

// TestRunBytes checks that a run on a word stored a byte per symbol fills
// every vector exactly as the run on the same word as ints, on random
// programs over 1 to 20 symbols (the bit-plane fast paths for up to 16
// symbols and the slow path beyond) and lengths around the 64-position
// blocks.
func TestRunBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 200 {
		k := 1 + trial%20
		p := brasptest.RandomProgram(rng, brasptest.Options{Alphabet: k, Predicates: true})
		r := brasp.NewRunner(p)
		for _, n := range []int{1, 2, 63, 64, 65, 130, 1000} {
			w := make([]int, n)
			wb := make([]byte, n)
			for i := range w {
				w[i] = rng.IntN(k)
				wb[i] = byte(w[i])
			}
			want := r.Run(w)
			got := r.RunBytes(nil, wb)
			if got.N() != n || got.Symbol(n-1) != w[n-1] {
				t.Fatalf("trial %d: RunBytes trace has length %d and last symbol %d, want %d and %d", trial, got.N(), got.Symbol(n-1), n, w[n-1])
			}
			for v := range p.Vectors {
				for i := range n {
					if got.Value(v, i) != want.Value(v, i) {
						t.Fatalf("trial %d, %d symbols, length %d: vector %s at %d: bytes %v, ints %v",
							trial, k, n, p.Vectors[v].Name, i, got.Value(v, i), want.Value(v, i))
					}
				}
			}
		}
	}
}
