package automata

import (
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
)

// wordsUpTo calls f on every word of length at most n over k letters.
func wordsUpTo(k, n int, f func(w []int)) {
	level := [][]int{{}}
	f(nil)
	for range n {
		var next [][]int
		for _, u := range level {
			for a := range k {
				w := append(append([]int{}, u...), a)
				f(w)
				next = append(next, w)
			}
		}
		level = next
	}
}

// agreesUpTo reports whether d and e accept the same words of length at
// most n.
func agreesUpTo(d, e *DFA, n int) bool {
	ok := true
	wordsUpTo(len(d.Alphabet), n, func(w []int) {
		if d.Accepts(w) != e.Accepts(w) {
			ok = false
		}
	})
	return ok
}

// smallerCoverExists reports whether some DFA of s states agrees with d on
// every word up to n (an exhaustive search: s and the alphabet small).
func smallerCoverExists(d *DFA, s, n int) bool {
	k := len(d.Alphabet)
	e := NewDFA(d.Alphabet, s)
	cells := s * k
	digits := make([]int, cells)
	for {
		for q := range s {
			for a := range k {
				e.Delta[q][a] = digits[q*k+a]
			}
		}
		for acc := range 1 << s {
			for q := range s {
				e.Accept[q] = acc>>q&1 == 1
			}
			if agreesUpTo(d, e, n) {
				return true
			}
		}
		i := 0
		for ; i < cells; i++ {
			if digits[i]++; digits[i] < s {
				break
			}
			digits[i] = 0
		}
		if i == cells {
			return false
		}
	}
}

// TestMinimalCover: on random DFAs and bounds, the cover agrees with the DFA
// on every word up to the bound, never has more states than its minimal
// DFA, and (where an exhaustive search is affordable) no DFA with one state
// fewer agrees with it up to the bound.
func TestMinimalCover(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	searched := 0
	for i := range 400 {
		k := 1 + rng.IntN(2)
		alpha := alphabet.Alphabet{"a", "b"}[:k]
		d := RandomDFA(rng, alpha, 1+rng.IntN(12))
		n := rng.IntN(7)
		c, err := MinimalCover(nil, d, n)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
		if !agreesUpTo(d, c, n) {
			t.Fatalf("case %d: the cover of %v up to %d disagrees with it", i, d, n)
		}
		m, _ := Minimize(nil, d)
		if c.NumStates() > m.NumStates() {
			t.Fatalf("case %d: cover of %d states, the minimal DFA has %d", i, c.NumStates(), m.NumStates())
		}
		if s := c.NumStates() - 1; s >= 1 && s <= 3 {
			searched++
			if smallerCoverExists(d, s, n) {
				t.Fatalf("case %d: a DFA of %d states agrees with %v up to %d, the cover has %d", i, s, d, n, c.NumStates())
			}
		}
	}
	t.Logf("%d covers proved minimal by exhaustive search", searched)
}

// TestMinimalCoverCounter: a^(7i) up to length 6 is the empty word alone
// (2 states); from length 7 on its cover is the counter modulo 7 itself.
func TestMinimalCoverCounter(t *testing.T) {
	d := NewDFA(alphabet.Alphabet{"a"}, 7)
	for q := range 7 {
		d.Delta[q][0] = (q + 1) % 7
	}
	d.Accept[0] = true
	for n, want := range map[int]int{0: 1, 1: 2, 6: 2, 7: 7, 20: 7} {
		c, err := MinimalCover(nil, d, n)
		if err != nil {
			t.Fatal(err)
		}
		if c.NumStates() != want || !agreesUpTo(d, c, n) {
			t.Errorf("up to %d: %d states, want %d", n, c.NumStates(), want)
		}
	}
}
