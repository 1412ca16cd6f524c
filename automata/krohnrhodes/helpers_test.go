package krohnrhodes

import (
	"math/rand/v2"
	"path/filepath"
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
// states over two letters (automata.RandomCounterFree, seeded by seed and
// n).
func counterFreeOfSize(seed uint64, n, count int) []*automata.DFA {
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	out := make([]*automata.DFA, count)
	for i := range out {
		out[i] = automata.RandomCounterFree(rng, testkit.Letters(2), n)
	}
	return out
}

// randomAperiodicish is automata.RandomNearlyAperiodic over k letters.
func randomAperiodicish(rng *rand.Rand, n, k int) *automata.DFA {
	return automata.RandomNearlyAperiodic(rng, testkit.Letters(k), n)
}
