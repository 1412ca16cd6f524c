package ac0_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/ac0"
	"github.com/brasp-dev/brasp/budget"
)

// BenchmarkRandom times the construction on random DFAs whose minimal DFA
// has about n states (n−4..n) and that classify calls AC0 but not
// star-free (a mod-m counter beside extensive maps), eight DFAs per size, and reports the mean stability index,
// block alphabet and program size of those that stay within the default
// limits (the others are counted as limit hits).
func BenchmarkRandom(b *testing.B) {
	for _, n := range []int{5, 10, 15, 20, 30} {
		rng := rand.New(rand.NewPCG(uint64(n), 7))
		var ds []*automata.DFA
		for len(ds) < 8 {
			d, _ := randomAC0(b, rng, max(2, n-4), n, true)
			ds = append(ds, d)
		}
		b.Run(fmt.Sprintf("states=%d", n), func(b *testing.B) {
			var s, ts, vecs, runs, limited float64
			for b.Loop() {
				for _, d := range ds {
					res, err := ac0.DFAToBRASP(nil, d)
					if errors.Is(err, budget.ErrLimit) {
						limited++
						continue
					}
					if err != nil {
						b.Fatal(err)
					}
					s += float64(res.StabilityIndex)
					ts += float64(res.BlockAlphabet)
					vecs += float64(len(res.Program.Vectors))
					runs++
				}
			}
			b.ReportMetric(limited, "limit-hits")
			b.ReportMetric(s/runs, "s")
			b.ReportMetric(ts/runs, "|T_s|")
			b.ReportMetric(vecs/runs, "vectors")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/(runs+limited)/1e6, "ms/dfa")
		})
	}
}
