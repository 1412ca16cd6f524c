package brasp

import (
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
)

// TestLastLineIsTheOutput checks the web simulator's rule: without an output
// line, the output vector is the program's last line, a declaration
// included, and the printer keeps it.
func TestLastLineIsTheOutput(t *testing.T) {
	for _, c := range []struct {
		name, src, output string
		accepts, rejects  []string
	}{
		// The simulator accepts b here: the last line is Q_b.
		{"declaration last", "Q_a(i)\nX(i) := Q_a(i)\nQ_b(i)\n", "Q_b", []string{"b", "ab", "aab"}, []string{"a", "ba"}},
		{"declarations only", "Q_a(i)\nQ_b(i)\n", "Q_b", []string{"b"}, []string{"a", "ba"}},
		{"one declaration", "Q_a(i)\n# nothing else\n", "Q_a", []string{"a", "aa"}, nil},
		{"operation last", "Q_a(i)\nQ_b(i)\nX(i) := Q_a(i)\n", "X", []string{"a", "ba"}, []string{"b"}},
		{"output line", "Q_a(i)\nX(i) := Q_a(i)\nQ_b(i)\noutput X\n", "X", []string{"a", "ba"}, []string{"b"}},
		{"predicate last", "Q_a(i)\nX(i) := !Q_a(i)\nfirst(i)\n", "first", []string{"a"}, []string{"aa"}},
	} {
		p, err := Parse(c.name, []byte(c.src))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := p.Vectors[p.Output.Accept].Name; got != c.output {
			t.Errorf("%s: output vector %s, want %s", c.name, got, c.output)
		}
		for k, words := range [][]string{c.accepts, c.rejects} {
			want := k == 0
			for _, s := range words {
				w, err := p.Alphabet.ParseWord(s)
				if err != nil {
					t.Fatal(err)
				}
				if got := p.Accepts(w); got != want {
					t.Errorf("%s on %s: %v, want %v", c.name, s, got, want)
				}
				if got := p.RunReference(w).Accept(); got != want {
					t.Errorf("%s on %s: reference %v, want %v", c.name, s, got, want)
				}
			}
		}
		// The printed program has the same output.
		q, err := Parse("printed", []byte(Format(p)))
		if err != nil {
			t.Fatalf("%s: printed program: %v\n%s", c.name, err, Format(p))
		}
		if got := q.Vectors[q.Output.Accept].Name; got != c.output {
			t.Errorf("%s: printed program's output %s, want %s:\n%s", c.name, got, c.output, Format(p))
		}
		if explicit := strings.Contains(Format(p), "output"); explicit != (c.output != p.Vectors[len(p.Vectors)-1].Name) {
			t.Errorf("%s: printed with output line %v:\n%s", c.name, explicit, Format(p))
		}
	}
}

// TestUndeclaredCharacters checks the simulator's reading of characters the
// program does not declare: all-zero symbols, position predicates intact.
func TestUndeclaredCharacters(t *testing.T) {
	p, err := Parse("t", []byte("Q_a(i)\nQ_b(i)\nlast(i)\nN(i) := !Q_a(i) & !Q_b(i)\nL(i) := rightmost [j<i, 1] N(j) : 0\nY(i) := L(i) & last(i)\n"))
	if err != nil {
		t.Fatal(err)
	}
	w, und, err := ParseWordUndeclared(p.Alphabet, "  ab?x  ")
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 1, NoSymbol, NoSymbol}; len(w) != 4 || w[0] != 0 || w[1] != 1 || w[2] != want[2] || w[3] != want[3] {
		t.Fatalf("word %v, want %v", w, want)
	}
	if strings.Join(und, "") != "?x" {
		t.Errorf("undeclared %q, want ? and x", und)
	}
	for _, tr := range []*Trace{p.Run(w), p.RunReference(w)} {
		var n, y strings.Builder
		for i := range w {
			n.WriteString(map[bool]string{true: "1", false: "0"}[tr.Value(p.Lookup("N"), i)])
		}
		y.WriteString(map[bool]string{true: "1", false: "0"}[tr.Accept()])
		if n.String() != "0011" || y.String() != "1" {
			t.Errorf("N = %s (want 0011), accept %s (want 1)", n.String(), y.String())
		}
	}
	if _, _, err := ParseWordUndeclared(alphabet.Alphabet{"ab", "c"}, "abc"); err == nil || !strings.Contains(err.Error(), "one-character") {
		t.Errorf("multi-character alphabet: %v", err)
	}
}
