// Package bitwise holds the Boolean connectives on bit-parallel vectors
// (64 positions a word) that the LTL and LTLf evaluators share.
package bitwise

// Op is a Boolean connective.
type Op uint8

// The connectives: Not reads x only.
const (
	Not Op = iota
	And
	Or
	Implies
	Iff
	Xor
)

// Apply sets v = x op y word by word; v, x and y have the same length (y
// is unused for Not).
func Apply(op Op, v, x, y []uint64) {
	switch op {
	case Not:
		for k := range v {
			v[k] = ^x[k]
		}
	case And:
		for k := range v {
			v[k] = x[k] & y[k]
		}
	case Or:
		for k := range v {
			v[k] = x[k] | y[k]
		}
	case Implies:
		for k := range v {
			v[k] = ^x[k] | y[k]
		}
	case Iff:
		for k := range v {
			v[k] = ^(x[k] ^ y[k])
		}
	case Xor:
		for k := range v {
			v[k] = x[k] ^ y[k]
		}
	}
}

// ShiftDown sets v(i) = x(i+1), a word at a time: the last position of
// the last word gets 0 (the caller sets the value past the end).
func ShiftDown(v, x []uint64) {
	for k := range v {
		v[k] = x[k] >> 1
		if k+1 < len(v) {
			v[k] |= x[k+1] << 63
		}
	}
}

// ShiftUp sets v(i) = x(i-1), a word at a time: position 0 gets 0 (the
// caller sets the value before the start).
func ShiftUp(v, x []uint64) {
	var carry uint64
	for k := range v {
		v[k] = x[k]<<1 | carry
		carry = x[k] >> 63
	}
}
