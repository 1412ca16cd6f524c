package brasp

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// randomExpr returns a random expression of depth at most d over vectors
// 0..2 read at i or j, with constants.
func randomExpr(rng *rand.Rand, d int) Expr {
	switch r := rng.IntN(8); {
	case d == 0 || r < 2:
		if rng.IntN(3) == 0 {
			return Bool(rng.IntN(2) == 0)
		}
		k := rng.IntN(3)
		return &Ref{Name: fmt.Sprint("V", k), Var: Var(rng.IntN(2)), Vec: k}
	case r < 4:
		return Not(randomExpr(rng, d-1))
	case r < 6:
		return And(randomExpr(rng, d-1), randomExpr(rng, d-1))
	}
	return Or(randomExpr(rng, d-1), randomExpr(rng, d-1))
}

// TestExprToolkit checks the toolkit against evaluation on every assignment
// of the six atoms: Substitute is Fold after MapRefs, ReadAt reads the same
// values at the other position, Fold leaves no repeated operand, and
// Conjoin/Disjoin/Negate keep every reference and the value.
func TestExprToolkit(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for c := 0; c < 3000; c++ {
		e, x := randomExpr(rng, 5), randomExpr(rng, 3)
		before := FormatExpr(e)
		// Replace vector 0 by x, vector 1 by the constant 1.
		f := func(r *Ref) Expr {
			switch r.Vec {
			case 0:
				return Fold(x)
			case 1:
				return Bool(true)
			}
			return r
		}
		s, m := Substitute(e, f), MapRefs(e, f)
		if FormatExpr(s) != FormatExpr(Fold(m)) {
			t.Fatalf("Substitute(%s) = %s, Fold(MapRefs) = %s", before, FormatExpr(s), FormatExpr(Fold(m)))
		}
		for a := 0; a < 64; a++ {
			at := func(vec int, v Var) bool { return a>>(2*vec+int(v))&1 == 1 }
			if Eval(s, at) != Eval(m, at) {
				t.Fatalf("Substitute(%s) = %s differs from MapRefs = %s at %06b", before, FormatExpr(s), FormatExpr(m), a)
			}
			// ReadAt(e, j) with the j values of atI reads what e reads with
			// every reference at i.
			atI := func(vec int, _ Var) bool { return at(vec, VarI) }
			onlyJ := func(vec int, v Var) bool {
				if v != VarJ {
					t.Fatalf("ReadAt(%s, j) reads at i", before)
				}
				return at(vec, VarI)
			}
			if Eval(ReadAt(e, VarJ), onlyJ) != Eval(e, atI) {
				t.Fatalf("ReadAt(%s, j) reads other values", before)
			}
			if Eval(Conjoin(e, x), at) != (Eval(e, at) && Eval(x, at)) ||
				Eval(Disjoin(e, x), at) != (Eval(e, at) || Eval(x, at)) ||
				Eval(Negate(e), at) != !Eval(e, at) {
				t.Fatalf("Conjoin/Disjoin/Negate of %s and %s change the value at %06b", before, FormatExpr(x), a)
			}
		}
		if got, want := len(Refs(Conjoin(e, x))), len(Refs(e))+len(Refs(x)); got != want {
			t.Fatalf("Conjoin(%s, %s) reads %d references, want %d", before, FormatExpr(x), got, want)
		}
		Walk(Fold(e), func(y Expr) {
			if b, ok := y.(*BinaryExpr); ok && EqualExpr(b.X, b.Y) {
				t.Fatalf("Fold(%s) keeps the repeated operand in %s", before, FormatExpr(b))
			}
		})
		if FormatExpr(e) != before {
			t.Fatalf("the toolkit modified its input %s", before)
		}
	}
}
