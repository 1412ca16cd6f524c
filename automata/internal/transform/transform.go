// Package transform holds the small pieces of arithmetic on the states of a
// finite automaton that package automata and its converters share:
// transformations (maps from states to states), images of state sets, and
// bitsets of states.
//
// A transformation t maps every state q to t[q]. The transformation of a
// word w is q ↦ q·w, states acting on the right, so the transformation of
// uv is "first u, then v" (Compose(u, v)).
package transform

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// Compose returns "first s, then t".
func Compose(s, t []int) []int {
	r := make([]int, len(s))
	for q, x := range s {
		r[q] = t[x]
	}
	return r
}

// Identity returns the identity transformation on n states.
func Identity(n int) []int {
	t := make([]int, n)
	for q := range t {
		t[q] = q
	}
	return t
}

// Key is a map key for a transformation or a sorted state list.
func Key(t []int) string {
	b := make([]byte, 4*len(t))
	for i, x := range t {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
	}
	return string(b)
}

// Image returns the sorted set {q·t : q ∈ s}.
func Image(s, t []int) []int {
	out := make([]int, len(s))
	for i, q := range s {
		out[i] = t[q]
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Bitset is a set of small non-negative integers.
type Bitset []uint64

// NewBitset returns an empty set able to hold 0..n-1.
func NewBitset(n int) Bitset { return make(Bitset, (n+63)/64) }

// Set adds i.
func (s Bitset) Set(i int) { s[i/64] |= 1 << (i % 64) }

// Has reports whether i is in the set.
func (s Bitset) Has(i int) bool { return s[i/64]&(1<<(i%64)) != 0 }

// With adds every member of xs and returns s.
func (s Bitset) With(xs []int) Bitset {
	for _, x := range xs {
		s.Set(x)
	}
	return s
}

// All iterates over the members in increasing order.
func (s Bitset) All() func(yield func(int) bool) {
	return func(yield func(int) bool) {
		for w, word := range s {
			for word != 0 {
				b := bits.TrailingZeros64(word)
				if !yield(w*64 + b) {
					return
				}
				word &^= 1 << b
			}
		}
	}
}

// Key is a map key for the set.
func (s Bitset) Key() string {
	b := make([]byte, 8*len(s))
	for i, w := range s {
		for j := range 8 {
			b[8*i+j] = byte(w >> (8 * j))
		}
	}
	return string(b)
}
