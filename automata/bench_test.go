package automata

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// benchSizes are the DFA sizes of the benchmarks (issue 6: 4 to 30 states).
var benchSizes = []int{4, 8, 12, 16, 20, 25, 30}

// counterFreeOfSize returns count minimal counter-free DFAs with exactly n
// states over two letters: order-preserving letters on a chain (an aperiodic
// monoid), some letters replaced by resets, resampled until the minimal DFA
// has n states.
func counterFreeOfSize(seed uint64, n, count int) []*DFA {
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	var out []*DFA
	for len(out) < count {
		m := n + rng.IntN(3)
		d := NewDFA(testAlphabet(2), m)
		for a := range 2 {
			f := randomMonotone(rng, m)
			if rng.IntN(4) == 0 {
				r := rng.IntN(m)
				for q := range f {
					f[q] = r
				}
			}
			for q := range m {
				d.Delta[q][a] = f[q]
			}
		}
		for q := range m {
			d.Accept[q] = rng.IntN(2) == 0
		}
		d.Start = rng.IntN(m)
		if d = Minimize(d); d.NumStates() == n {
			out = append(out, d)
		}
	}
	return out
}

// chainDFA is A_(n-1) of the paper generalised: a saturating counter on
// 0..n-1 moved by R and L, accepting at n-1.
func chainDFA(n int) *DFA {
	d := NewDFA(testAlphabet(2), n)
	for q := range n {
		d.Delta[q][0] = max(q-1, 0)
		d.Delta[q][1] = min(q+1, n-1)
	}
	d.Accept[n-1] = true
	return d
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
				if _, err := Classify(d, Limits{}); err != nil {
					b.Fatal(err)
				}
				if i < len(dfas) {
					o, _ := newImageOrbit(d, DefaultMaxImages)
					images += len(o.sets)
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
				if _, err := Classify(random[i%len(random)], Limits{}); err != nil {
					failed++
				}
			}
			b.ReportMetric(float64(failed)/float64(b.N), "limit-errors/op")
		})
	}
}

// benchMaxCascade is the limit on global states in BenchmarkDecompose. The
// cascade and its program need no global states (only Decompose's check of
// the first DecomposeCheck of them), so no DFA should reach it; the
// benchmark counts those that do as "over-limit".
const benchMaxCascade = 100000

// BenchmarkDecompose measures the holonomy decomposition and the compilation
// of the cascade into B-RASP (Decompose, then CascadeToBRASP), and reports,
// averaged over the DFAs of each size: DFA states, levels, level states (the
// sum of the levels' sizes), contexts (holonomy sets on chains), chain edges
// and B-RASP vectors. Figures for the issue:
//
//	cd automata && go test -run XXX -bench Decompose -benchtime 4x ./
func BenchmarkDecompose(b *testing.B) {
	run := func(b *testing.B, dfas []*DFA) {
		var states, levels, size, contexts, edges, vectors, over int
		for i := 0; b.Loop(); i++ {
			d := dfas[i%len(dfas)]
			c, err := Decompose(d, Limits{MaxCascade: benchMaxCascade})
			if _, ok := err.(*LimitError); ok {
				over++
				continue
			}
			if err != nil {
				b.Fatal(err)
			}
			p, err := CascadeToBRASP(c)
			if err != nil {
				b.Fatal(err)
			}
			if i < len(dfas) {
				states += d.NumStates()
				levels += len(c.Levels)
				size += c.Size()
				contexts += c.Contexts()
				edges += len(c.Edges)
				vectors += len(p.Vectors)
			}
		}
		k := float64(min(len(dfas), b.N) - over)
		b.ReportMetric(float64(over), "over-limit")
		if k == 0 {
			return
		}
		b.ReportMetric(float64(states)/k, "states")
		b.ReportMetric(float64(levels)/k, "levels")
		b.ReportMetric(float64(size)/k, "level-states")
		b.ReportMetric(float64(contexts)/k, "contexts")
		b.ReportMetric(float64(edges)/k, "edges")
		b.ReportMetric(float64(vectors)/k, "vectors")
	}
	for _, n := range benchSizes {
		dfas := counterFreeOfSize(1, n, 4)
		b.Run(fmt.Sprintf("counterfree/n=%d", n), func(b *testing.B) { run(b, dfas) })
		// The chain's cascade has 2^(n-1) global states.
		b.Run(fmt.Sprintf("chain/n=%d", n), func(b *testing.B) { run(b, []*DFA{chainDFA(n)}) })
	}
}
