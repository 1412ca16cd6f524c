package guarddfa_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/automata/guarddfa"
	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/ltlf"
)

// formulas are the LTLf test formulas of package ltlf plus a few with
// quoted propositions and trivial guards.
func formulas(t testing.TB) map[string][]byte {
	out := map[string][]byte{
		"true":   []byte("true"),
		"false":  []byte("false"),
		"quoted": []byte(`G("req 1" -> F "grant.x") & X[!] "a b"`),
		"past":   []byte("G(grant -> Y(!grant S req))"),
		"next":   []byte("a & X(b | !a) & X[!]X[!] c"),
	}
	files, err := filepath.Glob("../../ltlf/testdata/*.ltlf")
	if err != nil || len(files) == 0 {
		t.Fatalf("no LTLf test formulas: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = data
	}
	return out
}

func dfaOf(t *testing.T, name string, src []byte, props []string) *symbolic.DFA {
	t.Helper()
	f, err := ltlf.Parse(name, src)
	if err != nil {
		t.Fatal(err)
	}
	if props != nil {
		if f, err = f.WithProps(props); err != nil {
			t.Fatal(err)
		}
	}
	d, err := ltlf.ToDFA(nil, f)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// The guard format round-trips: what Format writes reads back to the same
// automaton, written the same, and read over more propositions in another
// order it is the formula's automaton over those.
func TestRoundTrip(t *testing.T) {
	for name, src := range formulas(t) {
		t.Run(name, func(t *testing.T) {
			d := dfaOf(t, name, src, nil)
			text := symbolic.Format(d)
			a, err := guarddfa.Parse(name, []byte(text))
			if err != nil {
				t.Fatalf("%v\n%s", err, text)
			}
			back, err := a.Symbolic(nil, a.Props)
			if err != nil {
				t.Fatal(err)
			}
			if got := symbolic.Format(back); got != text {
				t.Fatalf("read back differently:\n%s\nwant\n%s", got, text)
			}
			wider := append(slices.Clone(d.Props), "zz_extra")
			slices.Reverse(wider)
			over, err := a.Symbolic(nil, wider)
			if err != nil {
				t.Fatal(err)
			}
			ce, err := symbolic.Compare(nil, over, dfaOf(t, name, src, wider))
			if err != nil || ce != nil {
				t.Fatalf("over %v: differs on %v (%v)", wider, ce, err)
			}
		})
	}
}

// Files that are not complete deterministic guard automata are refused
// with the line and column of the problem.
func TestErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"start 0\n", "f:1:1: expected the propositions line first"},
		{"propositions a\n0 0 true\n", "f:3:1: missing start line"},
		{"propositions a a\nstart 0\n0 0 true\n", `f:1:16: proposition "a" declared twice`},
		{"propositions a\nstart 0\n0 0 b\n", `f:3:5: proposition "b" is not declared`},
		{"propositions a\nstart 0\n0 0 a &\n", "f:3:7: expected a proposition at the end of the guard"},
		{"propositions a\nstart 0\n0 0 a ^ a\n", `f:3:7: unexpected '^'`},
		{"propositions a\nstart 0\n0 0 a b\n", "f:3:7: expected & or | in the guard, found b"},
		{"propositions a\nstart x\n", "f:2:7: x is not a state number"},
		{"propositions a\nstart 0\n0 1\n", "f:3:1: expected an edge: FROM TO GUARD"},
		{"propositions a\nstart 0\n0 0 a\n0 0 true\n", "f:4:1: state 0: this guard overlaps an earlier edge's on a"},
		{"propositions a b\nstart 0\n0 0 a\n", "f:3:1: state 0: no edge on !a"},
		{"propositions a\nstart 0\n0 1 true\n", "f:3:3: state 1 has no edges"},
		{"propositions \"a\nstart 0\n", "f:1:14: unterminated or invalid quoted proposition"},
		{"propositions a\nstart 0\nstart 0\n0 0 true\n", "f:3:1: a second start line"},
		{"propositions a\nstart -1\n0 0 true\n", "f:2:7: -1 is not a state number (0..16777215)"},
		// One state named 16777215 is refused before anything is
		// allocated by its number.
		{"propositions a\nstart 16777215\n", "f:2:7: state 16777215 has no edges"},
		{"propositions a\nstart 0\n0 0 true\n2 0 true\n", "f:4:1: state 2 is named but state 1 is not: states are numbered 0, 1, … without gaps"},
	} {
		a, err := guarddfa.Parse("f", []byte(c.src))
		if err == nil {
			_, err = a.Symbolic(nil, a.Props)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.src, err, c.want)
		}
	}
}

// TestErrorsBlameTheLine: a propositions line with a bad name is blamed
// alone, not every line after it for a missing propositions line.
func TestErrorsBlameTheLine(t *testing.T) {
	_, err := guarddfa.Parse("f", []byte("propositions \"a\\q\"\nstart 0\naccept 0\n0 0 true\n"))
	if err == nil || err.Error() != `f:1:14: unterminated or invalid quoted proposition (Go's escapes: \\, \", \n, \t, \u00e9, …)` {
		t.Fatalf("got %v", err)
	}
}

// TestDiagramForm: what symbolic.FormatDiagram writes (brasp convert --to
// dfa -o x.bdd) reads back as the same automaton.
func TestDiagramForm(t *testing.T) {
	for name, src := range formulas(t) {
		d := dfaOf(t, name, src, nil)
		text := symbolic.FormatDiagram(d)
		a, err := guarddfa.Parse("x.bdd", []byte(text))
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, text)
		}
		e, err := a.Symbolic(nil, a.Props)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, text)
		}
		if ce, err := symbolic.Compare(nil, d, e); err != nil || ce != nil {
			t.Fatalf("%s: read back differs on %v (%v)\n%s", name, ce, err, text)
		}
	}
	for _, c := range []struct{ src, want string }{
		{"propositions a\nstart 0\nnode 1 a s0 s0\n", "f:3:6: node 1: nodes are numbered 0, 1, … in order (want 0)"},
		{"propositions a\nstart 0\nnode 0 a s0 n1\nstate 0 n0\n", "f:3:13: n1: node 1 is not defined before this line"},
		{"propositions a\nstart 0\nnode 0 b s0 s0\n", "f:3:8: b is not declared"},
		{"propositions a\nstart 0\nstate 0 s0\n0 0 true\n", "state 0 has both edges and a state line"},
		{"propositions a\nstart 0\nstate 0 s0\nstate 0 s0\n", "f:4:1: a second state line for state 0"},
		{"propositions a\nstart 0\nstate 0 x\n", "f:3:9: expected a node nN or a state sN, found x"},
	} {
		a, err := guarddfa.Parse("f", []byte(c.src))
		if err == nil {
			_, err = a.Symbolic(nil, a.Props)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.src, err, c.want)
		}
	}
}

func TestLooks(t *testing.T) {
	for src, want := range map[string]bool{
		"# a comment\n\npropositions a\n": true,
		"propositions\n":                  true,
		"alphabet a b\n":                  false,
		"":                                false,
		"DFA for formula with free variables: a\n": false,
	} {
		if got := guarddfa.Looks([]byte(src)); got != want {
			t.Errorf("Looks(%q) = %v", src, got)
		}
	}
}

// FuzzParse: no input panics, and a file that reads as an automaton
// writes back to text that reads as the same automaton.
func FuzzParse(f *testing.F) {
	for name, src := range formulas(f) {
		fm, err := ltlf.Parse(name, src)
		if err != nil {
			f.Fatal(err)
		}
		d, err := ltlf.ToDFA(nil, fm)
		if err != nil {
			f.Fatal(err)
		}
		f.Add([]byte(symbolic.Format(d)))
		f.Add([]byte(symbolic.FormatDiagram(d)))
	}
	f.Add([]byte("propositions a\nstart 0\n0 0 a\n0 1 !a\n1 1 true # sink\naccept 0\n"))
	f.Add([]byte("propositions a\nstart 0\n0 0 a\n"))
	f.Add([]byte("propositions a\nstart 16777215\n"))
	f.Add([]byte("propositions \"a\\q\"\nstart -1\n0 2 true\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := guarddfa.Parse("f", data)
		if err != nil {
			return
		}
		d, err := a.Symbolic(nil, a.Props)
		if err != nil {
			return
		}
		text := symbolic.Format(d)
		b, err := guarddfa.Parse("g", []byte(text))
		if err != nil {
			t.Fatalf("written form does not read back: %v\n%s", err, text)
		}
		e, err := b.Symbolic(nil, b.Props)
		if err != nil {
			t.Fatalf("written form refused: %v\n%s", err, text)
		}
		if ce, err := symbolic.Compare(nil, d, e); err != nil || ce != nil {
			t.Fatalf("written form differs on %v (%v)", ce, err)
		}
	})
}
