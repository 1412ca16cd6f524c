package position

import "testing"

// TestMasks checks every mask against the predicate it is written as, and
// that the model files' names and the tie-breaks' names read back.
func TestMasks(t *testing.T) {
	holds := map[string]func(i, j int) bool{
		"1":    func(i, j int) bool { return true },
		"j<i":  func(i, j int) bool { return j < i },
		"i<j":  func(i, j int) bool { return i < j },
		"j<=i": func(i, j int) bool { return j <= i },
		"i<=j": func(i, j int) bool { return i <= j },
	}
	for _, m := range Masks {
		f, ok := holds[m.Predicate()]
		if !ok {
			t.Fatalf("mask %d is written %q", m, m.Predicate())
		}
		for i := 1; i <= 4; i++ {
			for j := 1; j <= 4; j++ {
				if m.Allows(i, j) != f(i, j) {
					t.Errorf("%s: Allows(%d, %d) = %v", m.Predicate(), i, j, m.Allows(i, j))
				}
			}
		}
		if m.Strict() != !m.Allows(2, 2) {
			t.Errorf("%s: Strict = %v", m.Predicate(), m.Strict())
		}
		if back, ok := MaskNamed(m.Name()); !ok || back != m {
			t.Errorf("MaskNamed(%q) = %v, %v", m.Name(), back, ok)
		}
	}
	if _, ok := MaskNamed("j<i"); ok {
		t.Error("MaskNamed accepts a B-RASP spelling")
	}
	if Mask(len(Masks)).Valid() || Mask(len(Masks)).Name() != "invalid" {
		t.Error("a mask past the last is valid")
	}
	for _, tb := range []Tiebreak{Leftmost, Rightmost} {
		if back, ok := TiebreakNamed(tb.String()); !ok || back != tb {
			t.Errorf("TiebreakNamed(%q) = %v, %v", tb, back, ok)
		}
	}
}
