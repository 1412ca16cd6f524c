package regex

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/budget"
)

// smallStack runs f with the goroutine stack capped at 256 KB, so that
// recursion as deep as an expression is long fails the test (a stack
// overflow) where the default cap of a gigabyte would hide it.
func smallStack(t *testing.T, f func()) {
	t.Helper()
	old := debug.SetMaxStack(256 << 10)
	defer debug.SetMaxStack(old)
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	<-done
}

// Long concatenations are walked without recursion: a chain of nullable
// heads (each derivative unions along it), a chain under a star (each
// derivative puts the star at the chain's end), a chain under +. Each
// starts with a union, whose derivatives the shape bound does not count,
// so that the derivatives are built and the limit reached by exploring.
func TestLongChainsNoRecursion(t *testing.T) {
	alpha := mustAlpha(t, "a", "b")
	for _, expr := range []string{
		strings.Repeat("a?", 4000) + "b",
		"((a|b)" + strings.Repeat("ab", 20000) + ")*",
		"(" + strings.Repeat("ab", 20000) + ")+",
		"~((a|b)" + strings.Repeat("a", 20000) + ")",
	} {
		shape, err := ParseExpr(alpha, expr)
		if err != nil {
			t.Fatal(err)
		}
		if n := leadingWordStates(shape.Root, 2); n > 1 {
			t.Fatalf("%.20s…: the shape shows %d derivatives, so they would not be explored", expr, n)
		}
		smallStack(t, func() {
			var r *Regex
			r, err = ParseExpr(alpha, expr)
			if err != nil {
				return
			}
			_, err = r.DFA(budget.New(context.Background(), budget.Settings{"regex-states": 8}))
		})
		if !errors.Is(err, budget.ErrLimit) || !strings.Contains(err.Error(), "regex-states=8") {
			t.Errorf("%.20s…: %v, want the regex-states limit", expr, err)
		}
	}
}

// A state's row looks at the front of its term only: the derivative
// automaton of a concatenation of a million symbols costs about as much
// work per state as a short one, not a walk of the whole expression.
func TestLongConcatenationWork(t *testing.T) {
	alpha := mustAlpha(t, "a", "b")
	// (a|b) in front: the shape bound counts nothing, the states are
	// explored.
	r, err := ParseExpr(alpha, "(a|b)"+strings.Repeat("ab", 500000))
	if err != nil {
		t.Fatal(err)
	}
	if n := leadingWordStates(r.Root, 2); n > 1 {
		t.Fatalf("the shape shows %d derivatives", n)
	}
	b := budget.New(context.Background(), budget.Settings{"regex-states": 2000})
	if _, err := r.DFA(b); !errors.Is(err, budget.ErrLimit) {
		t.Fatalf("%v, want the regex-states limit", err)
	}
	// The expression's million terms, then a few units per state.
	if b.Used() > 4<<20 {
		t.Errorf("%d units of work for 2,000 states", b.Used())
	}
}

// The regex-terms limit bounds the expression's terms, and a cancelled
// budget stops the parse and the construction.
func TestTermsLimitAndCancel(t *testing.T) {
	alpha := mustAlpha(t, "a", "b")
	src := []byte("alphabet a b\n" + strings.Repeat("ab", 100000) + "\n")
	r, err := Parse("x.re", src)
	if err != nil {
		t.Fatal(err)
	}
	// (regex-states raised: the shape alone shows 200,001 derivatives.)
	_, err = r.DFA(budget.New(context.Background(), budget.Settings{"regex-terms": 1000, "regex-states": 1 << 30}))
	if !errors.Is(err, budget.ErrLimit) || !strings.Contains(err.Error(), "regex-terms=1000") {
		t.Errorf("%v, want the regex-terms limit", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ParseBudget(budget.New(ctx, nil), "x.re", src); !errors.Is(err, budget.ErrStopped) {
		t.Errorf("parse with a cancelled budget: %v", err)
	}
	if _, err := r.DFA(budget.New(ctx, budget.Settings{"regex-states": 1 << 30})); !errors.Is(err, budget.ErrStopped) {
		t.Errorf("DFA with a cancelled budget: %v", err)
	}
	_ = alpha
}

// Postfix operators nest the tree as parentheses do, under MaxNesting.
func TestDeepPostfix(t *testing.T) {
	alpha := mustAlpha(t, "a")
	for _, op := range []string{"*", "+", "?"} {
		_, err := ParseExpr(alpha, "a"+strings.Repeat(op, 100000))
		if err == nil || !strings.Contains(err.Error(), "nested deeper than 1000") {
			t.Errorf("a%s×100000: %v", op, err)
		}
	}
	if _, err := ParseExpr(alpha, "a"+strings.Repeat("*", 999)); err != nil {
		t.Errorf("999 stars: %v", err)
	}
}

// A line is lexed in pieces (between two looks at the budget); tokens and
// comments that straddle a piece's end are read whole.
func TestLexPieces(t *testing.T) {
	long := "alphabet xyz w\n" + strings.Repeat("xyz  ", 40000) + "w # " + strings.Repeat("§(|", 30000) + "\n"
	r, err := Parse("p.re", []byte(long))
	if err != nil {
		t.Fatal(err)
	}
	if r.Root.Op != OpConcat || len(r.Root.Sub) != 40001 {
		t.Fatalf("%v with %d operands, want a concatenation of 40,001", r.Root.Op, len(r.Root.Sub))
	}
	quoted := "alphabet \"a b\" c\n" + strings.Repeat(`"a b" `, 20000) + "c\n"
	if r, err = Parse("q.re", []byte(quoted)); err != nil || len(r.Root.Sub) != 20001 {
		t.Fatalf("quoted symbols across pieces: %v", err)
	}
}

// The bound read from an expression's shape never exceeds its distinct
// derivatives: random expressions (with ∅, ε, &, ~ anywhere, so a front
// of symbols is often followed by a factor that empties the language),
// and random ones behind a front of symbols, under ~ and *.
func TestLeadingWordStatesIsALowerBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 3))
	alpha := mustAlpha(t, "a", "b")
	for i := range 3000 {
		x := randomNode(rng, 2, 3)
		if i%2 == 1 {
			front := make([]*Node, 1+rng.IntN(6))
			for j := range front {
				front[j] = Sym(rng.IntN(2))
				if rng.IntN(5) == 0 {
					front[j] = &Node{Op: OpAny}
				}
			}
			x = Concat(append(front, x)...)
			switch rng.IntN(3) {
			case 0:
				x = Compl(x)
			case 1:
				x = Star(x)
			}
		}
		r := &Regex{Alphabet: alpha, Root: x}
		d, err := r.derivatives(nil)
		if err != nil {
			t.Fatal(err)
		}
		if bound := leadingWordStates(x, 2); bound > int64(d.NumStates()) {
			t.Fatalf("%s: bound %d, but %d distinct derivatives", FormatExpr(r), bound, d.NumStates())
		}
	}
}

// A concatenation of a million symbols is refused from its shape, by
// regex-states, before any of its terms is built; one that an empty
// factor (or one that may be empty) ends is not refused from its shape.
func TestLongWordRefusedFromItsShape(t *testing.T) {
	alpha := mustAlpha(t, "a", "b")
	word := strings.Repeat("ab", 500_000)
	for _, c := range []struct {
		expr string
		want int64
	}{
		{word, 1_000_001},
		{"~(" + word + ")", 1_000_001},
		{"(" + word + ")*", 1_000_000},
		{"(" + word + "b*)*", 1_000_000},
		{".**", 1},
		{"(ab)(ab)()ab(b*|[])", 7},
		{"ab.b(a&b)", 1},
		{"abab[]", 1},
		{"ab~(ab)", 1},
		{"(a|b)ab", 1},
	} {
		r, err := ParseExpr(alpha, c.expr)
		if err != nil {
			t.Fatal(err)
		}
		if got := leadingWordStates(r.Root, 2); got != c.want {
			t.Errorf("%.30s: bound %d, want %d", c.expr, got, c.want)
		}
		if c.want < 100 {
			continue
		}
		b := budget.New(context.Background(), nil)
		_, err = r.DFA(b)
		if !errors.Is(err, budget.ErrLimit) || !strings.Contains(err.Error(), "regex-states=100000 states (needs ") {
			t.Fatalf("%.30s: %v, want regex-states", c.expr, err)
		}
		if b.Used() > 0 {
			t.Errorf("%.30s: %d units of work before the refusal", c.expr, b.Used())
		}
	}
}
