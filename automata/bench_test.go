package automata

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/internal/testkit"
)

// benchSizes are the DFA sizes of the benchmarks (4 to 30 states).
var benchSizes = []int{4, 8, 12, 16, 20, 25, 30}

// counterFreeOfSize returns count minimal counter-free DFAs with exactly n
// states over two letters (RandomCounterFree, seeded by seed and n).
func counterFreeOfSize(seed uint64, n, count int) []*DFA {
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	out := make([]*DFA, count)
	for i := range out {
		out[i] = RandomCounterFree(rng, testkit.Letters(2), n)
	}
	return out
}

// BenchmarkClassify measures Classify (minimisation, image orbit, stutter
// check, and for non-star-free inputs the stable semigroup) on counter-free
// DFAs and on uniformly random DFAs, which are almost never star-free.
func BenchmarkClassify(b *testing.B) {
	for _, n := range benchSizes {
		dfas := counterFreeOfSize(1, n, 8)
		b.Run(fmt.Sprintf("counterfree/n=%d", n), func(b *testing.B) {
			images := 0
			for i := 0; b.Loop(); i++ {
				d := dfas[i%len(dfas)]
				if _, err := Classify(nil, d); err != nil {
					b.Fatal(err)
				}
				if i < len(dfas) {
					o, _ := NewImageOrbit(nil, d)
					images += len(o.Sets)
				}
			}
			b.ReportMetric(float64(images)/float64(len(dfas)), "images")
		})
		rng := rand.New(rand.NewPCG(2, uint64(n)))
		var random []*DFA
		for range 8 {
			random = append(random, randomDFA(rng, n, 2))
		}
		b.Run(fmt.Sprintf("random/n=%d", n), func(b *testing.B) {
			failed := 0
			for i := 0; b.Loop(); i++ {
				if _, err := Classify(nil, random[i%len(random)]); err != nil {
					failed++
				}
			}
			b.ReportMetric(float64(failed)/float64(b.N), "limit-errors/op")
		})
	}
}
