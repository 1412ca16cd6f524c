package ltlf

import (
	"math/rand"
	"testing"
)

// randomFormula builds a random formula over k propositions with about size
// operators, every operator of the package equally likely.
func randomFormula(r *rand.Rand, k, size int, past bool) *Formula {
	props := make([]string, k)
	for i := range props {
		props[i] = string(rune('a' + i))
	}
	f := NewFormula(props)
	var gen func(size int, pastOnly bool) int32
	gen = func(size int, pastOnly bool) int32 {
		if size <= 0 {
			switch r.Intn(8) {
			case 0:
				return f.Mk(True, 0, 0)
			case 1:
				return f.Mk(False, 0, 0)
			}
			return f.Mk(Prop, int32(r.Intn(k)), 0)
		}
		for {
			op := Op(3 + r.Intn(int(numOps)-3))
			if op.Past() && !past {
				continue
			}
			if pastOnly && op.Temporal() && !op.Past() {
				continue
			}
			po := pastOnly || op.Past()
			if op.Arity() == 1 {
				return f.Mk(op, gen(size-1, po), 0)
			}
			left := r.Intn(size)
			return f.Mk(op, gen(left, po), gen(size-1-left, po))
		}
	}
	f.Root = gen(size, false)
	return f
}

// allTraces calls fn on every trace of length 1..maxLen over k propositions.
func allTraces(k, maxLen int, fn func(Trace)) {
	for n := 1; n <= maxLen; n++ {
		total := 1 << (k * n)
		for code := range total {
			t := make(Trace, n)
			for i := range n {
				for p := range k {
					if code>>(i*k+p)&1 == 1 {
						t[i] = t[i].With(p)
					}
				}
			}
			fn(t)
		}
	}
}

func mustParse(t *testing.T, s string) *Formula {
	t.Helper()
	f, err := ParseString(s)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return f
}
