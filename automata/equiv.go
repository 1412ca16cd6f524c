package automata

import "fmt"

// Domain says which words a comparison ranges over.
type Domain int

const (
	// SigmaStar compares on all words, the empty word included.
	SigmaStar Domain = iota
	// SigmaPlus compares on non-empty words only, the words B-RASP, LTL and
	// transformers read.
	SigmaPlus
)

// Disagreement is a shortest word (shortest, then first in short-lex order) on
// which two automata differ.
type Disagreement struct {
	Word            []int
	AcceptedByFirst bool // true: the first automaton accepts Word and the second rejects it
}

// Compare decides whether a and b accept the same words of the domain. It
// returns nil if they do, and otherwise a shortest word on which they differ,
// found by breadth-first search of the product. The alphabets must be equal.
func Compare(a, b *DFA, domain Domain) (*Disagreement, error) {
	if !a.Alphabet.Equal(b.Alphabet) {
		return nil, fmt.Errorf("alphabets differ: {%s} and {%s}", a.Alphabet, b.Alphabet)
	}
	type node struct {
		p, q   int
		parent int
		sym    int
	}
	// With SigmaPlus the root (the empty word) is not marked seen, so that a
	// return to the start pair by a non-empty word is still examined.
	seen := map[[2]int]bool{}
	if domain == SigmaStar {
		seen[[2]int{a.Start, b.Start}] = true
	}
	nodes := []node{{a.Start, b.Start, -1, -1}}
	for i := 0; i < len(nodes); i++ {
		n := nodes[i]
		if a.Accept[n.p] != b.Accept[n.q] && (domain == SigmaStar || n.parent >= 0) {
			var w []int
			for j := i; nodes[j].parent >= 0; j = nodes[j].parent {
				w = append(w, nodes[j].sym)
			}
			for l, r := 0, len(w)-1; l < r; l, r = l+1, r-1 {
				w[l], w[r] = w[r], w[l]
			}
			if w == nil {
				w = []int{}
			}
			return &Disagreement{Word: w, AcceptedByFirst: a.Accept[n.p]}, nil
		}
		for c := range a.Alphabet {
			key := [2]int{a.Delta[n.p][c], b.Delta[n.q][c]}
			if !seen[key] {
				seen[key] = true
				nodes = append(nodes, node{key[0], key[1], i, c})
			}
		}
	}
	return nil, nil
}

// Equivalent reports whether a and b accept the same words of the domain; it
// is false when the alphabets differ.
func Equivalent(a, b *DFA, domain Domain) bool {
	d, err := Compare(a, b, domain)
	return err == nil && d == nil
}
