package bitwise

import "testing"

// TestApply: every connective agrees with Go's Boolean operators on every
// pair of bits.
func TestApply(t *testing.T) {
	x := []uint64{0b0011}
	y := []uint64{0b0101}
	want := map[Op]func(a, b bool) bool{
		Not:     func(a, _ bool) bool { return !a },
		And:     func(a, b bool) bool { return a && b },
		Or:      func(a, b bool) bool { return a || b },
		Implies: func(a, b bool) bool { return !a || b },
		Iff:     func(a, b bool) bool { return a == b },
		Xor:     func(a, b bool) bool { return a != b },
	}
	for op, f := range want {
		v := make([]uint64, 1)
		Apply(op, v, x, y)
		for i := range 4 {
			a, b := x[0]>>i&1 == 1, y[0]>>i&1 == 1
			if got := v[0]>>i&1 == 1; got != f(a, b) {
				t.Errorf("op %d on (%v, %v): %v", op, a, b, got)
			}
		}
	}
}
