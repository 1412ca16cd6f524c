package depth

import (
	"fmt"
	"testing"
	"time"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/exact"
	"github.com/brasp-dev/brasp/examples"
	"github.com/brasp-dev/brasp/ltl"
)

// stairFormula is γ_k | (1 since γ_k), the depth-k formula of STAIR_k.
func stairFormula(k int) string {
	g := "a"
	for i := 2; i <= k; i++ {
		g = fmt.Sprintf("a & (c since (%s))", g)
	}
	return fmt.Sprintf("alphabet a b c\nlet g = %s in g | (1 since g)\n", g)
}

func stairLanguage(t testing.TB, k int) (Language, *ltl.Formula) {
	t.Helper()
	f, err := ltl.ParseFile("stair.ltl", []byte(stairFormula(k)))
	if err != nil {
		t.Fatal(err)
	}
	d, err := exact.FormulaDFA(nil, f)
	if err != nil {
		t.Fatal(err)
	}
	return Language{Atoms: Atoms{Alphabet: alphabet.Alphabet{"a", "b", "c"}}, DFA: d}, f
}

func TestStairSince(t *testing.T) {
	for k := 1; k <= 5; k++ {
		lang, f := stairLanguage(t, k)
		p, err := ltl.ToBRASP(f)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		r, err := Analyze(nil, lang, []Known{{Program: p, Source: "the formula"}}, Options{Fragment: Since, MaxDepth: 8})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("STAIR_%d: lower %d upper %d exact %v explored %v witness %v/%v in %v", k, r.Lower, r.Upper, r.Exact, r.Explored,
			lang.Atoms.Alphabet.FormatWord(r.Witness.In), lang.Atoms.Alphabet.FormatWord(r.Witness.Out), time.Since(start))
		if r.Lower != k || r.Upper != k {
			t.Errorf("STAIR_%d: bounds %d..%d, want %d..%d", k, r.Lower, r.Upper, k, k)
		}
		if err := Check(nil, lang, Since, r.Witness.In, r.Witness.Out, k-1); err != nil {
			t.Errorf("STAIR_%d: certificate does not check: %v", k, err)
		}
		if !examples.InStair(r.Witness.In, k) || examples.InStair(r.Witness.Out, k) {
			t.Errorf("STAIR_%d: witness verdicts wrong", k)
		}
		d, err := exact.ProgramDFA(nil, r.Program)
		if err != nil {
			t.Fatal(err)
		}
		eq, w, _, err := exact.Equivalent(d, lang.DFA)
		if err != nil || !eq {
			t.Errorf("STAIR_%d: synthesized program differs on %v (%v)", k, w, err)
		}
		if got := r.Program.AttentionDepth(); got != k {
			t.Errorf("STAIR_%d: program depth %d", k, got)
		}
		t.Logf("  program: %d vectors", len(r.Program.Vectors))
	}
}
