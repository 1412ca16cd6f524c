package ltl

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPrecedence pins down Spot's precedence and associativity by comparing
// parses with explicitly parenthesised versions.
func TestPrecedence(t *testing.T) {
	p := NewPool(mustAlphabet("a", "b", "c", "d", "#", "X"))
	for _, tc := range []struct{ src, same string }{
		{"a | b & c", "a | (b & c)"},
		{"a & b | c", "(a & b) | c"},
		{"a -> b -> c", "a -> (b -> c)"},
		{"a <-> b <-> c", "(a <-> b) <-> c"},
		{"a -> b <-> c", "(a -> b) <-> c"},
		{"a | b -> c", "(a | b) -> c"},
		{"a U b U c", "a U (b U c)"},
		{"a since b until c", "a since (b until c)"},
		{"a U b & c", "(a U b) & c"},
		{"!a U b", "(!a) U b"},
		{"X a S b", "(X a) S b"},
		{"G F a", "G (F a)"},
		{"!!a", "!(!a)"},
		{"a && b || c", "(a & b) | c"},
		{"a => b <=> c", "(a -> b) <-> c"},
		{"~a", "!a"},
		{`"#" & "X"`, `("#") & ("X")`},
		{"1 & true | 0 & false", "(true & true) | (false & false)"},
		{"let g = a & b in g | X g", "(a & b) | X (a & b)"},
		{"let g = a in let g = b in g", "b"},
		{"MOD_1_2 & first | last & Mid", "(MOD_1_2 & first) | (last & Mid)"},
	} {
		f, err := Parse(p, "", []byte(tc.src))
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		g, err := Parse(p, "", []byte(tc.same))
		if err != nil {
			t.Errorf("%s: %v", tc.same, err)
			continue
		}
		if f != g {
			t.Errorf("%s parsed as %s, want %s", tc.src, Format(f), Format(g))
		}
	}
}

// TestFormat pins the printed form of a few formulas.
func TestFormat(t *testing.T) {
	p := NewPool(mustAlphabet("a", "b", "#", "X", "1"))
	for src, want := range map[string]string{
		`"#" & (b since ("#" & (a since "#")))`: `"#" & (b since ("#" & (a since "#")))`,
		`a since b since a`:                     `(a since (b since a))`,
		`(a since b) since a`:                   `((a since b) since a)`,
		`(a U b) U a`:                           `(a U b) U a`,
		`a U b U a`:                             `a U b U a`,
		`!(a & b) | X (a | b)`:                  `!(a & b) | X (a | b)`,
		`"X" & "1" & 1`:                         `"X" & "1" & true`,
		`a & (b & a)`:                           `a & (b & a)`,
		`!(0 since 1)`:                          `!(false since true)`,
	} {
		f, err := Parse(p, "", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if got := Format(f); got != want {
			t.Errorf("Format(%s) = %s, want %s", src, got, want)
		}
	}
}

// TestRoundTrip: printing and parsing back gives the same DAG node, for
// random formulas with every operator, plain and with lets.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	p := NewPool(mustAlphabet("a", "b", "#", "G", "t1"))
	opt := genOptions{ops: allOps, predicates: true}
	for trial := 0; trial < 2000; trial++ {
		f := randomFormula(r, p, 1+r.IntN(25), opt)
		for _, text := range []string{Format(f), FormatShared(f)} {
			g, err := Parse(p, "rt", []byte(text))
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			if g != f {
				t.Fatalf("round trip changed %s into %s", Format(f), Format(g))
			}
		}
	}
}

// TestLargeFormulaPrintsShared: a formula of exponential tree size prints in
// linear size with lets, and reads back to the same node.
func TestLargeFormulaPrintsShared(t *testing.T) {
	p := NewPool(mustAlphabet("a", "b"))
	f := p.Symbol(0)
	for k := 0; k < 40; k++ {
		f = p.Or(p.Since(f, p.Symbol(1)), p.Until(p.Symbol(1), f))
	}
	if f.TreeSize() < 1<<40 || f.DAGSize() > 200 {
		t.Fatalf("tree %d, DAG %d", f.TreeSize(), f.DAGSize())
	}
	text := Format(f)
	if len(text) > 10000 || !strings.Contains(text, "let ") {
		t.Fatalf("printed in %d bytes", len(text))
	}
	g, err := Parse(p, "", []byte(text))
	if err != nil || g != f {
		t.Fatalf("round trip: %v", err)
	}
}

func TestParseFileRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.ltl")
	if len(files) < 11 {
		t.Fatalf("only %d testdata files", len(files))
	}
	for _, path := range files {
		src, _ := os.ReadFile(path)
		f, err := ParseFile(path, src)
		if err != nil {
			t.Fatal(err)
		}
		g, err := ParseFile("printed", []byte(FormatFile(f)))
		if err != nil {
			t.Fatalf("%s printed:\n%s\n%v", path, FormatFile(f), err)
		}
		if FormatFile(g) != FormatFile(f) || !g.Alphabet().Equal(f.Alphabet()) {
			t.Errorf("%s: round trip changed\n%s\ninto\n%s", path, FormatFile(f), FormatFile(g))
		}
	}
}

// TestParseErrors: bad input gets file:line:col messages, all of them.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"a & b", `f.ltl:1:1: expected 'alphabet' line before the formula, found "a"`},
		{"", `f.ltl:1:1: expected 'alphabet' line before the formula, found end of input`},
		{"alphabet\na", "f.ltl:1:1: empty alphabet"},
		{"alphabet a a\na", "f.ltl:1:12: duplicate symbol a in the alphabet"},
		{"alphabet a b\na & (b", "f.ltl:2:7: expected ')' to close '(' at 2:5, found end of input"},
		{"alphabet a b\na & & b", `f.ltl:2:5: expected a formula, found '&'`},
		{"alphabet a b\n# comment\n  a b", `f.ltl:3:5: unexpected "b" after the formula`},
		{"alphabet a b\nc | d", "f.ltl:2:1: unknown symbol c: not in the alphabet {a b}\nf.ltl:2:5: unknown symbol d: not in the alphabet {a b}"},
		{"alphabet a b\nGa", "f.ltl:2:1: unknown symbol Ga: not in the alphabet {a b} (write operators apart from their operand: G a)"},
		{"alphabet a b\na since", "f.ltl:2:8: expected a formula, found end of input"},
		{"alphabet a b\na $ b", "f.ltl:2:3: unexpected character '$'"},
		{"alphabet a b\n\"a", "f.ltl:2:1: unterminated quoted symbol"},
		{"alphabet a b\nMOD_2_2", "f.ltl:2:1: bad predicate MOD_2_2: MOD_r_m needs 0 <= r < m <= 1048576, written without leading zeros"},
		{"alphabet a b\nlet a = b in a", "f.ltl:2:5: let name a is a symbol of the alphabet"},
		{"alphabet a b\nlet X = b in a", "f.ltl:2:5: X is a keyword and cannot be a let name"},
		{"alphabet a b\nlet g = b a", `f.ltl:2:11: expected 'in' after the let definition, found "a"`},
		{"alphabet a b\na U", "f.ltl:2:4: expected a formula, found end of input"},
		{"alphabet a b\nX", "f.ltl:2:2: expected a formula, found end of input"},
		{"alphabet a b\nsince", `f.ltl:2:1: unexpected since; expected a formula (quote a symbol named since as "since")`},
	} {
		_, err := ParseFile("f.ltl", []byte(tc.src))
		if err == nil {
			t.Errorf("%q: no error", tc.src)
			continue
		}
		if err.Error() != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.src, err, tc.want)
		}
	}
}

func TestParseLimits(t *testing.T) {
	deep := "alphabet a\n" + strings.Repeat("(", 2000) + "a" + strings.Repeat(")", 2000)
	_, err := ParseFile("deep.ltl", []byte(deep))
	if !errors.Is(err, ErrNesting) || !strings.HasPrefix(err.Error(), "deep.ltl:2:1001: formula nested too deeply") {
		t.Errorf("deep parentheses: %v", err)
	}
	_, err = ParseFile("deep.ltl", []byte("alphabet a\n"+strings.Repeat("! X ", 1000)+"a"))
	if !errors.Is(err, ErrNesting) {
		t.Errorf("deep prefix operators: %v", err)
	}
	_, err = ParseFileLimits("big.ltl", []byte("alphabet a\n"+strings.Repeat("a & ", 100)+"a"), Limits{MaxNesting: 10, MaxTokens: 50})
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("too many tokens: %v", err)
	}
	// Long flat chains are not nesting.
	f, err := ParseFile("long.ltl", []byte("alphabet a\n"+strings.Repeat("a U ", 5000)+"a"))
	if err != nil || f.Depth() != 5000 {
		t.Errorf("long chain: %v", err)
	}
}

// FuzzParseFile: the parser never panics, and whatever it accepts prints and
// reads back to the same formula.
func FuzzParseFile(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.ltl")
	for _, path := range files {
		src, _ := os.ReadFile(path)
		f.Add(src)
	}
	for _, s := range []string{
		"alphabet a b\na U b U !a",
		"alphabet a \"#\" X\nG (\"#\" -> X \"X\") <-> O first",
		"alphabet a b\nlet g = a since b in g & Y g | MOD_1_3",
		"alphabet a b\n((a",
		"alphabet a\n\"\\x",
		"alphabet a b\na <=> b => ~a && b || a",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		g, err := ParseFileLimits("fuzz.ltl", src, Limits{MaxNesting: 100, MaxTokens: 10000})
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %v is not a non-empty ErrorList", err)
			}
			return
		}
		text := FormatFile(g)
		h, err := ParseFile("printed.ltl", []byte(text))
		if err != nil {
			t.Fatalf("printed form does not parse:\n%s\n%v", text, err)
		}
		if FormatFile(h) != text {
			t.Fatalf("round trip changed\n%s\ninto\n%s", text, FormatFile(h))
		}
	})
}
