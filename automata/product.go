package automata

import (
	"fmt"

	"github.com/brasp-dev/brasp/alphabet"
)

// Product returns the reachable part of the product automaton of a and b,
// whose state (p, q) is accepting iff accept(a accepts at p, b accepts at q).
// States are named "(p,q)". The alphabets must be equal.
func Product(a, b *DFA, accept func(x, y bool) bool) (*DFA, error) {
	if !a.Alphabet.Equal(b.Alphabet) {
		return nil, fmt.Errorf("alphabets differ: {%s} and {%s}", a.Alphabet, b.Alphabet)
	}
	k := len(a.Alphabet)
	index := map[[2]int]int{}
	var pairs [][2]int
	get := func(p [2]int) int {
		if i, ok := index[p]; ok {
			return i
		}
		index[p] = len(pairs)
		pairs = append(pairs, p)
		return len(pairs) - 1
	}
	get([2]int{a.Start, b.Start})
	d := &DFA{Alphabet: a.Alphabet}
	for i := 0; i < len(pairs); i++ {
		p := pairs[i]
		row := make([]int, k)
		for c := range k {
			row[c] = get([2]int{a.Delta[p[0]][c], b.Delta[p[1]][c]})
		}
		d.Delta = append(d.Delta, row)
		d.States = append(d.States, "("+alphabet.Quote(a.States[p[0]])+","+alphabet.Quote(b.States[p[1]])+")")
		d.Accept = append(d.Accept, accept(a.Accept[p[0]], b.Accept[p[1]]))
	}
	return d, nil
}

// Intersect returns an automaton for L(a) ∩ L(b).
func Intersect(a, b *DFA) (*DFA, error) {
	return Product(a, b, func(x, y bool) bool { return x && y })
}

// Union returns an automaton for L(a) ∪ L(b).
func Union(a, b *DFA) (*DFA, error) {
	return Product(a, b, func(x, y bool) bool { return x || y })
}

// Difference returns an automaton for L(a) \ L(b).
func Difference(a, b *DFA) (*DFA, error) {
	return Product(a, b, func(x, y bool) bool { return x && !y })
}

// Complement returns an automaton for Σ* \ L(d) (ε included when d rejects
// it); use RestrictNonEmpty to stay within Σ⁺.
func Complement(d *DFA) *DFA {
	c := d.Clone()
	for q := range c.Accept {
		c.Accept[q] = !c.Accept[q]
	}
	return c
}

// RestrictNonEmpty returns an automaton for L(d) ∩ Σ⁺: a fresh rejecting start
// state with the old start's transitions, so ε is rejected and every other
// word is treated as before.
func RestrictNonEmpty(d *DFA) *DFA {
	if !d.Accept[d.Start] {
		return d.Clone()
	}
	c := d.Clone()
	taken := map[string]bool{}
	for _, s := range c.States {
		taken[s] = true
	}
	c.States = append(c.States, uniqueName("init", taken))
	c.Accept = append(c.Accept, false)
	c.Delta = append(c.Delta, append([]int(nil), c.Delta[c.Start]...))
	c.Start = len(c.Delta) - 1
	return c
}
