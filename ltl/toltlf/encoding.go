package toltlf

import (
	"math/bits"
	"strconv"
)

// Bits is the number of propositions that encode an alphabet of n letters:
// ⌈log2 n⌉.
func Bits(n int) int {
	if n <= 1 {
		return 0
	}
	return bits.Len(uint(n - 1))
}

// Props names the propositions encoding an alphabet of n letters: b0 is the
// most significant bit of a letter's index.
func Props(n int) []string {
	ps := make([]string, Bits(n))
	for i := range ps {
		ps[i] = "b" + strconv.Itoa(i)
	}
	return ps
}

// Code reports whether proposition i is true in the encoding of letter a
// of an alphabet whose letters take k bits.
func Code(a, i, k int) bool { return a>>(k-1-i)&1 == 1 }
