package toltlf_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/exact"
	"github.com/brasp-dev/brasp/internal/testkit"
	"github.com/brasp-dev/brasp/ltl"
	"github.com/brasp-dev/brasp/ltl/ltltest"
	"github.com/brasp-dev/brasp/ltl/toltlf"
	"github.com/brasp-dev/brasp/ltlf"
)

// symbolic is the new route, or an error wrapping ErrUnsupported or
// ltlf.ErrPastOverFuture.
func symbolic(t testing.TB, f *ltl.Formula) (*automata.DFA, error) {
	t.Helper()
	d, err := toltlf.DFA(nil, f)
	if err != nil && !errors.Is(err, toltlf.ErrUnsupported) && !errors.Is(err, ltlf.ErrPastOverFuture) {
		t.Fatalf("%s: %v", ltl.Format(f), err)
	}
	return d, err
}

// agree checks the symbolic route's DFA against the bimachine's (the same
// minimal table, and exactly equivalent) and against the evaluator on all
// words up to maxLen.
func agree(t *testing.T, f *ltl.Formula, d *automata.DFA, maxLen int) {
	t.Helper()
	old, err := exact.BimachineFormulaDFA(nil, f)
	if err != nil {
		t.Fatalf("%s: bimachine: %v", ltl.Format(f), err)
	}
	if dis, err := automata.Compare(nil, d, old, automata.SigmaStar); err != nil || dis != nil {
		t.Fatalf("%s: symbolic and bimachine DFAs differ: %+v %v", ltl.Format(f), dis, err)
	}
	if !d.Equal(old) {
		t.Fatalf("%s: equivalent DFAs with different tables (%d and %d states)", ltl.Format(f), d.NumStates(), old.NumStates())
	}
	e := ltl.NewEvaluator(f)
	testkit.EachWord(len(f.Alphabet()), 0, maxLen, func(w []int) {
		want := len(w) > 0 && e.Accepts(w)
		if d.Accepts(w) != want {
			t.Fatalf("%s: DFA says %v on %v, evaluator %v", ltl.Format(f), !want, w, want)
		}
	})
}

func alphabetOf(n int) alphabet.Alphabet {
	a := make(alphabet.Alphabet, n)
	for i := range a {
		a[i] = fmt.Sprintf("s%d", i)
	}
	return a
}

// TestRandomFormulas: random formulas with first and last over alphabets
// of 1 to 6 letters (codes of no letter included for 3, 5 and 6), read
// as written and under the harness's root O(first & φ).
func TestRandomFormulas(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 1))
	n, viaLTLf := 0, 0
	for _, letters := range []int{1, 2, 3, 4, 5, 6} {
		maxLen := map[int]int{1: 9, 2: 8, 3: 6, 4: 5, 5: 4, 6: 4}[letters]
		for range 60 {
			pool := ltl.NewPool(alphabetOf(letters))
			f := ltltest.RandomFormula(rng, pool, 1+rng.IntN(9), false)
			first := pool.Predicate(ltl.Predicate{Kind: brasp.First})
			for _, g := range []*ltl.Formula{f, pool.Unary(ltl.OpOnce, pool.Binary(ltl.OpAnd, first, f))} {
				n++
				d, err := symbolic(t, g)
				if err != nil {
					continue
				}
				viaLTLf++
				agree(t, g, d, maxLen)
			}
		}
	}
	t.Logf("%d of %d formulas built symbolically", viaLTLf, n)
	if viaLTLf < n*3/4 {
		t.Errorf("only %d of %d formulas went through the symbolic route", viaLTLf, n)
	}
}

// TestAnchoredUnderTemporal: first-anchored subformulas with future
// operators under temporal operators, which take the case analysis.
func TestAnchoredUnderTemporal(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 2))
	n, viaLTLf := 0, 0
	for range 80 {
		pool := ltl.NewPool(alphabetOf(3))
		first := pool.Predicate(ltl.Predicate{Kind: brasp.First})
		var anchors []*ltl.Formula
		for range 1 + rng.IntN(3) {
			psi := pool.Unary(ltl.OpEventually, ltltest.RandomFormula(rng, pool, 1+rng.IntN(4), false))
			if rng.IntN(2) == 0 {
				anchors = append(anchors, pool.Unary(ltl.OpOnce, pool.Binary(ltl.OpAnd, first, psi)))
			} else {
				anchors = append(anchors, pool.Unary(ltl.OpHistorically, pool.Binary(ltl.OpImplies, first, psi)))
			}
		}
		g := ltltest.RandomFormula(rng, pool, 2+rng.IntN(4), false)
		for _, a := range anchors {
			op := []ltl.Op{ltl.OpSince, ltl.OpUntil, ltl.OpAnd, ltl.OpSinceNS}[rng.IntN(4)]
			g = pool.Binary(op, g, pool.Unary([]ltl.Op{ltl.OpOnce, ltl.OpYesterday, ltl.OpNext}[rng.IntN(3)], a))
		}
		n++
		d, err := symbolic(t, g)
		if err != nil {
			// A constant put for an anchor under a future operator
			// under a past one is still past over future.
			continue
		}
		viaLTLf++
		agree(t, g, d, 6)
	}
	t.Logf("%d of %d formulas built symbolically", viaLTLf, n)
	if viaLTLf < n/2 {
		t.Errorf("only %d of %d formulas went through the symbolic route", viaLTLf, n)
	}
}

// TestFiles: every .ltl of the examples and of package ltl's testdata
// gives the DFA the bimachine gives (or, with MOD or Mid, falls back).
func TestFiles(t *testing.T) {
	var paths []string
	for _, dir := range []string{"../../examples", "../testdata"} {
		ps, err := filepath.Glob(filepath.Join(dir, "*.ltl"))
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, ps...)
	}
	if len(paths) < 10 {
		t.Fatalf("found only %d .ltl files", len(paths))
	}
	for _, p := range paths {
		f := testkit.Load(t, p, ltl.ParseFile)
		d, err := symbolic(t, f)
		if err != nil {
			if !strings.Contains(ltl.Format(f), "MOD") && !strings.Contains(ltl.Format(f), "Mid") {
				t.Errorf("%s: not translated: %v", p, err)
			}
			continue
		}
		agree(t, f, d, 7)
	}
}

// TestHarnessShape: the corpus harness's encoding of LTLf, all valuations
// of the propositions as letters with let-bound letter sets under the root
// O(first & φ), is read as φ over the code bits themselves: no wrapper
// F(last & …) and each proposition's letter set one bit.
func TestHarnessShape(t *testing.T) {
	var b strings.Builder
	b.WriteString("alphabet")
	for v := range 8 {
		fmt.Fprintf(&b, " v%03b", v)
	}
	b.WriteString("\n")
	for j := range 3 {
		var set []string
		for v := range 8 {
			if v>>(2-j)&1 == 1 {
				set = append(set, fmt.Sprintf("v%03b", v))
			}
		}
		fmt.Fprintf(&b, "let P%d_ = (%s) in\n", j, strings.Join(set, " | "))
	}
	b.WriteString("O (first & (G (P0_ -> (X (F P1_)))) & !(P2_ U P0_))\n")
	f, err := ltl.ParseFile("h.ltl", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	g, err := toltlf.Translate(nil, f)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := g.String(), "G (b0 -> X[!] F b1) & !(b2 U b0)"; got != want {
		t.Errorf("translation is %q, want %q", got, want)
	}
	d, err := symbolic(t, f)
	if err != nil {
		t.Fatal(err)
	}
	agree(t, f, d, 4)
}

// TestUnsupported: MOD falls back, and the fallback still gives the DFA.
func TestUnsupported(t *testing.T) {
	f, err := ltl.ParseFile("m.ltl", []byte("alphabet a b\nMOD_1_2 & (a since b)\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := toltlf.DFA(nil, f); !errors.Is(err, toltlf.ErrUnsupported) {
		t.Fatalf("MOD: got %v, want ErrUnsupported", err)
	}
	if _, err := exact.FormulaDFA(nil, f); err != nil {
		t.Fatalf("fallback: %v", err)
	}
}

// TestEncoding: Bits and Code.
func TestEncoding(t *testing.T) {
	for n, want := range map[int]int{1: 0, 2: 1, 3: 2, 4: 2, 5: 3, 256: 8, 257: 9} {
		if got := toltlf.Bits(n); got != want {
			t.Errorf("Bits(%d) = %d, want %d", n, got, want)
		}
	}
	// Letter 6 of 8 is 110.
	for i, want := range []bool{true, true, false} {
		if toltlf.Code(6, i, 3) != want {
			t.Errorf("Code(6, %d, 3) = %v", i, !want)
		}
	}
}

// TestLimits: the letter-set and letter-automaton limits stop the route
// with their names.
func TestLimits(t *testing.T) {
	f, err := ltl.ParseFile("l.ltl", []byte("alphabet a b c\nF (a & X b)\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"ltl-letter-set-bytes", "ltl-letter-dfa-bytes"} {
		b := budget.New(context.Background(), budget.Settings{name: 1})
		_, err := toltlf.DFA(b, f)
		if !errors.Is(err, budget.ErrLimit) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s=1: got %v", name, err)
		}
	}
}

// TestCancelled: a cancelled context stops the route.
func TestCancelled(t *testing.T) {
	f, err := ltl.ParseFile("c.ltl", []byte(valuationSource(6, "G (P0 -> F P1) & G (P2 -> F P3) & G (P4 -> F P5)")))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := toltlf.DFA(budget.New(ctx, nil), f); !errors.Is(err, budget.ErrStopped) {
		t.Fatalf("cancelled: got %v, want ErrStopped", err)
	}
}

// FuzzDFA: any formula over at most 4 letters either gets a DFA equal to
// the bimachine's or falls back with ErrUnsupported / ErrPastOverFuture;
// never a panic or a wrong automaton.
//
//	go test ./ltl/toltlf -run '^$' -fuzz FuzzDFA -fuzztime 1m
func FuzzDFA(f *testing.F) {
	for _, dir := range []string{"../../examples", "../testdata"} {
		ps, _ := filepath.Glob(filepath.Join(dir, "*.ltl"))
		for _, p := range ps {
			if src, err := os.ReadFile(p); err == nil {
				f.Add(src)
			}
		}
	}
	f.Add([]byte("alphabet a b\nO (first & G (a -> X[!] b))\n"))
	f.Add([]byte("alphabet a b c\nlet P = (a | b) in O (first & (P U c)) since (H (first -> F c))\n"))
	f.Add([]byte("alphabet a\nY Z first & N last\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		g, err := ltl.ParseFile("fuzz.ltl", src)
		if err != nil || len(g.Alphabet()) > 4 || g.DAGSize() > 60 {
			return
		}
		b := budget.New(context.Background(), budget.Settings{"ltlf-states": 5000, "exact-states": 5000, "exact-bytes": 1 << 22})
		d, err := toltlf.DFA(b, g)
		if errors.Is(err, toltlf.ErrUnsupported) || errors.Is(err, ltlf.ErrPastOverFuture) || errors.Is(err, budget.ErrLimit) {
			return
		}
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		old, err := exact.BimachineFormulaDFA(b, g)
		if errors.Is(err, budget.ErrLimit) || errors.Is(err, exact.ErrNotRegular) {
			return
		}
		if err != nil {
			t.Fatalf("bimachine: %v", err)
		}
		if !d.Equal(old) {
			t.Fatalf("%s: the two routes differ", ltl.Format(g))
		}
	})
}
