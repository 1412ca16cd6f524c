package krohnrhodes

import (
	"errors"
	"fmt"
	"testing"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/internal/testkit"
)

// chainDFA is A_(n-1) of the paper generalised: a saturating counter on
// 0..n-1 moved by R and L, accepting at n-1.
func chainDFA(n int) *automata.DFA {
	d := automata.NewDFA(testkit.Letters(2), n)
	for q := range n {
		d.Delta[q][0] = max(q-1, 0)
		d.Delta[q][1] = min(q+1, n-1)
	}
	d.Accept[n-1] = true
	return d
}

// BenchmarkDecompose measures the holonomy decomposition and the compilation
// of the cascade into B-RASP (Decompose, then CascadeToBRASP), and reports,
// averaged over the DFAs of each size: DFA states, levels, level states (the
// sum of the levels' sizes), contexts (holonomy sets on chains), chain edges
// and B-RASP vectors. Figures for the issue:
//
//	cd automata && go test -run XXX -bench Decompose -benchtime 4x ./
func BenchmarkDecompose(b *testing.B) {
	run := func(b *testing.B, dfas []*automata.DFA) {
		var states, levels, size, contexts, edges, vectors, over int
		for i := 0; b.Loop(); i++ {
			d := dfas[i%len(dfas)]
			// The cascade and its program need no global states (only
			// Decompose's check of the first DecomposeCheck of them), so no
			// DFA should reach a limit; those that do count as "over-limit".
			c, err := Decompose(nil, d)
			if errors.Is(err, budget.ErrLimit) {
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
	for _, n := range []int{4, 8, 12, 16, 20, 25, 30} {
		dfas := counterFreeOfSize(1, n, 4)
		b.Run(fmt.Sprintf("counterfree/n=%d", n), func(b *testing.B) { run(b, dfas) })
		// The chain's cascade has 2^(n-1) global states.
		b.Run(fmt.Sprintf("chain/n=%d", n), func(b *testing.B) { run(b, []*automata.DFA{chainDFA(n)}) })
	}
}
