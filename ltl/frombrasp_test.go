package ltl

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/position"
)

// checkVectors compares every vector of prog with its formula at every
// position of every word up to maxLen and of a few random longer words.
func checkVectors(t *testing.T, r *rand.Rand, prog *brasp.Program, fs []*Formula, maxLen int) {
	t.Helper()
	run := brasp.NewRunner(prog)
	alpha := len(prog.Alphabet)
	// One evaluation of a raw conjunction of all formulas gives every
	// formula's values at once.
	all := fs[0]
	for _, f := range fs[1:] {
		all = all.Pool().Binary(OpAnd, all, f)
	}
	ev := NewEvaluator(all)
	check := func(w []int) {
		pt := run.Run(w)
		tr := ev.Evaluate(w)
		for k := range fs {
			for i := range w {
				if tr.Value(fs[k], i) != pt.Value(k, i) {
					t.Fatalf("vector %s and its formula differ on %v at %d\nprogram:\n%s\nformula: %s",
						prog.Vectors[k].Name, w, i, brasp.Format(prog), Format(fs[k]))
				}
			}
		}
	}
	brasptest.AllWords(alpha, maxLen, check)
	for range 3 {
		check(brasptest.RandomWord(r, alpha, 65+r.IntN(70)))
	}
}

// TestFromBRASPRandom: thousands of random programs with every tie-break,
// every mask (strict and non-strict), scores and values mixing (i) and (j),
// and position predicates: every vector equals its formula.
func TestFromBRASPRandom(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 2000; trial++ {
		opts := brasptest.Options{Alphabet: 2, Ops: 1 + r.IntN(6), Predicates: trial%3 == 0, Mid: trial%7 == 0}
		maxLen := 6
		if trial%4 == 0 {
			opts.Alphabet, maxLen = 3, 4
		}
		prog := brasptest.RandomProgram(r, opts)
		fs, err := FromBRASPVectors(nil, prog)
		if err != nil {
			t.Fatalf("%v\n%s", err, brasp.Format(prog))
		}
		checkVectors(t, r, prog, fs, maxLen)
		for k, f := range fs {
			checkSimplified(t, f)
			if g, err := Parse(f.Pool(), "printed", []byte(Format(f))); err != nil || g != f {
				t.Fatalf("printed formula does not read back: %s: %v", Format(f), err)
			}
			if d, pd := f.Depth(), prog.Depth(k); d > 2*pd {
				t.Fatalf("vector %s: temporal depth %d > 2 × attention depth %d", prog.Vectors[k].Name, d, pd)
			}
		}
	}
}

// TestFromBRASPDepth: with only rightmost [j<i] / rightmost [j<=i] or only
// leftmost [i<j] / leftmost [i<=j] attention, no formula is deeper than the
// attention depth of its vector (§5.4, App. C). (Constant folding can make it
// shallower: rightmost [j<i, 0] ... is its default. The exact equality is
// checked on STAIR_k, where nothing folds.)
func TestFromBRASPDepth(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(9, 10))
	kinds := []brasptest.Options{
		{Tiebreaks: []position.Tiebreak{position.Rightmost}, Masks: []position.Mask{position.MaskFuture, position.MaskFutureOrSelf}},
		{Tiebreaks: []position.Tiebreak{position.Leftmost}, Masks: []position.Mask{position.MaskPast, position.MaskPastOrSelf}},
	}
	for trial := 0; trial < 600; trial++ {
		opts := kinds[trial%2]
		opts.Ops = 1 + r.IntN(7)
		opts.Attention = 0.8
		prog := brasptest.RandomProgram(r, opts)
		fs, err := FromBRASPVectors(nil, prog)
		if err != nil {
			t.Fatal(err)
		}
		for k, f := range fs {
			if f.Depth() > prog.Depth(k) {
				t.Fatalf("vector %s: temporal depth %d, attention depth %d\n%s\n%s",
					prog.Vectors[k].Name, f.Depth(), prog.Depth(k), brasp.Format(prog), Format(f))
			}
		}
		checkVectors(t, r, prog, fs, 5)
	}
}

// TestRoundTrips: LTL → B-RASP → LTL gives an equivalent formula, no deeper
// (ToBRASP uses only depth-preserving attention kinds; constant folding may
// make it shallower), and LTL → B-RASP → LTL → B-RASP an equivalent program
// of no greater depth.
func TestRoundTrips(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(11, 12))
	p := NewPool(mustAlphabet("a", "b"))
	opt := genOptions{ops: allOps, predicates: true}
	for trial := 0; trial < 1000; trial++ {
		f := randomFormula(r, p, 1+r.IntN(9), opt)
		prog, err := ToBRASP(f)
		if err != nil {
			t.Fatal(err)
		}
		g, err := FromBRASP(nil, prog)
		if err != nil {
			t.Fatal(err)
		}
		if g.Depth() > f.Depth() {
			t.Fatalf("%s (depth %d) came back as %s (depth %d)", Format(f), f.Depth(), Format(g), g.Depth())
		}
		ef, eg := NewEvaluator(f), NewEvaluator(g)
		brasptest.AllWords(2, 7, func(w []int) {
			if ef.Accepts(w) != eg.Accepts(w) {
				t.Fatalf("%s came back as %s; they differ on %v", Format(f), Format(g), w)
			}
		})
		prog2, err := ToBRASP(g)
		if err != nil {
			t.Fatal(err)
		}
		if prog2.AttentionDepth() > prog.AttentionDepth() {
			t.Fatalf("program depth %d became %d", prog.AttentionDepth(), prog2.AttentionDepth())
		}
		run1, run2 := brasp.NewRunner(prog), brasp.NewRunner(prog2)
		brasptest.AllWords(2, 6, func(w []int) {
			if run1.Run(w).Accept() != run2.Run(w).Accept() {
				t.Fatalf("B-RASP → LTL → B-RASP changed the language of\n%s\non %v", brasp.Format(prog), w)
			}
		})
	}
}

// TestFromBRASPLimits: the exponential normal form and the output size stop
// with errors naming their limits.
func TestFromBRASPLimits(t *testing.T) {
	b := brasp.NewBuilder(mustAlphabet("a", "b"))
	var vs []int
	for k := 0; k < 8; k++ {
		vs = append(vs, b.Attend("P", position.Rightmost, position.MaskFuture, b.J(k%2), b.J(1-k%2), brasp.Bool(k%3 == 0)))
	}
	var score []brasp.Expr
	for _, v := range vs {
		score = append(score, brasp.And(b.I(v), b.J(v)))
	}
	b.Attend("Wide", position.Leftmost, position.MaskNone, brasp.Or(score...), b.J(0), brasp.Bool(false))
	prog, err := b.Program()
	if err != nil {
		t.Fatal(err)
	}
	_, err = FromBRASP(budget.New(context.Background(), budget.Settings{"unary-score-copies": 100}), prog)
	if !errors.Is(err, budget.ErrLimit) || !contains(err.Error(), "--limit unary-score-copies=N") {
		t.Errorf("score split: %v", err)
	}
	f, err := FromBRASP(budget.New(context.Background(), budget.Settings{"unary-score-copies": 1000}), prog)
	if err != nil {
		t.Fatal(err)
	}
	_, err = FromBRASP(budget.New(context.Background(), budget.Settings{"unary-score-copies": 1000, "ltl-nodes": int64(f.DAGSize() / 2)}), prog)
	if !errors.Is(err, budget.ErrLimit) || !contains(err.Error(), "--limit ltl-nodes=N") {
		t.Errorf("size: %v", err)
	}
	checkVectors(t, rand.New(rand.NewPCG(1, 1)), prog, mustVectors(t, prog), 5)
}

func mustVectors(t *testing.T, prog *brasp.Program) []*Formula {
	fs, err := FromBRASPVectors(budget.New(context.Background(), budget.Settings{"unary-score-copies": 1000}), prog)
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

func contains(s, sub string) bool { return len(sub) == 0 || indexOf(s, sub) >= 0 }

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}
