package ltlf

import (
	"context"
	"errors"
	"math/rand"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/budget"
)

// TestEvalCompact checks EvalCompact against Eval on random formulas with
// past and future operators and random traces across 64-step words.
func TestEvalCompact(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	b := budget.New(context.Background(), nil)
	for range 400 {
		f := randomFormula(r, 2, 1+r.Intn(8), true)
		n := 1 + r.Intn(140)
		tr := make(Trace, n)
		for i := range tr {
			for p := range 2 {
				if r.Intn(2) == 0 {
					tr[i] = tr[i].With(p)
				}
			}
		}
		ct, err := ParseTraceCompact(f.Props, []byte(FormatTrace(f.Props, tr)))
		if err != nil {
			t.Fatal(err)
		}
		got, err := f.EvalCompact(b, ct)
		if err != nil {
			t.Fatal(err)
		}
		if want := f.Eval(tr); got != want {
			t.Fatalf("%s on %s: EvalCompact %v, Eval %v", f, FormatTrace(f.Props, tr), got, want)
		}
	}
}

// TestEvalCompactChain: X[16384] a on 200,000 steps holds a few rows, not
// one per subformula (16,384 rows of 25 KB would be 400 MB), and a row
// limit below two rows is named.
func TestEvalCompactChain(t *testing.T) {
	f := mustParse(t, "X[16384] a")
	line := []byte(strings.Repeat("a;;;", 66_666) + "a;a")
	ct, err := ParseTraceCompact(f.Props, line)
	if err != nil {
		t.Fatal(err)
	}
	b := budget.New(context.Background(), budget.Settings{"ltlf-eval-bytes": 1 << 20})
	got, err := f.EvalCompact(b, ct)
	if err != nil {
		t.Fatal(err)
	}
	if want := 16384%3 == 0; got != want {
		t.Fatalf("got %v, want %v", got, want)
	}
	small := budget.New(context.Background(), budget.Settings{"ltlf-eval-bytes": 40 << 10})
	if _, err := f.EvalCompact(small, ct); !errors.Is(err, budget.ErrLimit) || !strings.Contains(err.Error(), "ltlf-eval-bytes") {
		t.Fatalf("under a 40 KB row limit: %v, want ltlf-eval-bytes", err)
	}
}

// FuzzEvalCompact: a formula and a trace read from text give the same
// verdict by EvalCompact (a bit per step, rows freed) as by Eval.
func FuzzEvalCompact(f *testing.F) {
	for _, c := range [][2]string{
		{"a U b", "a;a;b"}, {"X[3] a", "a;;;a"}, {"G(a -> Y b)", "b;a;b,a"}, {"F[1:2!] b", ";;b"},
		{"a S b", "b;a;a"}, {"X[!] (a W b)", "{};{a}"}, {"H (a | Z b)", "a;b;a"},
	} {
		f.Add(c[0], c[1])
	}
	b := budget.New(context.Background(), nil)
	f.Fuzz(func(t *testing.T, src, trace string) {
		if len(src) > 100 || len(trace) > 300 {
			return
		}
		g, err := Parse("f", []byte("propositions a b\n"+src))
		if err != nil || g.Size() > 200 {
			return
		}
		tr, err := ParseTrace(g.Props, trace)
		if err != nil || len(tr) > 300 {
			return
		}
		ct, err := ParseTraceCompact(g.Props, []byte(trace))
		if err != nil {
			t.Fatalf("%q: ParseTrace reads it, ParseTraceCompact: %v", trace, err)
		}
		got, err := g.EvalCompact(b, ct)
		if err != nil {
			t.Fatal(err)
		}
		if want := g.Eval(tr); got != want {
			t.Fatalf("%s on %q: EvalCompact %v, Eval %v", g, trace, got, want)
		}
	})
}
