package symbolic_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/ltlf"
)

// guardTextCases are automata whose guards have few and many paths.
func guardTextCases(t *testing.T) map[string]*symbolic.DFA {
	var responses, fs []string
	for i := range 5 {
		responses = append(responses, fmt.Sprintf("G(a%d -> F b%d)", i, i))
	}
	for i := range 6 {
		fs = append(fs, fmt.Sprintf("F p%d", i))
	}
	out := map[string]*symbolic.DFA{}
	for _, src := range []string{
		"true", "false", "G(a -> X b)", `G("long proposition name" -> F b)`, `a U "q;x y"`,
		"(a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5) U b", strings.Join(responses, " & "), strings.Join(fs, " & "),
		"G((a & X b) | (c & X !d) | (e <-> X f))",
	} {
		f, err := ltlf.ParseString(src)
		if err != nil {
			t.Fatal(err)
		}
		d, err := ltlf.ToDFA(nil, f)
		if err != nil {
			t.Fatal(err)
		}
		out[src] = d
	}
	return out
}

// referenceFormat is the guard text written the plain way: each state's
// edges with guards built by the manager's And and Or (DFA.Edges), each
// guard's cubes listed by GuardString.
func referenceFormat(d *symbolic.DFA, dot bool) string {
	var b strings.Builder
	if dot {
		b.WriteString("digraph dfa {\n  rankdir=LR;\n  node [shape=circle];\n  init [shape=point];\n")
		for q := range d.NumStates() {
			shape := "circle"
			if d.Accept[q] {
				shape = "doublecircle"
			}
			b.WriteString("  " + strconv.Itoa(q) + " [shape=" + shape + "];\n")
		}
		b.WriteString("  init -> " + strconv.Itoa(d.Start) + ";\n")
	} else {
		b.WriteString("propositions")
		for _, p := range d.Props {
			b.WriteString(" " + symbolic.QuoteProp(p))
		}
		b.WriteString("\nstart " + strconv.Itoa(d.Start) + "\naccept")
		for q, a := range d.Accept {
			if a {
				b.WriteString(" " + strconv.Itoa(q))
			}
		}
		b.WriteByte('\n')
	}
	for q := range d.NumStates() {
		for _, e := range d.Edges(q) {
			g := symbolic.GuardString(d.M, d.Props, e.Guard)
			if dot {
				b.WriteString("  " + strconv.Itoa(q) + " -> " + strconv.Itoa(e.To) + " [label=" + strconv.Quote(g) + "];\n")
			} else {
				b.WriteString(strconv.Itoa(q) + " " + strconv.Itoa(e.To) + " " + g + "\n")
			}
		}
	}
	if dot {
		b.WriteString("}\n")
	}
	return b.String()
}

// The guard text written from the diagrams is the text of the plain way,
// byte for byte, as guards and as DOT.
func TestFormatGuardsAgreesWithEdges(t *testing.T) {
	for src, d := range guardTextCases(t) {
		if got, want := symbolic.Format(d), referenceFormat(d, false); got != want {
			t.Errorf("%s: Format\n%s\nwant\n%s", src, got, want)
		}
		if got, want := symbolic.DOT(d), referenceFormat(d, true); got != want {
			t.Errorf("%s: DOT\n%s\nwant\n%s", src, got, want)
		}
	}
}

// FormatGuards refuses a text one byte over guard-text-bytes, naming the
// limit and the .bdd format, and writes it at the limit.
func TestFormatGuardsLimit(t *testing.T) {
	for src, d := range guardTextCases(t) {
		size := len(symbolic.Format(d))
		s := budget.Settings{}
		if err := s.Set(fmt.Sprintf("guard-text-bytes=%d", size-1)); err != nil {
			t.Fatal(err)
		}
		var le *budget.Error
		_, err := symbolic.FormatGuards(budget.New(context.Background(), s), d)
		if !errors.As(err, &le) || le.Limit.Name != "guard-text-bytes" || !strings.Contains(err.Error(), ".bdd") {
			t.Errorf("%s: one byte below the text: %v", src, err)
		}
		if err := s.Set(fmt.Sprintf("guard-text-bytes=%d", size)); err != nil {
			t.Fatal(err)
		}
		if text, err := symbolic.FormatGuards(budget.New(context.Background(), s), d); err != nil || len(text) != size {
			t.Errorf("%s: at the text's size: %d bytes, %v", src, len(text), err)
		}
	}
}

// eventuallyDFA is the minimal automaton of F p0 ∧ … ∧ F p(n-1): 2^n states
// and 3^n edges.
func eventuallyDFA(t *testing.T, n int) *symbolic.DFA {
	var fs []string
	for i := range n {
		fs = append(fs, fmt.Sprintf("F p%d", i))
	}
	f, err := ltlf.ParseString(strings.Join(fs, " & "))
	if err != nil {
		t.Fatal(err)
	}
	d, err := ltlf.ToDFA(nil, f)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// A text far over the limit is refused from the count of its edges alone,
// before any guard is built: F p0 ∧ … ∧ F p13 has 3^14 edges.
func TestFormatGuardsRefusesEarly(t *testing.T) {
	d := eventuallyDFA(t, 14)
	s := budget.Settings{}
	if err := s.Set("guard-text-bytes=1M"); err != nil {
		t.Fatal(err)
	}
	b := budget.New(context.Background(), s)
	var le *budget.Error
	if _, err := symbolic.FormatGuards(b, d); !errors.As(err, &le) {
		t.Fatalf("want guard-text-bytes, got %v", err)
	}
	if le.Need > 2<<20 {
		t.Errorf("refused at %d bytes: the count went on past the limit", le.Need)
	}
	if b.Used() > 1<<20 {
		t.Errorf("%d units of work before refusing a text of over 50 MB", b.Used())
	}
}

// A cancelled budget stops the text within a few thousand units of work.
func TestFormatGuardsCancelled(t *testing.T) {
	d := eventuallyDFA(t, 12)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b := budget.New(ctx, nil)
	if _, err := symbolic.FormatGuards(b, d); !errors.Is(err, budget.ErrStopped) {
		t.Errorf("cancelled: %v", err)
	}
	if b.Used() > 1<<14 {
		t.Errorf("%d units of work after cancelling", b.Used())
	}
}
