package nonstrict

import "math/bits"

// letterSet is a set of letters of an alphabet of size n, as a bit set; it
// is the meaning of a Boolean combination of letter atoms at one position.
type letterSet struct {
	n    int
	bits []uint64
}

func empty(n int) letterSet { return letterSet{n: n, bits: make([]uint64, (n+63)/64)} }

func full(n int) letterSet { return empty(n).complement() }

func single(n, a int) letterSet {
	s := empty(n)
	s.bits[a/64] |= 1 << (a % 64)
	return s
}

func (s letterSet) has(a int) bool { return s.bits[a/64]&(1<<(a%64)) != 0 }

func (s letterSet) count() int {
	c := 0
	for _, w := range s.bits {
		c += bits.OnesCount64(w)
	}
	return c
}

// complement is the set of the other letters of the alphabet.
func (s letterSet) complement() letterSet {
	out := empty(s.n)
	for k, w := range s.bits {
		out.bits[k] = ^w
	}
	if r := s.n % 64; r != 0 {
		out.bits[len(out.bits)-1] &= 1<<r - 1
	}
	return out
}

func (s letterSet) and(t letterSet) letterSet {
	out := empty(s.n)
	for k := range out.bits {
		out.bits[k] = s.bits[k] & t.bits[k]
	}
	return out
}

func (s letterSet) or(t letterSet) letterSet {
	out := empty(s.n)
	for k := range out.bits {
		out.bits[k] = s.bits[k] | t.bits[k]
	}
	return out
}

func (s letterSet) equal(t letterSet) bool {
	for k := range s.bits {
		if s.bits[k] != t.bits[k] {
			return false
		}
	}
	return true
}
