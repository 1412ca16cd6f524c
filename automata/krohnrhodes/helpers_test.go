package krohnrhodes

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/internal/testkit"
)

// randomDFA is automata.RandomDFA over the letters a, b, ... (k of them).
func randomDFA(rng *rand.Rand, n, k int) *automata.DFA {
	return automata.RandomDFA(rng, testkit.Letters(k), n)
}

// loadDFA parses testdata/name.
func loadDFA(t testing.TB, name string) *automata.DFA {
	return testkit.Load(t, filepath.Join("..", "testdata", name), automata.Parse)
}

// counterFreeOfSize returns count minimal counter-free DFAs with exactly n
// states over two letters: order-preserving letters on a chain (an aperiodic
// monoid), some letters replaced by resets, resampled until the minimal DFA
// has n states.
func counterFreeOfSize(seed uint64, n, count int) []*automata.DFA {
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	var out []*automata.DFA
	for len(out) < count {
		m := n + rng.IntN(3)
		d := automata.NewDFA(testkit.Letters(2), m)
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
		if d = automata.Minimize(d); d.NumStates() == n {
			out = append(out, d)
		}
	}
	return out
}

// randomMonotone returns a random order-preserving map of 0..n-1.
func randomMonotone(rng *rand.Rand, n int) []int {
	m := make([]int, n)
	for q := range m {
		m[q] = rng.IntN(n)
	}
	slices.Sort(m)
	return m
}

// randomAperiodicish returns a DFA whose letters are order-preserving maps of
// the chain 0 < 1 < … < n-1 (their monoid is aperiodic), with states
// shuffled, and occasionally one arbitrary letter (usually breaking it).
func randomAperiodicish(rng *rand.Rand, n, k int) *automata.DFA {
	d := automata.NewDFA(testkit.Letters(k), n)
	perm := rng.Perm(n)
	for a := range k {
		m := randomMonotone(rng, n)
		if n <= 4 && rng.IntN(8) == 0 {
			for q := range m {
				m[q] = rng.IntN(n)
			}
		}
		for q := range n {
			d.Delta[perm[q]][a] = perm[m[q]]
		}
	}
	for q := range n {
		d.Accept[q] = rng.IntN(2) == 0
	}
	d.Start = rng.IntN(n)
	return d
}
