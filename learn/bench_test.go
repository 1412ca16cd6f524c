package learn

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
)

// randomMinimal returns the minimal DFA of a random DFA with n states
// over k letters, 30% of them accepting: exactly n states when k is large,
// a few percent fewer otherwise (states nothing reaches; with 4 letters
// about e⁻⁴ of them). The targets of the benchmarks.
func randomMinimal(rng *rand.Rand, n, k int) *automata.DFA {
	alpha := make(alphabet.Alphabet, k)
	for a := range alpha {
		alpha[a] = fmt.Sprintf("%c", 'a'+a)
		if k > 26 {
			alpha[a] = fmt.Sprintf("x%d", a)
		}
	}
	for {
		d := automata.NewDFA(alpha, n)
		for q := range n {
			d.Accept[q] = rng.IntN(10) < 3
			for a := range k {
				d.Delta[q][a] = rng.IntN(n)
			}
		}
		m, err := automata.Minimize(nil, d)
		if err != nil {
			panic(err)
		}
		if m.NumStates() >= n*9/10 {
			return m
		}
	}
}

// BenchmarkLearnExact learns random minimal DFAs from their exact
// teachers at four sizes; it reports the distinct words asked per state.
func BenchmarkLearnExact(b *testing.B) {
	for _, size := range []struct{ n, k int }{{100, 4}, {1000, 4}, {1000, 10}, {10000, 10}} {
		b.Run(fmt.Sprintf("states=%d/letters=%d", size.n, size.k), func(b *testing.B) {
			d := randomMinimal(rand.New(rand.NewPCG(uint64(size.n), uint64(size.k))), size.n, size.k)
			teacher := &DFATeacher{D: d}
			var st Stats
			for b.Loop() {
				res, err := Learn(budget.New(b.Context(), nil), d.Alphabet, teacher, teacher)
				if err != nil {
					b.Fatal(err)
				}
				st = res.Stats
			}
			b.ReportMetric(float64(st.MembershipQueries), "words")
			b.ReportMetric(float64(st.EquivalenceRounds), "rounds")
			b.ReportMetric(float64(st.Symbols), "symbols")
			b.ReportMetric(float64(d.NumStates()), "states")
		})
	}
}
