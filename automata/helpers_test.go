package automata

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
)

// allWords returns every word over k symbols of length 0..maxLen in
// short-lex order.
func allWords(k, maxLen int) [][]int {
	words := [][]int{{}}
	level := [][]int{{}}
	for l := 1; l <= maxLen; l++ {
		var next [][]int
		for _, w := range level {
			for a := range k {
				next = append(next, append(append([]int{}, w...), a))
			}
		}
		words = append(words, next...)
		level = next
	}
	return words
}

// testAlphabet returns the alphabet a, b, c, … of k symbols.
func testAlphabet(k int) alphabet.Alphabet {
	syms := make([]string, k)
	for i := range syms {
		syms[i] = string(rune('a' + i))
	}
	a, _ := alphabet.New(syms...)
	return a
}

// randomDFA returns a uniformly random complete DFA with n states over k symbols.
func randomDFA(rng *rand.Rand, n, k int) *DFA {
	d := NewDFA(testAlphabet(k), n)
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
	t.Helper()
	path := filepath.Join("testdata", name)
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// mustWord parses a word over d's alphabet.
func mustWord(t testing.TB, alpha alphabet.Alphabet, s string) []int {
	t.Helper()
	w, err := alpha.ParseWord(s)
	if err != nil {
		t.Fatal(err)
	}
	return w
}
