package ltl

import (
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/internal/testkit"
)

// TestHashConsing: equal formulas are the same node, so shared subformulas
// are stored once.
func TestHashConsing(t *testing.T) {
	p := NewPool(mustAlphabet("a", "b"))
	f, err := Parse(p, "", []byte("(a since b) & !(a since b) | (a since b)"))
	if err != nil {
		t.Fatal(err)
	}
	if f.DAGSize() != 6 || f.TreeSize() != 12 {
		t.Errorf("DAG %d, tree %d; want 6, 12", f.DAGSize(), f.TreeSize())
	}
	g, _ := Parse(p, "", []byte("a since b"))
	if f.Y != g || f.X.X != g {
		t.Error("equal subformulas are different nodes")
	}
}

func TestSimplifyingConstructors(t *testing.T) {
	p := NewPool(mustAlphabet("a", "b"))
	a, b := p.Symbol(0), p.Symbol(1)
	for _, tc := range []struct {
		name      string
		got, want *Formula
	}{
		{"!!a", p.Not(p.Not(a)), a},
		{"!true", p.Not(p.True()), p.False()},
		{"a & true", p.And(a, p.True()), a},
		{"a & false", p.And(a, p.False()), p.False()},
		{"a & !a", p.And(a, p.Not(a)), p.False()},
		{"a | !a", p.Or(p.Not(a), a), p.True()},
		{"a & a", p.And(a, a), a},
		{"b & a = a & b", p.And(b, a), p.And(a, b)},
		{"a <-> false", p.Iff(a, p.False()), p.Not(a)},
		{"a since false", p.Since(a, p.False()), p.False()},
		{"false S a", p.Temporal(OpSinceNS, p.False(), a), a},
		{"X false", p.Temporal(OpNext, p.False(), nil), p.False()},
		{"N true", p.Temporal(OpWeakNext, p.True(), nil), p.True()},
		{"G true", p.Temporal(OpGlobally, p.True(), nil), p.True()},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %s, want %s", tc.name, Format(tc.got), Format(tc.want))
		}
	}
	// 0 since 1 is not constant: it is false only at the first position.
	if f := p.Since(p.False(), p.True()); f.Op != OpSince {
		t.Errorf("0 since 1 folded to %s", Format(f))
	}
}

// TestSimplify: Simplify keeps the meaning of random formulas and leaves no
// double negation and no constant under a Boolean connective.
func TestSimplify(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	p := NewPool(mustAlphabet("a", "b"))
	for trial := 0; trial < 500; trial++ {
		f := randomFormula(r, p, 1+r.IntN(12), genOptions{ops: allOps, predicates: true})
		g := Simplify(f)
		checkSimplified(t, g)
		ef, eg := NewEvaluator(f), NewEvaluator(g)
		testkit.EachWord(2, 1, 6, func(w []int) {
			if ef.Accepts(w) != eg.Accepts(w) {
				t.Fatalf("Simplify(%s) = %s differs on %v", Format(f), Format(g), w)
			}
		})
	}
}

// checkSimplified fails if f has a double negation, an implication, or a
// constant operand of a Boolean connective.
func checkSimplified(t *testing.T, f *Formula) {
	t.Helper()
	for _, g := range f.Nodes() {
		switch g.Op {
		case OpNot:
			if g.X.Op == OpNot || g.X.Op.Arity() == 0 && g.X.Op != OpSymbol && g.X.Op != OpPredicate {
				t.Fatalf("%s: not simplified at %s", Format(f), Format(g))
			}
		case OpAnd, OpOr, OpIff:
			for _, x := range []*Formula{g.X, g.Y} {
				if x.Op == OpTrue || x.Op == OpFalse {
					t.Fatalf("%s: constant operand at %s", Format(f), Format(g))
				}
			}
		case OpImplies:
			t.Fatalf("%s: implication left", Format(f))
		}
	}
}
