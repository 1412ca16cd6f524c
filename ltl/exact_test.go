package ltl_test

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/regex/regextest"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/exact"
	"github.com/brasp-dev/brasp/examples"
	"github.com/brasp-dev/brasp/internal/testkit"
	"github.com/brasp-dev/brasp/ltl"
)

// These tests decide equivalence exactly, over all words, by minimal DFAs
// (package exact), where the other tests compare on all short words.

// load parses testdata/name.
func load(t *testing.T, name string) *ltl.Formula {
	return testkit.Load(t, filepath.Join("testdata", name), ltl.ParseFile)
}

func formulaDFA(t *testing.T, f *ltl.Formula) *automata.DFA {
	t.Helper()
	d, err := exact.FormulaDFA(nil, f)
	if err != nil {
		t.Fatalf("%s: %v", ltl.Format(f), err)
	}
	return d
}

func mustEquivalent(t *testing.T, what string, a, b *automata.DFA) {
	t.Helper()
	eq, w, aAccepts, err := exact.Equivalent(a, b)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if !eq {
		t.Fatalf("%s: not equivalent on %v (first accepts: %v)", what, w, aAccepts)
	}
}

// TestPaperLanguagesExact: φ1–φ4 define exactly the languages §3.3 names,
// and the STAIR_k formulas exactly STAIR_k (as the examples' programs do).
func TestPaperLanguagesExact(t *testing.T) {
	for _, tc := range []struct{ file, expr string }{
		{"phi1.ltl", `(a|b|"#")* "#"`},
		{"phi2.ltl", `(a|b|"#")* "#" b* "#"`},
		{"phi3.ltl", `(a|b|"#")* "#" a* "#" b* "#"`},
		{"phi4.ltl", `"#" a* "#" b* "#"`},
	} {
		mustEquivalent(t, tc.file, formulaDFA(t, load(t, tc.file)), regextest.DFA(t, `a b "#"`, tc.expr))
	}
	for k := 1; k <= 6; k++ {
		prog, err := examples.StairProgram(k)
		if err != nil {
			t.Fatal(err)
		}
		pd, err := exact.ProgramDFA(nil, prog)
		if err != nil {
			t.Fatal(err)
		}
		stair := load(t, fmt.Sprintf("stair%d.ltl", k))
		mustEquivalent(t, fmt.Sprint("STAIR_", k), formulaDFA(t, stair), pd)
		expr := "(a|b|c)* a" + strings.Repeat(" c* a", k-1) + " (a|b|c)*"
		mustEquivalent(t, fmt.Sprint("STAIR_", k, " regex"), pd, regextest.DFA(t, "a b c", expr))
		// The paper's φ_k = 1 since γ_k defines STAIR_k·Σ, not STAIR_k.
		p := stair.Pool()
		gamma := p.Symbol(0)
		for i := 2; i <= k; i++ {
			gamma = p.And(p.Symbol(0), p.Since(p.Symbol(2), gamma))
		}
		paper := formulaDFA(t, p.Since(p.True(), gamma))
		mustEquivalent(t, fmt.Sprint("paper's φ_", k), paper, regextest.DFA(t, "a b c", expr+" (a|b|c)"))
		if eq, w, _, _ := exact.Equivalent(paper, pd); eq || len(w) != k {
			t.Errorf("paper's φ_%d vs STAIR_%d: equivalent %v, shortest difference %v (want a^%d)", k, k, eq, w, k)
		}
	}
	// A wrong language is told apart.
	if eq, _, _, _ := exact.Equivalent(formulaDFA(t, load(t, "phi2.ltl")), regextest.DFA(t, `a b "#"`, `(a|b|"#")* "#" a* "#"`)); eq {
		t.Error("φ2 equivalent to Σ*#a*#")
	}
}

// TestConvertersExact: B-RASP → LTL preserves the language of random
// programs exactly, and LTL → B-RASP → LTL that of random formulas.
func TestConvertersExact(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(21, 22))
	for trial := 0; trial < 400; trial++ {
		prog := brasptest.RandomProgram(r, brasptest.Options{Alphabet: 2, Ops: 1 + r.IntN(5), Predicates: trial%3 == 0})
		f, err := ltl.FromBRASP(nil, prog)
		if err != nil {
			t.Fatal(err)
		}
		pd, err := exact.ProgramDFA(nil, prog)
		if err != nil {
			t.Fatal(err)
		}
		mustEquivalent(t, "program vs FromBRASP\n"+brasp.Format(prog), pd, formulaDFA(t, f))
	}
	p := ltl.NewPool(brasptest.Alphabet(2))
	for trial := 0; trial < 400; trial++ {
		f := ltl.RandomFormulaForTest(r, p, 1+r.IntN(10))
		if hasMid(f) {
			continue
		}
		prog, err := ltl.ToBRASP(f)
		if err != nil {
			t.Fatal(err)
		}
		g, err := ltl.FromBRASP(nil, prog)
		if err != nil {
			t.Fatal(err)
		}
		mustEquivalent(t, ltl.Format(f)+" vs its round trip "+ltl.Format(g), formulaDFA(t, f), formulaDFA(t, g))
	}
}

func hasMid(f *ltl.Formula) bool {
	for _, g := range f.Nodes() {
		if g.Op == ltl.OpPredicate && g.Pred.Kind == brasp.Mid {
			return true
		}
	}
	return false
}
