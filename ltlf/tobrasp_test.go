package ltlf

import (
	"math/rand"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
)

// checkProgram checks that prog accepts exactly the traces satisfying f
// among all traces up to maxLen, with both interpreters, and that its
// printed form parses back to a program with the same verdicts.
func checkProgram(t *testing.T, f *Formula, prog *brasp.Program, maxLen int) {
	t.Helper()
	again, err := brasp.Parse("printed.brasp", []byte(brasp.Format(prog)))
	if err != nil {
		t.Fatalf("%s: printed program does not parse: %v\n%s", f, err, brasp.Format(prog))
	}
	bad := 0
	allTraces(len(f.Props), maxLen, func(tr Trace) {
		want := f.Eval(tr)
		steps := tr.Steps()
		fast := prog.AcceptsSteps(steps)
		ref := prog.RunStepsReference(steps).Accept()
		re := again.AcceptsSteps(steps)
		if (fast != want || ref != want || re != want) && bad < 3 {
			bad++
			t.Errorf("%s on %s: Eval %v, program fast %v reference %v reparsed %v\n%s", f, FormatTrace(f.Props, tr),
				want, fast, ref, re, brasp.Format(prog))
		}
	})
}

func TestToBRASPGolden(t *testing.T) {
	f := mustParse(t, "G(a -> X b) & a U b")
	prog, err := ToBRASP(f)
	if err != nil {
		t.Fatal(err)
	}
	want := `propositions a b
Next(i) := leftmost [i<j, 1] P_b(j) : 1
Implies(i) := !P_a(i) | Next(i)
Globally_later(i) := leftmost [i<j, !Implies(j)] 0 : 1
Globally(i) := Implies(i) & Globally_later(i)
Until_later(i) := leftmost [i<j, !P_a(j) | P_b(j)] P_b(j) : 0
Until(i) := P_b(i) | (P_a(i) & Until_later(i))
And(i) := Globally(i) & Until(i)
Holds(i) := leftmost [1, 1] And(j) : 0
`
	if got := brasp.Format(prog); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	checkProgram(t, f, prog, 4)
}

// TestToBRASPSemantics checks Spot's edge cases: weak and strong next at
// the last step, the duals at the end of the trace, past operators at the
// first step, future operators under past ones.
func TestToBRASPSemantics(t *testing.T) {
	for _, s := range []string{
		"X a", "X[!] a", "X false", "X[!] true", "G(a -> X b)", "G(a -> X[!] b)",
		"a R b", "a W b", "a M b", "a U b", "F G a", "G F a", "a U b & c", "a xor b <-> c",
		"Y a", "Z a", "O a", "H a", "a S b", "G(b -> Y a)", "F(a & Z false)", "O(F a) | H(G b)",
		"G(a -> F(b S c))", "true", "false", "a", "!(a -> b)", "Y(a U b) S X c",
	} {
		f := mustParse(t, s)
		prog, err := ToBRASP(f)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		checkProgram(t, f, prog, map[bool]int{true: 3, false: 4}[len(f.Props) > 2])
	}
}

func TestToBRASPRandom(t *testing.T) {
	r := rand.New(rand.NewSource(15))
	for n := 0; n < 300; n++ {
		f := randomFormula(r, 2, 1+r.Intn(9), true)
		prog, err := ToBRASP(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		checkProgram(t, f, prog, 4)
	}
}

// TestToBRASPManyPropositions checks 30-proposition formulas on random long
// traces: the program has one vector per proposition, not 2^30 letters.
func TestToBRASPManyPropositions(t *testing.T) {
	r := rand.New(rand.NewSource(30))
	const k = 30
	props := make([]string, k)
	for i := range props {
		props[i] = "p" + string(rune('A'+i))
	}
	for n := 0; n < 100; n++ {
		f := randomFormula(r, k, 2+r.Intn(14), true)
		f.Props = props // randomFormula's names run out after z
		prog, err := ToBRASP(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(prog.Props) != k {
			t.Fatalf("%d propositions, want %d", len(prog.Props), k)
		}
		runner := brasp.NewRunner(prog)
		for m := 0; m < 20; m++ {
			tr := make(Trace, 1+r.Intn(300))
			for i := range tr {
				for p := range k {
					if r.Intn(3) == 0 {
						tr[i] = tr[i].With(p)
					}
				}
			}
			want := f.Eval(tr)
			if got := runner.RunSteps(tr.Steps()).Accept(); got != want {
				t.Fatalf("%s on a trace of length %d: program %v, Eval %v", f, len(tr), got, want)
			}
			if m < 3 {
				if got := prog.RunStepsReference(tr.Steps()).Accept(); got != want {
					t.Fatalf("%s: reference interpreter %v, Eval %v", f, got, want)
				}
			}
		}
	}
}

func FuzzToBRASP(f *testing.F) {
	for _, s := range []string{"G(a -> X b)", "a U b", "X[!] a R b", "Y a S H b", "F(a & X false)", "!(a xor b) W c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseString(s)
		if err != nil || len(g.Props) > 3 || g.Size() > 40 {
			return
		}
		prog, err := ToBRASP(g)
		if err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		checkProgram(t, g, prog, 3)
	})
}
