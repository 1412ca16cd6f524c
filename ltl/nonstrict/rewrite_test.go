package nonstrict_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/exact"
	"github.com/brasp-dev/brasp/ltl"
	"github.com/brasp-dev/brasp/ltl/ltltest"
	"github.com/brasp-dev/brasp/ltl/nonstrict"
)

// destutter returns ♮w and, for every position of w, the index of its
// block.
func destutter(w []int) (short []int, blk []int) {
	blk = make([]int, len(w))
	for i, a := range w {
		if i == 0 || a != w[i-1] {
			short = append(short, a)
		}
		blk[i] = len(short) - 1
	}
	return short, blk
}

// checkLemma checks (★) of the package documentation, w, i ⊨ T(f) iff
// ♮w, blk(i) ⊨ f, at every position of every word up to maxLen, and
// returns the number of positions checked.
func checkLemma(t *testing.T, f, tf *ltl.Formula, maxLen int) int {
	t.Helper()
	ef, etf := ltl.NewEvaluator(f), ltl.NewEvaluator(tf)
	checked := 0
	brasptest.AllWords(len(f.Alphabet()), maxLen, func(w []int) {
		if len(w) == 0 || t.Failed() {
			return
		}
		short, blk := destutter(w)
		tw, ts := etf.Evaluate(w), ef.Evaluate(short)
		for i := range w {
			if got, want := tw.Value(tf, i), ts.Value(f, blk[i]); got != want {
				t.Errorf("%s\nT = %s\nword %q position %d: T(f) is %v, f at block %d of %q is %v",
					ltl.Format(f), ltl.Format(tf), f.Alphabet().FormatWord(w), i+1, got, blk[i]+1, f.Alphabet().FormatWord(short), want)
				return
			}
			checked++
		}
	})
	return checked
}

// TestRewriteLemma checks (★) for random formulas using every operator and
// the predicates first and last, over alphabets of one to three letters.
func TestRewriteLemma(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 2))
	for k := range 300 {
		alpha := brasptest.Alphabet(1 + k%3)
		pool := ltl.NewPool(alpha)
		f := ltltest.RandomFormula(rng, pool, 2+rng.IntN(12), false)
		tf, err := nonstrict.Rewrite(nil, f)
		if err != nil {
			t.Fatalf("%s: %v", ltl.Format(f), err)
		}
		if err := nonstrict.CheckFormula(tf, nonstrict.NonStrict); err != nil {
			t.Fatalf("%s → %s: %v", ltl.Format(f), ltl.Format(tf), err)
		}
		maxLen := []int{9, 7, 5}[k%3]
		checkLemma(t, f, tf, maxLen)
		if t.Failed() {
			return
		}
		if tf.Depth() > 2*f.Depth()+1 {
			t.Errorf("%s: depth %d → %d, more than 2d+1", ltl.Format(f), f.Depth(), tf.Depth())
		}
	}
}

// TestRewritePastIsCausal checks that T maps past-only formulas to causal
// ones (S, O, H only), on random past formulas.
func TestRewritePastIsCausal(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	past := map[ltl.Op]bool{ltl.OpUntil: false, ltl.OpUntilNS: false, ltl.OpNext: false, ltl.OpWeakNext: false, ltl.OpEventually: false, ltl.OpGlobally: false}
	n := 0
	for n < 100 {
		pool := ltl.NewPool(brasptest.Alphabet(2))
		f := ltltest.RandomFormula(rng, pool, 2+rng.IntN(10), false)
		ok := true
		for _, g := range f.Nodes() {
			if v, isFuture := past[g.Op]; isFuture && !v || g.Op == ltl.OpPredicate && g.Pred.Kind == brasp.Last {
				ok = false
			}
		}
		if !ok {
			continue
		}
		n++
		tf, err := nonstrict.Rewrite(nil, f)
		if err != nil {
			t.Fatal(err)
		}
		if err := nonstrict.CheckFormula(tf, nonstrict.Causal); err != nil {
			t.Fatalf("%s → %s: %v", ltl.Format(f), ltl.Format(tf), err)
		}
		checkLemma(t, f, tf, 7)
	}
}

// TestRewriteGolden pins the rewriting of the cases: strict since
// becomes "the previous block satisfies φ S ψ", Y the previous change of
// letter, and letter bookkeeping folds away.
func TestRewriteGolden(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"alphabet a b\na since b", "a & (a S b) | b & (b S (a & (a S b)))"},
		{"alphabet a b\nY b", "a & (a S b)"},
		{"alphabet a b\nY true", "a & (a S b) | b & (b S a)"},
		{"alphabet a b\nfirst", "a & H a | b & H b"},
		{"alphabet a b\nO(b & Y O a)", "O (b & (b S a))"},
		{"alphabet a b\na | b", "true"},
		{"alphabet a b c\n!(a | b)", "c"},
		{"alphabet a b\nb U a", "b U a"},
		{"alphabet a b\nX a", "b & (b U a)"},
	} {
		f, err := ltl.ParseFile("golden.ltl", []byte(c.in))
		if err != nil {
			t.Fatal(err)
		}
		tf, err := nonstrict.Rewrite(nil, f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := ltl.ParseFile("want.ltl", []byte("alphabet "+f.Alphabet().String()+"\n"+c.want))
		if err != nil {
			t.Fatal(err)
		}
		if got := ltl.Format(tf); got != ltl.Format(want) {
			t.Errorf("%s: got %s, want %s", c.in, got, ltl.Format(want))
		}
		checkLemma(t, f, tf, 7)
	}
}

// TestRewritePredicates: MOD and Mid are refused with ErrPredicate.
func TestRewritePredicates(t *testing.T) {
	for _, src := range []string{"alphabet a b\nMOD_0_2 & a", "alphabet a b\nO Mid"} {
		f, err := ltl.ParseFile("p.ltl", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := nonstrict.Rewrite(nil, f); !errors.Is(err, nonstrict.ErrPredicate) {
			t.Errorf("%s: got %v, want ErrPredicate", src, err)
		}
	}
}

// TestProgramLetterCases: prev and next become one operation each, whose
// score reads the letter at i, and the program is exactly the formula.
func TestProgramLetterCases(t *testing.T) {
	for _, c := range []struct {
		src string
		ops int
	}{
		{"alphabet a b c\nY(a | b)", 1},
		{"alphabet a b c\nX c & Y(a | b)", 2},
		{"alphabet a b c d\n(a since b) | O(c & Y d)", 4},
	} {
		f, err := ltl.ParseFile("c.ltl", []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		tf, err := nonstrict.Rewrite(nil, f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := nonstrict.ToProgram(tf, nonstrict.NonStrict)
		if err != nil {
			t.Fatal(err)
		}
		ops := 0
		for _, v := range p.Vectors {
			if v.Kind == brasp.AttentionVector {
				ops++
			}
		}
		if ops > c.ops {
			t.Errorf("%s: %d attention operations, want at most %d:\n%s", c.src, ops, c.ops, brasp.Format(p))
		}
		pd, err := exact.ProgramDFA(nil, p)
		if err != nil {
			t.Fatal(err)
		}
		fd, err := exact.FormulaDFA(nil, tf)
		if err != nil {
			t.Fatal(err)
		}
		checkEquivalent(t, c.src, fd, pd)
	}
}
