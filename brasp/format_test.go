package brasp

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/internal/testkit"
)

// diffPrograms describes the first structural difference between a and b
// (alphabet, vectors, expressions by EqualExpr, output), or returns "".
// Source positions and whether the output line was written are ignored.
func diffPrograms(a, b *Program) string {
	if !a.Alphabet.Equal(b.Alphabet) {
		return fmt.Sprintf("alphabet %v vs %v", a.Alphabet, b.Alphabet)
	}
	if len(a.Vectors) != len(b.Vectors) {
		return fmt.Sprintf("%d vectors vs %d", len(a.Vectors), len(b.Vectors))
	}
	for k, v := range a.Vectors {
		w := b.Vectors[k]
		if v.Name != w.Name || v.Kind != w.Kind {
			return fmt.Sprintf("vector %d: %s (%s) vs %s (%s)", k, v.Name, v.Kind, w.Name, w.Kind)
		}
		switch v.Kind {
		case SymbolVector:
			if v.Symbol != w.Symbol {
				return fmt.Sprintf("vector %s: symbol %d vs %d", v.Name, v.Symbol, w.Symbol)
			}
		case PredicateVector:
			if v.Pred != w.Pred {
				return fmt.Sprintf("vector %s: predicate %v vs %v", v.Name, v.Pred, w.Pred)
			}
		case PositionwiseVector:
			if !EqualExpr(v.Expr, w.Expr) {
				return fmt.Sprintf("vector %s: %s vs %s", v.Name, FormatExpr(v.Expr), FormatExpr(w.Expr))
			}
		case AttentionVector:
			x, y := v.Att, w.Att
			if x.Tiebreak != y.Tiebreak || x.Mask != y.Mask || !EqualExpr(x.Score, y.Score) ||
				!EqualExpr(x.Value, y.Value) || !EqualExpr(x.Default, y.Default) {
				return fmt.Sprintf("vector %s: %s vs %s", v.Name, FormatAttention(x), FormatAttention(y))
			}
		}
	}
	o, p := a.Output, b.Output
	if o.Accept != p.Accept || o.Symbols.Equal(p.Symbols) == false || (o.Symbols == nil) != (p.Symbols == nil) ||
		fmt.Sprint(o.Vectors) != fmt.Sprint(p.Vectors) {
		return fmt.Sprintf("output %+v vs %+v", o, p)
	}
	return ""
}

// TestFormatRoundTripRandom checks Format(Parse(Format(p))) == Format(p)
// and structural equality on random programs, with quoted and
// multi-character symbols and tricky names.
func TestFormatRoundTripRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for c := 0; c < 500; c++ {
		p := genProgram(t, rng, rng.IntN(12)+1)
		src := Format(p)
		q, err := Parse("random", []byte(src))
		if err != nil {
			t.Fatalf("program %d does not parse back: %v\n%s", c, err, src)
		}
		if d := diffPrograms(p, q); d != "" {
			t.Fatalf("program %d parses back differently: %s\n%s", c, d, src)
		}
		if again := Format(q); again != src {
			t.Fatalf("program %d: Format not stable:\n%s\nvs\n%s", c, src, again)
		}
	}
}

// goldenWords returns the words of a golden program: its "# word:" lines,
// or else the alphabet's symbols in order, twice.
func goldenWords(t *testing.T, p *Program, src string) [][]int {
	t.Helper()
	var out [][]int
	for _, line := range strings.Split(src, "\n") {
		if w, ok := strings.CutPrefix(line, "# word: "); ok {
			out = append(out, testkit.Word(t, p.Alphabet, w))
		}
	}
	if out == nil {
		var w []int
		for range 2 {
			for k := range p.Alphabet {
				w = append(w, k)
			}
		}
		out = [][]int{w}
	}
	return out
}

// renderGolden is what a golden file holds for a program: the printed
// program, its table on each word (both interpreters must agree), and its
// normal forms; or the error messages.
func renderGolden(t *testing.T, name string, src []byte) string {
	t.Helper()
	p, err := Parse(name, src)
	if err != nil {
		return "== errors\n" + err.Error() + "\n"
	}
	var b strings.Builder
	b.WriteString("== Format\n" + Format(p))
	for _, w := range goldenWords(t, p, string(src)) {
		ref, fast := FormatTable(p.RunReference(w)), FormatTable(p.Run(w))
		if ref != fast {
			t.Errorf("%s: fast and reference tables differ on %s:\n%s\n%s", name, p.Alphabet.FormatWord(w), ref, fast)
		}
		fmt.Fprintf(&b, "== table %s\n%s", p.Alphabet.FormatWord(w), ref)
	}
	b.WriteString("== UnaryValue\n" + Format(UnaryValue(p)))
	us, err := UnaryScore(budget.New(context.Background(), budget.Settings{"unary-score-copies": 64}), p)
	if err != nil {
		b.WriteString("== UnaryScore\n" + err.Error() + "\n")
	} else {
		b.WriteString("== UnaryScore\n" + Format(us))
	}
	b.WriteString("== Simplify\n" + Format(Simplify(p)))
	return b.String()
}

// TestGolden compares each testdata program with its .golden file; run
// go test ./brasp -update to rewrite them after an intended change.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/golden/*.brasp")
	presets, _ := filepath.Glob("testdata/presets/*.brasp")
	files = append(files, presets...)
	if err != nil || len(files) < 5 {
		t.Fatalf("golden inputs missing: %v %v", files, err)
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			got := renderGolden(t, filepath.Base(f), src)
			testkit.Golden(t, strings.TrimSuffix(f, ".brasp")+".golden", []byte(got))
		})
	}
}

// TestFormatRoundTripFiles checks the printer round trip on every example
// and every testdata program that parses.
func TestFormatRoundTripFiles(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.brasp")
	more, _ := filepath.Glob("testdata/*/*.brasp")
	n := 0
	for _, f := range append(files, more...) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Parse(f, src)
		if err != nil {
			continue // error cases are covered by TestGolden
		}
		n++
		out := Format(p)
		q, err := Parse(f, []byte(out))
		if err != nil {
			t.Fatalf("%s: printed program does not parse: %v\n%s", f, err, out)
		}
		if d := diffPrograms(p, q); d != "" {
			t.Errorf("%s: printed program parses differently: %s\n%s", f, d, out)
		}
		if again := Format(q); again != out {
			t.Errorf("%s: Format(Parse(Format(p))) != Format(p):\n%s\nvs\n%s", f, again, out)
		}
	}
	if n < 10 {
		t.Errorf("only %d programs round-tripped", n)
	}
}

// TestQuoteNameRoundTrip checks that names and symbols with any characters
// print in a form the scanner reads back to the same name.
func TestQuoteNameRoundTrip(t *testing.T) {
	symbols := []string{"a", "ab", "#", "(", ")", "x y", "?", "_", "a_b", "\"", "\\", "é", "日本", "[", ":=", "a#b", "Q_", "1", "\t"}
	for _, s := range symbols {
		src := fmt.Sprintf("%s(i)\nP_%s(i) := %s(i)\noutput %s:P_%s\n",
			QuoteName(SymbolVectorName(s)), QuoteName("x"+s), QuoteName(SymbolVectorName(s)), alphabet.Quote(s), QuoteName("x"+s))
		p, err := Parse("q", []byte(src))
		if err != nil {
			t.Errorf("symbol %q: %v\n%s", s, err, src)
			continue
		}
		if len(p.Alphabet) != 1 || p.Alphabet[0] != s {
			t.Errorf("symbol %q read back as %v", s, p.Alphabet)
		}
		if p.Vectors[1].Name != "P_x"+s || p.Output.Symbols[0] != s {
			t.Errorf("symbol %q: vector %q, output %v", s, p.Vectors[1].Name, p.Output.Symbols)
		}
		if got := Format(p); got != src {
			t.Errorf("symbol %q prints as\n%s\nwant\n%s", s, got, src)
		}
	}
}
