package monadfa_test

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/brasp-dev/brasp/automata/monadfa"
	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/ltlf"
)

// TestParseRecorded reads MONA's recorded output for
// "all1 x: x in req => ex1 y: y > x & y in grant" at the last position, and
// checks it against brasp's DFA of G(req -> X[!] F grant).
func TestParseRecorded(t *testing.T) {
	data, err := os.ReadFile("testdata/req_grant.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !monadfa.Looks(data) {
		t.Fatal("Looks: false on MONA's output")
	}
	a, err := monadfa.Parse("req_grant.txt", data)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(a.Vars, " ") != "req grant" || a.Start != 1 || len(a.Trans) != 4 || !a.Accept[2] || a.Accept[1] {
		t.Fatalf("parsed %+v", a)
	}
	f, err := ltlf.ParseString("propositions grant req\nG(req -> X[!] F grant)")
	if err != nil {
		t.Fatal(err)
	}
	want, err := ltlf.ToDFA(nil, f)
	if err != nil {
		t.Fatal(err)
	}
	// Read over the formula's order of the propositions, not MONA's.
	d, err := a.Symbolic(nil, f.Props)
	if err != nil {
		t.Fatal(err)
	}
	if cex, err := symbolic.Compare(nil, d, want); err != nil || cex != nil {
		t.Fatalf("differs from brasp's DFA: %v %v", cex, err)
	}
	// Over more propositions than MONA's variables.
	if _, err := a.Symbolic(nil, []string{"x", "grant", "req"}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Symbolic(nil, []string{"grant"}); err == nil {
		t.Error("a free variable missing from the propositions was accepted")
	}
}

func TestParseErrors(t *testing.T) {
	head := "DFA for formula with free variables: a b\nInitial state: 0\nAccepting states: 1\nAutomaton has 3 states and 2 BDD-nodes\nTransitions:\nState 0: XX -> state 1\n"
	for _, c := range []struct{ src, want string }{
		{"hello\n", "f:1:1: no automaton: expected MONA's -w output"},
		{head + "State 1: 0 -> state 1\n", "f:7:1: transition label \"0\": want one of 0, 1, X for each of the 2 free variables"},
		{head + "State 1: 0X -> state 9\n", "f:7:1: transition between states outside 0..2"},
		{head + "State 1: XX state 1\n", "f:7:1: expected \"State N: LABEL -> state M\""},
		{strings.Replace(head, "Automaton has 3", "Automaton has x", 1), "f:4:1: \"x\" is not a state number"},
		{head + "State 0: 1X -> state 2\n", "MONA's initial state 0 does not lead to one state"},
		{"DFA for formula with free variables: a a\n", "f:1:1: free variable a twice"},
	} {
		_, err := monadfa.Parse("f", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %s", c.src, err, c.want)
		}
	}
	for _, c := range []struct{ trans, want string }{
		{"State 1: 0X -> state 1\nState 1: XX -> state 2\nState 2: XX -> state 2\n", "state 1: transitions to states 1 and 2 on the same valuation"},
		{"State 1: 0X -> state 1\nState 2: XX -> state 2\n", "state 1: no transition on some valuation"},
	} {
		a, err := monadfa.Parse("f", []byte(head+c.trans))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.Symbolic(nil, a.Vars); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %s", c.trans, err, c.want)
		}
	}
}

// toMONA writes f as an M2L-Str program whose models are the non-empty
// traces satisfying f: an encoding independent of brasp's construction,
// each proposition a second-order variable, each operator its first-order
// definition at position x.
func toMONA(f *ltlf.Formula) string {
	fresh := 0
	var tr func(i int32, x string) string
	v := func() string { fresh++; return fmt.Sprintf("y%d", fresh) }
	tr = func(i int32, x string) string {
		n := f.Nodes[i]
		a := func(y string) string { return tr(n.A, y) }
		b := func(y string) string { return tr(n.B, y) }
		until := func(phi, psi func(string) string) string {
			y, z := v(), v()
			return fmt.Sprintf("(ex1 %s: %s <= %s & %s & (all1 %s: %s <= %s & %s < %s => %s))", y, x, y, psi(y), z, x, z, z, y, phi(z))
		}
		not := func(g func(string) string) func(string) string { return func(y string) string { return "~" + g(y) } }
		switch n.Op {
		case ltlf.True:
			return "true"
		case ltlf.False:
			return "false"
		case ltlf.Prop:
			return fmt.Sprintf("(%s in %s)", x, f.Props[n.A])
		case ltlf.Not:
			return "~" + a(x)
		case ltlf.And:
			return "(" + a(x) + " & " + b(x) + ")"
		case ltlf.Or:
			return "(" + a(x) + " | " + b(x) + ")"
		case ltlf.Implies:
			return "(" + a(x) + " => " + b(x) + ")"
		case ltlf.Equiv:
			return "(" + a(x) + " <=> " + b(x) + ")"
		case ltlf.Xor:
			return "~(" + a(x) + " <=> " + b(x) + ")"
		case ltlf.Next, ltlf.WeakNext:
			y := v()
			s := fmt.Sprintf("(ex1 %s: %s = %s + 1 & %s)", y, y, x, a(y))
			if n.Op == ltlf.WeakNext {
				s = fmt.Sprintf("(%s = max($) | %s)", x, s)
			}
			return s
		case ltlf.Finally:
			y := v()
			return fmt.Sprintf("(ex1 %s: %s <= %s & %s)", y, x, y, a(y))
		case ltlf.Globally:
			y := v()
			return fmt.Sprintf("(all1 %s: %s <= %s => %s)", y, x, y, a(y))
		case ltlf.Until:
			return until(a, b)
		case ltlf.WeakUntil:
			y := v()
			return fmt.Sprintf("(%s | (all1 %s: %s <= %s => %s))", until(a, b), y, x, y, a(y))
		case ltlf.Release:
			return "~" + until(not(a), not(b))
		case ltlf.StrongRelease:
			return until(b, func(y string) string { return "(" + a(y) + " & " + b(y) + ")" })
		}
		panic("toMONA: past operators are not written")
	}
	var src strings.Builder
	src.WriteString("m2l-str;\n")
	if len(f.Props) > 0 {
		fmt.Fprintf(&src, "var2 %s;\n", strings.Join(f.Props, ", "))
	}
	fmt.Fprintf(&src, "ex1 z: (all1 u: z <= u) & %s;\n", tr(f.Root, "z"))
	return src.String()
}

// runMONA runs mona -q -w on src, or skips the test when mona is missing
// outside CI (CI installs it).
func runMONA(t *testing.T, src string) []byte {
	t.Helper()
	if _, err := exec.LookPath("mona"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("mona is not installed")
		}
		t.Skip("mona is not installed")
	}
	file := filepath.Join(t.TempDir(), "f.mona")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "mona", "-q", "-w", file).Output()
	if err != nil {
		t.Fatalf("mona: %v\n%s", err, src)
	}
	return out
}

// TestAgainstMONA runs MONA on an independent encoding of formulas (fixed
// ones and random future formulas) and checks that the DFA read from its
// output equals brasp's minimal DFA exactly, and on every trace up to
// length 4 equals Eval.
func TestAgainstMONA(t *testing.T) {
	var formulas []*ltlf.Formula
	for _, s := range []string{
		"propositions pa pb\nG(pa -> X pb)", "propositions pa pb\nG(pa -> X[!] pb)", "propositions pa pb\npa U pb",
		"propositions pa pb\npa R pb", "propositions pa pb\npa W pb", "propositions pa pb\npa M pb",
		"propositions pa pb pc\nG F pa & F[1:3!] pb | X[2] pc", "propositions pa\nX false", "propositions pa\nG F pa",
	} {
		f, err := ltlf.ParseString(s)
		if err != nil {
			t.Fatal(err)
		}
		formulas = append(formulas, f)
	}
	r := rand.New(rand.NewSource(7))
	ops := []string{"X", "X[!]", "F", "G", "!"}
	bin := []string{"U", "R", "W", "M", "&", "|", "->", "<->", "xor"}
	var gen func(size int) string
	gen = func(size int) string {
		if size == 0 {
			return []string{"pa", "pb", "true", "false"}[r.Intn(4)]
		}
		if r.Intn(2) == 0 {
			return ops[r.Intn(len(ops))] + " (" + gen(size-1) + ")"
		}
		l := r.Intn(size)
		return "(" + gen(l) + ") " + bin[r.Intn(len(bin))] + " (" + gen(size-1-l) + ")"
	}
	for range 40 {
		f, err := ltlf.ParseString("propositions pa pb\n" + gen(1+r.Intn(6)))
		if err != nil {
			t.Fatal(err)
		}
		formulas = append(formulas, f)
	}
	for _, f := range formulas {
		out := runMONA(t, toMONA(f))
		a, err := monadfa.Parse("mona", out)
		if err != nil {
			t.Fatalf("%s: %v\n%s", f, err, out)
		}
		d, err := a.Symbolic(nil, f.Props)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		want, err := ltlf.ToDFA(nil, f)
		if err != nil {
			t.Fatal(err)
		}
		if cex, err := symbolic.Compare(nil, d, want); err != nil || cex != nil {
			t.Fatalf("%s: MONA's DFA differs from brasp's: %+v %v\n%s", f, cex, err, toMONA(f))
		}
		if d.NumStates() != want.NumStates() {
			t.Errorf("%s: MONA's minimal DFA has %d states, brasp's %d", f, d.NumStates(), want.NumStates())
		}
	}
}

// monaChain is MONA's output for "the last step has V{k-1} false" over k
// free variables: a label of k-1 don't-cares then a bit.
func monaChain(k int) []byte {
	vars := make([]string, k)
	for i := range vars {
		vars[i] = fmt.Sprintf("V%d", i)
	}
	x := strings.Repeat("X", k-1)
	return []byte("DFA for formula with free variables: " + strings.Join(vars, " ") +
		"\nInitial state: 0\nAccepting states: 1\nAutomaton has 3 states and 3 BDD-nodes\nTransitions:\n" +
		"State 0: " + x + "X -> state 1\nState 1: " + x + "0 -> state 1\nState 1: " + x + "1 -> state 2\nState 2: " + x + "X -> state 1\n")
}

// TestDontCares: a label of k-1 don't-cares and a bit costs a node per
// variable, not a split per variable on every path (2^29 for k = 30): the
// work charged stays linear in k.
func TestDontCares(t *testing.T) {
	a, err := monadfa.Parse("f", monaChain(30))
	if err != nil {
		t.Fatal(err)
	}
	b := budget.New(context.Background(), budget.Settings{"work": 1 << 16})
	d, err := a.Symbolic(b, a.Vars)
	if err != nil {
		t.Fatal(err)
	}
	if d.NumStates() != 2 {
		t.Fatalf("%d states, want 2", d.NumStates())
	}
}

func FuzzParse(f *testing.F) {
	data, err := os.ReadFile("testdata/req_grant.txt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte("DFA for formula with free variables:\nInitial state: 0\nAccepting states: 1\nAutomaton has 2 states\nState 0: -> state 1\nState 1: -> state 1\n"))
	f.Add([]byte("DFA for formula with free variables: a\nInitial state: 0\nAutomaton has 2 states\nState 0: X -> state 1\nState 1: 0 -> state 1\n"))
	f.Add(monaChain(30))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := monadfa.Parse("fuzz", data)
		if err != nil {
			return
		}
		if len(a.Vars) > 40 || len(a.Trans) > 64 {
			return
		}
		d, err := a.Symbolic(nil, a.Vars)
		if err != nil {
			return
		}
		if err := d.Validate(); err != nil {
			t.Fatalf("built automaton does not validate: %v", err)
		}
	})
}
