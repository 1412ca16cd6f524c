package ltlf

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/automata/symbolic"
)

func TestEvalEmpty(t *testing.T) {
	for src, want := range map[string]bool{
		"a": false, "!a": true, "true": true, "false": false, "X a": true, "X[!] a": false, "X[!] true": false,
		"F a": false, "F true": false, "G a": true, "G false": true, "a U b": false, "a W b": true, "a R b": true,
		"a M b": false, "Y a": false, "Z a": true, "O a": false, "H a": true, "a S b": false,
		"G(F x & F !x)": true, "!G(!request | F state)": false, "a xor !b": true, "a <-> b": true, "a -> b": true,
	} {
		f := mustParse(t, "semantics empty_trace\n"+src)
		if !f.EmptyTrace {
			t.Fatalf("%s: EmptyTrace not set", src)
		}
		if got := f.Eval(nil); got != want {
			t.Errorf("%s on the empty trace: %v, want %v", src, got, want)
		}
		if mustParse(t, src).Eval(nil) {
			t.Errorf("%s: the empty trace satisfies it without the empty-trace semantics", src)
		}
	}
}

// TestEmptyTraceDFA checks the DFA under the empty-trace semantics against
// Eval on every trace up to length 4, the empty one included, for random
// formulas, and that the printed source keeps the semantics.
func TestEmptyTraceDFA(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for n := 0; n < 300; n++ {
		f := randomFormula(r, 2, 1+r.Intn(8), n%2 == 0)
		f.EmptyTrace = true
		d, err := ToDFA(nil, f)
		if err != nil {
			if err == ErrPastOverFuture || strings.Contains(err.Error(), ErrPastOverFuture.Error()) {
				continue
			}
			t.Fatal(err)
		}
		if d.Accept[d.Start] != f.EvalEmpty() {
			t.Fatalf("%s: the DFA's start state accepts %v, the empty trace gives %v", f, d.Accept[d.Start], f.EvalEmpty())
		}
		allTraces(2, 4, func(tr Trace) {
			if runDFA(d, tr) != f.Eval(tr) {
				t.Fatalf("%s on %s: DFA and Eval differ", f, FormatTrace(f.Props, tr))
			}
		})
		g, err := Parse("", []byte(f.Format()))
		if err != nil || !g.EmptyTrace || g.String() != f.String() {
			t.Fatalf("%s: printed source reads back as %v (%v)", f, g, err)
		}
		// The same formula over non-empty traces differs at most on ε.
		f.EmptyTrace = false
		plain, err := ToDFA(nil, f)
		if err != nil {
			t.Fatal(err)
		}
		cex, err := symbolic.Compare(nil, d, plain)
		if err != nil {
			t.Fatal(err)
		}
		if (cex != nil) != f.EvalEmpty() || cex != nil && len(cex.Trace) != 0 {
			t.Fatalf("%s: the two semantics differ on %v", f, cex)
		}
	}
}

func TestSemanticsLineErrors(t *testing.T) {
	for _, src := range []string{"semantics\na", "semantics lydia\na", "semantics empty_trace nonempty_traces\na"} {
		_, err := ParseString(src)
		if err == nil || !strings.Contains(err.Error(), "1:1: semantics wants empty_trace") {
			t.Errorf("%q: got %v", src, err)
		}
	}
	if f := mustParse(t, "semantics nonempty_traces\na"); f.EmptyTrace {
		t.Error("nonempty_traces set EmptyTrace")
	}
}
