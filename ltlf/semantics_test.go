package ltlf

import (
	"math/rand"
	"testing"

	"github.com/brasp-dev/brasp/automata/symbolic"
)

func trace(t *testing.T, f *Formula, s string) Trace {
	t.Helper()
	tr, err := ParseTrace(f.Props, s)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestSpotSemantics: the edge cases where LTLf conventions differ.
func TestSpotSemantics(t *testing.T) {
	for _, c := range []struct {
		formula, trace string
		want           bool
	}{
		// weak and strong next at the last step
		{"propositions a\nX a", "a", true},
		{"propositions a\nX[!] a", "a", false},
		{"propositions a\nX false", "a", true},
		{"propositions a\nX false", "a;a", false},
		{"propositions a\nX[!] true", "a", false},
		{"propositions a\nX[!] true", "a;", true},
		{"G(a -> X b)", "a", true}, // Spot's weak X: a at the end is fine
		{"G(a -> X[!] b)", "a", false},
		{"G(a -> X b)", "a;", false},
		{"G(a -> X b)", "a;b", true},
		// F, G, U, R, W, M at the end of the trace
		{"propositions a\nG a", "a;a", true},
		{"propositions a\nF a", ";", false},
		{"a U b", "a;a", false},
		{"a W b", "a;a", true},
		{"a R b", "b;b", true},
		{"a M b", "b;b", false},
		{"a M b", "b;a,b", true},
		{"a R b", "b;a,b;", true},
		{"a R b", ";a,b", false},
		// past operators at the first step
		{"propositions a\nY a", "a", false},
		{"propositions a\nZ a", "", false}, // see below: "" is refused, replaced
		{"propositions a\nO a", "a", true},
		{"propositions a\nH a", "a", true},
		{"propositions a\nH !a", "a", false},
		{"a S b", "a", false},
		{"a S b", "b", true},
		{"propositions a\nX[!] Y a", "a;", true},
		{"propositions a\nX[!] Y a", ";a", false},
		// U against &: a U b & c is (a U b) & c
		{"a U b & c", "a;b", false},
		{"a U b & c", "a,c;b", true},
		{"a U (b & c)", "a;b,c", true},
	} {
		f := mustParse(t, c.formula)
		if c.trace == "" {
			c.trace, c.want = "{}", true // Z a at the first step holds
		}
		if got := f.Eval(trace(t, f, c.trace)); got != c.want {
			t.Errorf("%s on %s: %v, want %v", f, c.trace, got, c.want)
		}
		d, err := ToDFA(nil, f)
		if err != nil {
			t.Fatal(err)
		}
		if got := runDFA(d, trace(t, f, c.trace)); got != c.want {
			t.Errorf("DFA of %s on %s: %v, want %v", f, c.trace, got, c.want)
		}
	}
}

// TestDuals: the identities between the operators, exactly (minimal DFAs
// compared) and on every trace up to length 4.
func TestDuals(t *testing.T) {
	for _, c := range [][2]string{
		{"a R b", "!(!a U !b)"},
		{"a W b", "(a U b) | G a"},
		{"a M b", "b U (a & b)"},
		{"a M b", "!(!a W !b)"},
		{"X a", "!X[!] !a"},
		{"F a", "true U a"},
		{"G a", "false R a"},
		{"G a", "!F !a"},
		{"Z a", "!Y !a"},
		{"H a", "!O !a"},
		{"O a", "true S a"},
		{"a xor b", "!(a <-> b)"},
		{"X false", "!X[!] true"},
	} {
		f := mustParse(t, "propositions a b\n"+c[0])
		g := mustParse(t, "propositions a b\n"+c[1])
		allTraces(2, 4, func(tr Trace) {
			if f.Eval(tr) != g.Eval(tr) {
				t.Errorf("%s and %s differ on %s", c[0], c[1], FormatTrace(f.Props, tr))
			}
		})
		df, err1 := ToDFA(nil, f)
		dg, err2 := ToDFA(nil, g)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if cex, err := symbolic.Compare(nil, df, dg); err != nil || cex != nil {
			t.Errorf("%s and %s: DFAs differ: %v %v", c[0], c[1], cex, err)
		}
	}
}

func runDFA(d *symbolic.DFA, tr Trace) bool {
	return runDFA2(d, tr)
}

func runDFA2(d *symbolic.DFA, tr Trace) bool {
	q := d.Start
	for _, s := range tr {
		q = d.Step(q, func(i int) bool { return s.Has(i) })
	}
	return d.Accept[q]
}

// TestToDFAAgainstEval: the minimal DFA of random formulas (past operators
// over past-only operands included) agrees with the evaluator on every
// trace up to length 4 over 2 propositions and 3 over 3, is valid, and
// minimisation is idempotent.
func TestToDFAAgainstEval(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for i := range 400 {
		k := 2 + i%2
		f := randomFormula(r, k, 1+r.Intn(9), true)
		d, err := ToDFA(nil, f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if err := d.Validate(); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if d.Accept[d.Start] {
			t.Fatalf("%s: the start state accepts the empty trace", f)
		}
		allTraces(k, 6-k, func(tr Trace) {
			if got, want := runDFA(d, tr), f.Eval(tr); got != want {
				t.Fatalf("%s on %s: DFA %v, Eval %v", f, FormatTrace(f.Props, tr), got, want)
			}
		})
		again, err := symbolic.Minimize(nil, d)
		if err != nil || again.NumStates() != d.NumStates() {
			if err == nil {
				err = again.Validate()
			}
			t.Fatalf("%s: minimising again gives %d states, not %d (%v)", f, again.NumStates(), d.NumStates(), err)
		}
	}
}

// TestPastOverFuture: the construction refuses what it does not translate.
func TestPastOverFuture(t *testing.T) {
	f := mustParse(t, "Y F a")
	if _, err := ToDFA(nil, f); err == nil {
		t.Fatal("Y F a translated")
	}
}

func TestManyPropositions(t *testing.T) {
	// 8 Declare responses G(a_i -> F b_i): 2^8+1 states over 16 propositions.
	src := ""
	for i := range 8 {
		if i > 0 {
			src += " & "
		}
		src += "G(a" + string(rune('A'+i)) + " -> F b" + string(rune('A'+i)) + ")"
	}
	f := mustParse(t, src)
	d, err := ToDFA(nil, f)
	if err != nil {
		t.Fatal(err)
	}
	if d.NumStates() != 1<<8+1 {
		t.Errorf("%d states, want %d", d.NumStates(), 1<<8+1)
	}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	// 40 propositions in one guard.
	src = "G("
	for i := range 40 {
		if i > 0 {
			src += " | "
		}
		src += "p" + string(rune('a'+i%26)) + string(rune('a'+i/26))
	}
	f = mustParse(t, src+")")
	d, err = ToDFA(nil, f)
	if err != nil || d.NumStates() != 3 {
		t.Fatalf("%v states, %v", d, err)
	}
}
