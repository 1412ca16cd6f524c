package brasp_test

import (
	"encoding/json"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata/regex/regextest"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/exact"
	"github.com/brasp-dev/brasp/ltl"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
	"github.com/brasp-dev/brasp/transformer/decompile"
)

// periodicCases are programs with table predicates and the regular
// expressions of their languages.
var periodicCases = []struct{ name, src, alpha, re string }{
	{"even", "Q_a(i)\nQ_b(i)\nPERIODIC_01(i)\n", "a b", "(..)*"},
	{"first_only", "Q_a(i)\nQ_b(i)\nPERIODIC_1_0(i)\n", "a b", "."},
	{"table_ends_b", "Q_a(i)\nQ_b(i)\nPERIODIC_0110_1(i)\nY(i) := PERIODIC_0110_1(i) & Q_b(i)\n", "a b", "(..|...|.....+) & .*b"},
	{"b_at_odd_positions_since_3", `Q_a(i)
Q_b(i)
PERIODIC_00_10(i)
bad(i) := PERIODIC_00_10(i) & !Q_b(i)
seen(i) := rightmost [j<i, bad(j)] 1 : 0
Y(i) := !seen(i) & !bad(i)
`, "a b", ". | ..(b.)*b?"},
}

// TestPeriodic checks the table predicates end to end: the interpreters
// against the table, the lowering to MOD (exactly), the exact DFA against
// the expected language, the compiled transformer (rational sinusoids only,
// forward passes, exactly through the decompiler).
func TestPeriodic(t *testing.T) {
	for _, tc := range periodicCases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := brasp.Parse(tc.name+".brasp", []byte(tc.src))
			if err != nil {
				t.Fatal(err)
			}
			if got := brasp.Format(p); got != tc.src {
				t.Errorf("prints as\n%s", got)
			}
			want := regextest.DFA(t, tc.alpha, tc.re)
			low, err := brasp.LowerPeriodic(p)
			if err != nil {
				t.Fatal(err)
			}
			if brasp.HasPeriodic(low) {
				t.Fatal("the lowered program still has a table")
			}
			r, rl := brasp.NewRunner(p), brasp.NewRunner(low)
			m, err := compile.Compile(nil, p, compile.Options{})
			if err != nil {
				t.Fatal(err)
			}
			onlySinusoids(t, m)
			run, err := transformer.NewRunner(m)
			if err != nil {
				t.Fatal(err)
			}
			forAll(p.Alphabet, 9, func(w []int) {
				tr := p.Run(w)
				if got := r.Run(w); got.Accept() != tr.Accept() {
					t.Fatalf("%v: fast %v, reference %v", w, got.Accept(), tr.Accept())
				}
				if got := rl.Run(w).Accept(); got != tr.Accept() {
					t.Fatalf("%v: lowered %v, table %v", w, got, tr.Accept())
				}
				if want.Accepts(w) != tr.Accept() {
					t.Fatalf("%v: program %v, expected language %v", w, tr.Accept(), want.Accepts(w))
				}
				if got, err := run.Accepts(w); err != nil || got != tr.Accept() {
					t.Fatalf("%v: model %v (%v), program %v", w, got, err, tr.Accept())
				}
			})
			for _, v := range p.Vectors {
				if v.Kind == brasp.PredicateVector && v.Pred.Kind == brasp.Periodic {
					for i := 1; i <= 20; i++ {
						if v.Pred.Holds(i, 20) != v.Pred.Table.Holds(i) {
							t.Fatalf("%s at %d", v.Name, i)
						}
					}
				}
			}
			dp, err := exact.ProgramDFA(nil, p)
			if err != nil {
				t.Fatal(err)
			}
			if eq, w, _, _ := exact.Equivalent(dp, want); !eq {
				t.Fatalf("exact DFA differs from %s on %v", tc.re, w)
			}
			dm, err := exact.ModelDFA(nil, m, decompile.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if eq, w, _, _ := exact.Equivalent(dm, want); !eq {
				t.Fatalf("decompiled model differs from %s on %v", tc.re, w)
			}
		})
	}
}

// TestPeriodicFormula: LTL formulas read table predicates as atoms.
func TestPeriodicFormula(t *testing.T) {
	f, err := ltl.ParseFile("t.ltl", []byte("alphabet a b\nPERIODIC_0110_1 & b\n"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := exact.FormulaDFA(nil, f)
	if err != nil {
		t.Fatal(err)
	}
	if eq, w, _, _ := exact.Equivalent(d, regextest.DFA(t, "a b", "(..|...|.....+) & .*b")); !eq {
		t.Fatalf("differs on %v", w)
	}
	for _, bad := range []string{"PERIODIC_", "PERIODIC_2", "PERIODIC_1_0_1"} {
		if _, err := ltl.ParseFile("t.ltl", []byte("alphabet a b\n"+bad+"\n")); err == nil {
			t.Errorf("%s accepted", bad)
		}
		if _, err := brasp.Parse("t.brasp", []byte("Q_a(i)\n"+bad+"(i)\n")); err == nil {
			t.Errorf("%s(i) accepted", bad)
		}
	}
}

func onlySinusoids(t *testing.T, m *transformer.Model) {
	t.Helper()
	var file struct {
		Position []struct {
			Kind string `json:"kind"`
		} `json:"position"`
	}
	if err := json.Unmarshal(transformer.EncodeJSON(m), &file); err != nil {
		t.Fatal(err)
	}
	for _, term := range file.Position {
		if term.Kind != "sin" && term.Kind != "cos" {
			t.Fatalf("position term of kind %s", term.Kind)
		}
	}
}

func forAll(alpha alphabet.Alphabet, maxLen int, f func([]int)) {
	var rec func(w []int)
	rec = func(w []int) {
		if len(w) > 0 {
			f(w)
		}
		if len(w) < maxLen {
			for a := range alpha {
				rec(append(w, a))
			}
		}
	}
	rec(nil)
}
