package automata

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/brasp-dev/brasp/internal/testkit"
)

// randomDFA returns a uniformly random complete DFA with n states over k symbols.
func randomDFA(rng *rand.Rand, n, k int) *DFA {
	d := NewDFA(testkit.Letters(k), n)
	d.Start = rng.IntN(n)
	for q := range n {
		d.Accept[q] = rng.IntN(2) == 0
		for a := range k {
			d.Delta[q][a] = rng.IntN(n)
		}
	}
	return d
}

// loadDFA parses testdata/name.
func loadDFA(t testing.TB, name string) *DFA {
	return testkit.Load(t, filepath.Join("testdata", name), Parse)
}
