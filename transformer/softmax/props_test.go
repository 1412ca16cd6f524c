package softmax_test

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/ltlf"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
	"github.com/brasp-dev/brasp/transformer/softmax"
)

// propsModel compiles an LTLf formula to a transformer over propositions.
func propsModel(t *testing.T, formula string, o compile.Options) (*ltlf.Formula, *transformer.Model) {
	t.Helper()
	f, err := ltlf.ParseString(formula)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ltlf.ToBRASP(f)
	if err != nil {
		t.Fatal(err)
	}
	m, err := compile.Compile(nil, p, o)
	if err != nil {
		t.Fatal(err)
	}
	if m.Props == nil {
		t.Fatalf("%s: the compiled model is not over propositions", formula)
	}
	return f, m
}

// valuationTrace reads a word over the 2^k valuations as a trace: symbol v
// is the step where proposition i holds when bit i of v is set.
func valuationTrace(w []int) ([][]uint64, ltlf.Trace) {
	steps := make([][]uint64, len(w))
	tr := make(ltlf.Trace, len(w))
	for i, v := range w {
		steps[i] = []uint64{uint64(v)}
		tr[i] = ltlf.Step{uint64(v)}
	}
	return steps, tr
}

// TestCertifiedAgreementPropositions: softmax exports of models over
// propositions (compiled from LTLf formulas with weak and strong next,
// past operators, U, R, W) agree with the formula on every trace up to a
// length and on random traces up to the certified length.
func TestCertifiedAgreementPropositions(t *testing.T) {
	const N = 12
	rng := rand.New(rand.NewPCG(15, 3))
	for _, s := range []string{"G(a -> X b)", "F(a & X[!] b)", "a U b", "a R b", "G(b -> Y a)",
		"F(b & O a) | H !a", "(a S b) W c", "G(a -> (b U c))"} {
		for _, o := range []compile.Options{{}, {MultiHead: true}} {
			f, m := propsModel(t, s, o)
			sm, err := softmax.Export(nil, m, N)
			if err != nil {
				t.Fatalf("%s %s: %v", s, o, err)
			}
			if c := sm.Certificate; !(c.OutputError < c.OutputMargin) {
				t.Fatalf("%s %s: certificate error %g, margin %g", s, o, c.OutputError, c.OutputMargin)
			}
			check := func(w []int) {
				steps, tr := valuationTrace(w)
				run, word, err := sm.OverSteps(steps)
				if err != nil {
					t.Fatal(err)
				}
				got, err := run.Accepts(word)
				if err != nil {
					t.Fatal(err)
				}
				if want := f.Eval(tr); got != want {
					t.Fatalf("%s %s (scale %g): softmax %v, formula %v on %s", s, o, sm.Scale, got, want,
						ltlf.FormatTrace(f.Props, tr))
				}
			}
			k := 1 << len(m.Props)
			brasptest.AllWords(k, map[bool]int{true: 3, false: 4}[k > 4], check)
			for range 40 {
				check(brasptest.RandomWord(rng, k, 1+rng.IntN(N)))
			}
		}
	}
}

// TestPropositionsLimit: the 2^k multi-hot embeddings are charged to
// softmax-bytes, so many propositions are refused by name, not enumerated.
func TestPropositionsLimit(t *testing.T) {
	_, m := propsModel(t, "a U b", compile.Options{})
	// 28 propositions more that the model ignores (zero rows).
	for i := range 28 {
		m.Props = append(m.Props, fmt.Sprintf("p%d", i))
		m.Embedding = append(m.Embedding, make(transformer.Vec, m.Width))
		for c := range m.Width {
			m.Embedding[len(m.Embedding)-1][c] = new(big.Rat)
		}
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	_, err := softmax.Export(nil, m, 8)
	if err == nil || !strings.Contains(err.Error(), "softmax-bytes") || !strings.Contains(err.Error(), "2^30") {
		t.Fatalf("30 propositions: %v", err)
	}
	settings := budget.Settings{}
	if err := settings.Set("softmax-bytes=1K"); err != nil {
		t.Fatal(err)
	}
	_, m = propsModel(t, "a U b", compile.Options{})
	if _, err := softmax.Export(budget.New(t.Context(), settings), m, 8); err == nil || !strings.Contains(err.Error(), "softmax-bytes") {
		t.Fatalf("a small limit: %v", err)
	}
	if _, err := softmax.Export(nil, m, 8); err != nil {
		t.Fatal(err)
	}
}

// TestForwardNeedsSteps: a model over propositions does not run words of
// symbol indices.
func TestForwardNeedsSteps(t *testing.T) {
	_, m := propsModel(t, "a U b", compile.Options{})
	sm, err := softmax.Export(nil, m, 4)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sm.Accepts([]int{0, 1}); err == nil || !strings.Contains(err.Error(), "OverSteps") {
		t.Fatalf("Accepts on symbols: %v", err)
	}
}
