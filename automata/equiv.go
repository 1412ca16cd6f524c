package automata

import (
	"fmt"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/budget"
)

// This file is the one product search for a shortest word on which two
// automata disagree. Every equivalence check of the repository comes here:
// Compare (two DFAs over one alphabet), CompareAligned (alphabets merged
// first, what exact.Equivalent and `brasp equiv` use), and
// DistinguishingSuffix (two states of one DFA, for the witnesses of
// Classify and the holonomy).

// maxProductBytes bounds the memory of the product search: the state pairs
// it has reached and the breadth-first queue that leads back to the word.
var maxProductBytes = budget.Define("product-bytes", 1<<28, "bytes",
	"memory of the product of two automata searched for a shortest difference (equivalence)")

// pairBytes bounds what one reached pair costs: its queue node and, for a
// pair that is not a first partner, its map entry (key and the map's
// overhead). The first-partner array costs 4 bytes per state of the first
// automaton, charged up front.
const pairBytes = 80

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
	// Alphabet is the alphabet Word is written in: the first automaton's
	// (for CompareAligned, the merged alphabet of MergeAlphabets).
	Alphabet alphabet.Alphabet
}

// Compare decides whether a and b accept the same words of the domain. It
// returns nil if they do, and otherwise a shortest word on which they differ,
// found by breadth-first search of the product. The alphabets must be equal
// (CompareAligned merges them first). The search runs under bud
// (product-bytes and work; nil for the defaults).
func Compare(bud *budget.Budget, a, b *DFA, domain Domain) (*Disagreement, error) {
	if !a.Alphabet.Equal(b.Alphabet) {
		return nil, fmt.Errorf("alphabets differ: {%s} and {%s}", a.Alphabet, b.Alphabet)
	}
	meter := bud.Meter(maxProductBytes, "the product of two automata")
	w, found, err := shortestDifference(meter, a, b, a.Start, b.Start, domain == SigmaPlus)
	if err != nil || !found {
		return nil, err
	}
	return &Disagreement{Word: w, AcceptedByFirst: a.Accept[a.Run(a.Start, w)], Alphabet: a.Alphabet}, nil
}

// CompareAligned is Compare for automata over any two alphabets: both are
// first put on the merged alphabet (Align), where a word with a symbol one
// side does not know is rejected by that side. The word of the
// Disagreement is over the merged alphabet, which it carries.
func CompareAligned(bud *budget.Budget, a, b *DFA, domain Domain) (*Disagreement, error) {
	x, y, err := Align(a, b)
	if err != nil {
		return nil, err
	}
	return Compare(bud, x, y, domain)
}

// Equivalent reports whether a and b accept the same words of the domain; it
// is false when the alphabets differ.
func Equivalent(a, b *DFA, domain Domain) bool {
	d, err := Compare(nil, a, b, domain)
	return err == nil && d == nil
}

// DistinguishingSuffix returns a shortest word v on which p and q disagree
// (exactly one of p·v and q·v accepts), and false if p and q are equivalent.
// It is the product search of d with itself from the pair (p, q), without a
// limit: d's own size bounds it (at most n² pairs).
func (d *DFA) DistinguishingSuffix(p, q int) ([]int, bool) {
	v, found, _ := shortestDifference(nil, d, d, p, q, false)
	return v, found
}

// shortestDifference searches the product of a and b (same alphabet)
// breadth-first from the pair (p, q), symbols in index order, for a
// shortest word w, first in short-lex order, on which a from p and b from q
// disagree; with nonEmpty the empty word does not count. Each pair reached
// is charged to meter (nil: not counted).
//
// The pairs reached are kept in a dense array indexed by the states of the
// larger automaton (the first partner each of its states was reached with)
// and a map for the others: when the smaller automaton is nearly a
// quotient of the larger (a hypothesis of package learn against its
// target, a minimised DFA against its source) almost every pair is a first
// partner, and the search costs an array look-up per transition.
func shortestDifference(meter *budget.Meter, a, b *DFA, p, q int, nonEmpty bool) ([]int, bool, error) {
	type node struct {
		p, q, parent, sym int32
	}
	big, small := len(a.Delta), len(b.Delta)
	swap := big < small
	if swap {
		big, small = small, big
	}
	if meter != nil {
		if err := meter.Add(4 * int64(big)); err != nil {
			return nil, false, err
		}
	}
	first := make([]int32, big)
	for i := range first {
		first[i] = -1
	}
	var others map[uint64]struct{}
	// seen marks the pair (x, y) reached and reports whether it was
	// already.
	seen := func(x, y int32) bool {
		if swap {
			x, y = y, x
		}
		switch first[x] {
		case y:
			return true
		case -1:
			first[x] = y
			return false
		}
		key := uint64(x)*uint64(small) + uint64(y)
		if _, ok := others[key]; ok {
			return true
		}
		if others == nil {
			others = map[uint64]struct{}{}
		}
		others[key] = struct{}{}
		return false
	}
	// With nonEmpty the root (the empty word) is not marked seen, so that a
	// return to the start pair by a non-empty word is still examined.
	if !nonEmpty {
		seen(int32(p), int32(q))
	}
	nodes := []node{{int32(p), int32(q), -1, -1}}
	for i := 0; i < len(nodes); i++ {
		n := nodes[i]
		if a.Accept[n.p] != b.Accept[n.q] && (!nonEmpty || n.parent >= 0) {
			w := []int{}
			for j := i; nodes[j].parent >= 0; j = int(nodes[j].parent) {
				w = append(w, int(nodes[j].sym))
			}
			for l, r := 0, len(w)-1; l < r; l, r = l+1, r-1 {
				w[l], w[r] = w[r], w[l]
			}
			return w, true, nil
		}
		ra, rb := a.Delta[n.p], b.Delta[n.q]
		for c := range ra {
			x, y := int32(ra[c]), int32(rb[c])
			if seen(x, y) {
				continue
			}
			if meter != nil {
				if err := meter.Add(pairBytes); err != nil {
					return nil, false, err
				}
			}
			nodes = append(nodes, node{x, y, int32(i), int32(c)})
		}
	}
	return nil, false, nil
}
