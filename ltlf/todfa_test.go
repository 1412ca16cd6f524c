package ltlf

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/budget"
)

func valName(props []string) func([]bool) string {
	return func(v []bool) string {
		var t Step
		for i, b := range v {
			if b {
				t = t.With(i)
			}
		}
		return "{" + FormatTrace(props, Trace{t}) + "}"
	}
}

// TestMinimizeAgainstLetters: the symbolic minimisation gives the same
// number of states as Hopcroft's algorithm on the letter automaton over
// all valuations, and the two are exactly equivalent.
func TestMinimizeAgainstLetters(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	for i := range 300 {
		k := 1 + i%3
		f := randomFormula(r, k, 1+r.Intn(10), true)
		u, err := ToDFAUnminimized(nil, f)
		if err != nil {
			t.Fatal(err)
		}
		if err := u.Validate(); err != nil {
			t.Fatal(err)
		}
		d, err := symbolic.Minimize(nil, u)
		if err != nil {
			t.Fatal(err)
		}
		lu, err := symbolic.ToLetters(nil, u, valName(f.Props))
		if err != nil {
			t.Fatal(err)
		}
		ld, err := symbolic.ToLetters(nil, d, valName(f.Props))
		if err != nil {
			t.Fatal(err)
		}
		want, err := automata.Minimize(nil, lu)
		if err != nil {
			t.Fatal(err)
		}
		if want.NumStates() != d.NumStates() {
			t.Fatalf("%s: %d states, Hopcroft on letters %d", f, d.NumStates(), want.NumStates())
		}
		if !automata.Equivalent(want, ld, automata.SigmaStar) {
			t.Fatalf("%s: minimal DFA not equivalent", f)
		}
	}
}

// TestCompare: Compare finds a shortest counterexample, on which the two
// formulas' evaluations differ, exactly when the letter automata differ.
func TestCompare(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	differ := 0
	for range 300 {
		f := randomFormula(r, 2, 1+r.Intn(6), false)
		g := randomFormula(r, 2, 1+r.Intn(6), false)
		df, err1 := ToDFA(nil, f)
		dg, err2 := ToDFA(nil, g)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		cex, err := symbolic.Compare(nil, df, dg)
		if err != nil {
			t.Fatal(err)
		}
		lf, _ := symbolic.ToLetters(nil, df, valName(f.Props))
		lg, _ := symbolic.ToLetters(nil, dg, valName(f.Props))
		dis, err := automata.Compare(nil, lf, lg, automata.SigmaPlus)
		if err != nil {
			t.Fatal(err)
		}
		if (cex == nil) != (dis == nil) {
			t.Fatalf("%s vs %s: symbolic %v, letters %v", f, g, cex, dis)
		}
		if cex == nil {
			continue
		}
		differ++
		if len(cex.Trace) != len(dis.Word) {
			t.Fatalf("%s vs %s: counterexample of length %d, shortest %d", f, g, len(cex.Trace), len(dis.Word))
		}
		var tr Trace
		for _, v := range cex.Trace {
			var s Step
			for i, b := range v {
				if b {
					s = s.With(i)
				}
			}
			tr = append(tr, s)
		}
		if f.Eval(tr) == g.Eval(tr) || f.Eval(tr) != cex.AcceptA || g.Eval(tr) != cex.AcceptB {
			t.Fatalf("%s vs %s: %s is no counterexample", f, g, FormatTrace(f.Props, tr))
		}
	}
	if differ == 0 {
		t.Fatal("no pair differed: the test checks nothing")
	}
}

// TestConnectivesAgreeWithMonolithic: ToDFA (products of the operands'
// DFAs, repeated subformulas once, an empty conjunct or a full disjunct
// deciding its connective, G, X[!] and X distributed over ∧ and F over ∨)
// gives the same minimal DFA, numbered the same, as progression of the
// whole formula, on random formulas and on formulas built to have empty
// conjuncts and full disjuncts, and on chains of conjunctions and
// disjunctions.
func TestConnectivesAgreeWithMonolithic(t *testing.T) {
	r := rand.New(rand.NewSource(9))
	var fs []*Formula
	for _, s := range []string{
		"(a & !a) & G F b", "G F b & (a & !a)", "(F a | !F a) | G b", "G b | (F a | !F a)",
		"(G a & F !a) & X b", "X b | (G a -> F a)", "F a & F a & G (a -> X b)",
		"(G a & F !a) -> (F b & G !b)", "!(G a & F !a) & (b xor F b)",
		"G (a & X b)", "X[!] G (a & (b | X a))", "F (a | X[!] b) & X (a & b)", "X[!] G (a -> X b) & G (b & F a)",
		"X (X[!] (a & G (b & X[!] a)))", "F (G (a & b) | F (a | X b))", "G (a & b) <-> X[!] (a & b)",
	} {
		fs = append(fs, mustParse(t, s))
	}
	for range 300 {
		f := randomFormula(r, 2, 1+r.Intn(8), false)
		g := randomFormula(r, 2, 1+r.Intn(8), false)
		fs = append(fs, mustParse(t, "("+f.String()+") & ("+g.String()+") | !("+g.String()+")"))
	}
	// Chains of three to six operands over two or four propositions, built
	// pair by pair in pairCost's order.
	for i := range 160 {
		var parts []string
		for range 3 + r.Intn(4) {
			parts = append(parts, "("+randomFormula(r, 2+2*(i/120), 1+r.Intn(6), false).String()+")")
		}
		op := []string{" & ", " | "}[i%2]
		fs = append(fs, mustParse(t, strings.Join(parts, op)))
	}
	decided := 0
	for _, f := range fs {
		d, err := ToDFA(nil, f)
		if err != nil {
			t.Fatal(err)
		}
		u, err := ToDFAUnminimized(nil, f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := symbolic.Minimize(nil, u)
		if err != nil {
			t.Fatal(err)
		}
		if d.NumStates() != want.NumStates() {
			t.Fatalf("%s: %d states, monolithic %d", f, d.NumStates(), want.NumStates())
		}
		cex, err := symbolic.Compare(nil, d, want)
		if err != nil {
			t.Fatal(err)
		}
		if cex != nil {
			t.Fatalf("%s: differs from the monolithic DFA on %v", f, cex.Trace)
		}
		// Minimize numbers states canonically: the same automaton, edge
		// for edge, however it was built.
		if a, b := symbolic.Format(d), symbolic.Format(want); a != b {
			t.Fatalf("%s: numbered differently:\n%s\nmonolithic:\n%s", f, a, b)
		}
		if symbolic.IsEmpty(d) || symbolic.IsFull(d) {
			decided++
		}
	}
	if decided < 4 {
		t.Fatalf("only %d empty or full languages: the short cuts are not exercised", decided)
	}
}

// TestPairCost: a chain multiplies first the automata over the same
// propositions, even when a pair over different ones is smaller.
func TestPairCost(t *testing.T) {
	dfa := func(src string) *symbolic.DFA {
		d, err := ToDFA(nil, mustParse(t, "propositions a b c\n"+src))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	ga, gb, ca := dfa("G a"), dfa("G b"), dfa("F (a & X[!] (!a & X[!] a))")
	sa, sb := []int32{0}, []int32{1}
	if ga.NumStates() >= ca.NumStates() || gb.NumStates() >= ca.NumStates() {
		t.Fatalf("states %d, %d, %d: the test wants G a and G b smaller", ga.NumStates(), gb.NumStates(), ca.NumStates())
	}
	if same, apart := pairCost(ga, ca, sa, sa), pairCost(ga, gb, sa, sb); same >= apart {
		t.Errorf("cost over the same proposition %.2f, over different ones %.2f: want the first lower", same, apart)
	}
	for _, c := range []struct{ a, b, want []int32 }{
		{nil, nil, []int32{}}, {[]int32{0, 2}, []int32{1, 2, 5}, []int32{0, 1, 2, 5}}, {[]int32{3}, nil, []int32{3}},
	} {
		if got := union(c.a, c.b); !slices.Equal(got, c.want) {
			t.Errorf("union(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
		if got := unionSize(c.a, c.b); got != len(c.want) {
			t.Errorf("unionSize(%v, %v) = %d, want %d", c.a, c.b, got, len(c.want))
		}
	}
}

// TestLongChain: a chain longer than exactChain, combined among neighbours,
// is the monolithic automaton, and a conjunction of 1,200 propositions is
// built in a few thousand pair choices.
func TestLongChain(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for i := range 6 {
		var parts []string
		for range exactChain + 1 + r.Intn(8) {
			parts = append(parts, "("+randomFormula(r, 4, 1+r.Intn(3), false).String()+")")
		}
		f := mustParse(t, strings.Join(parts, []string{" & ", " | "}[i%2]))
		d, err := ToDFA(nil, f)
		if err != nil {
			t.Fatal(err)
		}
		u, err := ToDFAUnminimized(nil, f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := symbolic.Minimize(nil, u)
		if err != nil {
			t.Fatal(err)
		}
		if cex, err := symbolic.Compare(nil, d, want); err != nil || cex != nil {
			t.Fatalf("%s: differs from the monolithic DFA (%v, %v)", f, cex, err)
		}
	}
	var props, conj []string
	for i := range 1200 {
		props = append(props, fmt.Sprintf("p%d", i))
	}
	conj = props
	b := budget.New(context.Background(), nil)
	d, err := ToDFA(b, mustParse(t, "propositions "+strings.Join(props, " ")+"\n"+strings.Join(conj, " & ")))
	if err != nil {
		t.Fatal(err)
	}
	if d.NumStates() != 3 {
		t.Errorf("p0 & … & p1199: %d states, want 3", d.NumStates())
	}
}
