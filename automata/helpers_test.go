package automata

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/brasp-dev/brasp/internal/testkit"
)

// randomDFA is RandomDFA over the letters a, b, ... (k of them).
func randomDFA(rng *rand.Rand, n, k int) *DFA { return RandomDFA(rng, testkit.Letters(k), n) }

// loadDFA parses testdata/name.
func loadDFA(t testing.TB, name string) *DFA {
	return testkit.Load(t, filepath.Join("testdata", name), Parse)
}

// minimize is Minimize under the default budget, failing the test on error.
func minimize(t testing.TB, d *DFA) *DFA {
	t.Helper()
	m, err := Minimize(nil, d)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
