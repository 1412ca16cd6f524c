package learn

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
)

// randomMinimal returns a random minimal DFA with about n states (at least
// 9/10 of n) over k letters, 30% of them accepting: the minimal DFA of a
// random DFA whose states are all reachable (each state after the start
// is first the target of a uniform free transition of the states before
// it, the other transitions are uniform). The targets of the benchmarks.
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
		var free []int // transitions q*k+a of the states placed, not yet set
		for q := range n {
			d.Accept[q] = rng.IntN(10) < 3
			if q > 0 {
				i := rng.IntN(len(free))
				d.Delta[free[i]/k][free[i]%k] = q
				free[i] = free[len(free)-1]
				free = free[:len(free)-1]
			}
			for a := range k {
				free = append(free, q*k+a)
			}
		}
		for _, qa := range free {
			d.Delta[qa/k][qa%k] = rng.IntN(n)
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
// teachers at four sizes over three alphabets (the growth of words and
// time); it reports the distinct words asked, the equivalence rounds, the
// symbols sent and the bytes of the answer cache.
func BenchmarkLearnExact(b *testing.B) {
	for _, n := range []int{100, 1000, 3000, 10000} {
		for _, k := range []int{2, 4, 10} {
			benchmarkLearnExact(b, n, k)
		}
	}
	benchmarkLearnExact(b, 100000, 10)
}

func benchmarkLearnExact(b *testing.B, n, k int) {
	b.Run(fmt.Sprintf("states=%d/letters=%d", n, k), func(b *testing.B) {
		d := randomMinimal(rand.New(rand.NewPCG(uint64(n), uint64(k))), n, k)
		teacher := &DFATeacher{D: d}
		// The largest targets need more states, words and answer
		// memory than the defaults allow, as brasp learn --limit gives.
		raised := budget.Settings{maxStates.Name: 1 << 20, maxQueries.Name: 1 << 26, maxCacheBytes.Name: 16 << 30}
		var st Stats
		var cacheBytes int
		for b.Loop() {
			bud := budget.New(b.Context(), raised)
			cache := NewCache(bud, teacher, d.Alphabet, &Stats{})
			res, err := LearnWith(bud, cache, teacher, nil)
			if err != nil {
				b.Fatal(err)
			}
			st, cacheBytes = res.Stats, cache.Bytes()
		}
		b.ReportMetric(float64(cacheBytes), "cache-bytes")
		b.ReportMetric(float64(st.MembershipQueries), "words")
		b.ReportMetric(float64(st.EquivalenceRounds), "rounds")
		b.ReportMetric(float64(st.Symbols), "symbols")
		b.ReportMetric(float64(d.NumStates()), "states")
	})
}
