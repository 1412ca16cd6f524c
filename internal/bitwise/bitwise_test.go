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

// TestShift: the shifts move every bit one position across word
// boundaries, filling with 0.
func TestShift(t *testing.T) {
	x := []uint64{1<<63 | 1, 1<<63 | 2}
	v := make([]uint64, 2)
	ShiftDown(v, x)
	if v[0] != 1<<62 || v[1] != 1<<62|1 {
		t.Errorf("ShiftDown: %x", v)
	}
	ShiftUp(v, x)
	if v[0] != 2 || v[1] != 4|1 {
		t.Errorf("ShiftUp: %x", v)
	}
}
