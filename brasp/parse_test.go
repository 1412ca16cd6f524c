package brasp

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/internal/testkit"
	"github.com/brasp-dev/brasp/position"
)

// parseErrorCases lists every error the scanner, parser and checker report,
// each with the exact text of the resulting error (file:line:col: message,
// one per line). They double as seeds for FuzzParse.
var parseErrorCases = []struct {
	name, src, want string
}{
	// Checker: names.
	{"undefined name", "Q_a(i)\nP(i) := X(i)\n",
		"t.brasp:2:9: undefined: X"},
	{"undefined symbol with hint", "Q_a(i)\nP(i) := Q_b(i)\n",
		"t.brasp:2:9: undefined: Q_b (declare the input symbol with a line Q_b(i))"},
	{"undefined quoted symbol with hint", "Q_a(i)\nP(i) := Q_\"#\"(i)\n",
		"t.brasp:2:9: undefined: Q_\"#\" (declare the input symbol with a line Q_\"#\"(i))"},
	{"undefined predicate with hint", "Q_a(i)\nP(i) := MOD_1_3(i)\n",
		"t.brasp:2:9: undefined: MOD_1_3 (declare the position predicate with a line MOD_1_3(i))"},
	{"redefinition", "Q_a(i)\nP(i) := Q_a(i)\nP(i) := !Q_a(i)\n",
		"t.brasp:3:1: P redefined (first defined at 2:1)"},
	{"redefined symbol", "Q_a(i)\nQ_a(i)\nP(i) := Q_a(i)\n",
		"t.brasp:2:1: Q_a redefined (first defined at 1:1)"},
	{"use before definition", "Q_a(i)\nP(i) := R(i)\nR(i) := Q_a(i)\n",
		"t.brasp:2:9: R is used before its definition at 3:1"},
	{"self-reference", "Q_a(i)\nP(i) := P(i) | Q_a(i)\n",
		"t.brasp:2:9: P is used in its own definition"},
	{"self-reference in score", "Q_a(i)\nP(i) := leftmost [1, P(j)] 1 : 0\n",
		"t.brasp:2:22: P is used in its own definition"},
	{"reserved name", "Q_a(i)\noutput(i) := Q_a(i)\n",
		"t.brasp:2:1: output is a reserved word and cannot name a vector"},
	{"reserved name i", "Q_a(i)\ni(i) := Q_a(i)\n",
		"t.brasp:2:1: i is a reserved word and cannot name a vector"},
	{"reserved name leftmost", "Q_a(i)\nleftmost(i) := Q_a(i)\n",
		"t.brasp:2:1: leftmost is a reserved word and cannot name a vector"},
	{"declaration of a non-initial vector", "Q_a(i)\nX(i)\nP(i) := Q_a(i)\n",
		"t.brasp:2:1: X(i) without := declares an initial vector, which must be an input symbol Q_σ or a position predicate (first, last, MOD_r_m, Mid, PERIODIC_<prefix>_<period>)"},
	{"bad MOD predicate", "Q_a(i)\nMOD_3_3(i)\nP(i) := Q_a(i)\n",
		"t.brasp:2:1: MOD_3_3(i) without := declares an initial vector, which must be an input symbol Q_σ or a position predicate (first, last, MOD_r_m, Mid, PERIODIC_<prefix>_<period>)"},

	// Checker: (j) where only (i) is allowed.
	{"(j) in a position-wise op", "Q_a(i)\nP(i) := Q_a(j)\n",
		"t.brasp:2:9: Q_a(j) in a position-wise operation: only (i) is allowed there"},
	{"(j) in a default", "Q_a(i)\nP(i) := leftmost [1, 1] 1 : Q_a(j)\n",
		"t.brasp:2:29: Q_a(j) in the default of an attention operation: only (i) is allowed there"},

	// Checker: alphabet and operations.
	{"empty alphabet", "P(i) := 1\n",
		"t.brasp:1:1: empty alphabet: declare each input symbol σ with a line Q_σ(i)"},
	{"empty alphabet with predicate", "first(i)\nP(i) := first(i)\n",
		"t.brasp:1:1: empty alphabet: declare each input symbol σ with a line Q_σ(i)"},
	{"empty file", "",
		"t.brasp:1:1: empty alphabet: declare each input symbol σ with a line Q_σ(i)"},

	// Checker: output lines.
	{"second output line", "Q_a(i)\nP(i) := Q_a(i)\noutput P\noutput P\n",
		"t.brasp:4:1: second output line (the first is at 3:1)"},
	{"undefined output vector", "Q_a(i)\nP(i) := Q_a(i)\noutput Y\n",
		"t.brasp:3:8: output vector Y is not defined"},
	{"undefined transducer output vector", "Q_a(i)\nP(i) := Q_a(i)\noutput x:P y:Z\n",
		"t.brasp:3:14: output vector Z is not defined"},
	{"duplicate transducer symbol", "Q_a(i)\nP(i) := Q_a(i)\noutput x:P x:P\n",
		"t.brasp:3:12: output symbol x given twice (first at 3:8)"},
	{"duplicate quoted transducer symbol", "Q_a(i)\nP(i) := Q_a(i)\noutput \"#\":P \"#\":P\n",
		"t.brasp:3:14: output symbol \"#\" given twice (first at 3:8)"},
	{"transducer output without symbol", "Q_a(i)\nP(i) := Q_a(i)\noutput x:P P\n",
		"t.brasp:3:12: transducer output P needs its output symbol: write SYMBOL:P"},
	{"output pair without vector", "Q_a(i)\nP(i) := Q_a(i)\noutput x:\n",
		"t.brasp:3:10: expected a vector name after x:, found end of line"},

	// Parser: masks.
	{"bad mask variable", "Q_a(i)\nP(i) := leftmost [k<i, 1] 1 : 0\n",
		"t.brasp:2:19: expected a mask (1, j<i, i<j, j<=i or i<=j), found \"k\""},
	{"bad mask constant", "Q_a(i)\nP(i) := leftmost [0, 1] 1 : 0\n",
		"t.brasp:2:19: expected a mask (1, j<i, i<j, j<=i or i<=j), found \"0\""},
	{"bad mask operator", "Q_a(i)\nP(i) := leftmost [j,i, 1] 1 : 0\n",
		"t.brasp:2:20: expected <, <=, > or >= in the mask, found ,"},
	{"bad mask same variable", "Q_a(i)\nP(i) := leftmost [j<j, 1] 1 : 0\n",
		"t.brasp:2:21: expected i on the right of the mask, found \"j\""},
	{"bad mask i on both sides", "Q_a(i)\nP(i) := leftmost [i>=i, 1] 1 : 0\n",
		"t.brasp:2:22: expected j on the right of the mask, found \"i\""},
	{"bad mask character", "Q_a(i)\nP(i) := leftmost [j=i, 1] 1 : 0\n",
		"t.brasp:2:20: unexpected character '='"},

	// Parser: attention syntax.
	{"missing ]", "Q_a(i)\nP(i) := leftmost [1, 1 1 : 0\n",
		"t.brasp:2:24: expected ] after the score predicate, found \"1\""},
	{"missing [", "Q_a(i)\nP(i) := leftmost 1\n",
		"t.brasp:2:18: expected [ after leftmost, found \"1\""},
	{"missing comma", "Q_a(i)\nP(i) := rightmost [1 1] 1 : 0\n",
		"t.brasp:2:22: expected , after the mask, found \"1\""},
	{"missing colon", "Q_a(i)\nP(i) := leftmost [1, 1] 1 0\n",
		"t.brasp:2:27: expected : between the value and the default, found \"0\""},
	{"missing default", "Q_a(i)\nP(i) := leftmost [1, 1] 1 :\n",
		"t.brasp:2:28: expected an expression, found end of line"},

	// Parser: statements and expressions.
	{"bad token", "Q_a(i)\nP(i) := Q_a(i) $ 1\n",
		"t.brasp:2:16: unexpected character '$'"},
	{"bad token at start", "Q_a(i)\n(i) := 1\n",
		"t.brasp:2:1: expected a name at the start of a statement, found ("},
	{"two statements on a line", "Q_a(i)\nP(i) := 1 1\n",
		"t.brasp:2:11: unexpected \"1\" after statement (one operation per line)"},
	{"missing (i) in definition", "Q_a(i)\nP i\n",
		"t.brasp:2:3: expected ( after the name of a vector, found \"i\""},
	{"(j) in definition", "Q_a(i)\nP(j) := 1\n",
		"t.brasp:2:3: expected i in the definition of P(i), found \"j\""},
	{"missing ) in definition", "Q_a(i)\nP(i := 1\n",
		"t.brasp:2:5: expected ) after (i, found :="},
	{"reference without (i)", "Q_a(i)\nP(i) := Q_a\n",
		"t.brasp:2:12: expected ( after Q_a: a reference is written Q_a(i) or Q_a(j)"},
	{"reference to k", "Q_a(i)\nP(i) := Q_a(k)\n",
		"t.brasp:2:13: expected i or j in Q_a(...), found \"k\""},
	{"reference missing )", "Q_a(i)\nP(i) := Q_a(i & 1\n",
		"t.brasp:2:15: expected ) after the position variable, found &"},
	{"operator without operand", "Q_a(i)\nP(i) := &\n",
		"t.brasp:2:9: expected an expression, found &"},
	{"unclosed parenthesis", "Q_a(i)\nP(i) := (Q_a(i)\n",
		"t.brasp:2:16: expected ) to close the parenthesis, found end of line"},
	{"unclosed parenthesis at EOF", "Q_a(i)\nP(i) := (Q_a(i)",
		"t.brasp:2:16: expected ) to close the parenthesis, found end of file"},
	{"nesting limit parentheses", "Q_a(i)\nP(i) := " + strings.Repeat("(", MaxNesting+1) + "1" + strings.Repeat(")", MaxNesting+1) + "\n",
		fmt.Sprintf("t.brasp:2:%d: expression nested too deeply (limit MaxNesting = 256)", 9+MaxNesting)},
	{"nesting limit negation", "Q_a(i)\nP(i) := " + strings.Repeat("!", MaxNesting+5) + "1\n",
		fmt.Sprintf("t.brasp:2:%d: expression nested too deeply (limit MaxNesting = 256)", 9+MaxNesting)},

	// Scanner.
	{"unterminated quote", "Q_\"a(i)\nP(i) := 1\n",
		"t.brasp:1:3: unterminated quoted name"},
	{"unterminated quote at EOF", "Q_a(i)\nP(i) := Q_\"a",
		"t.brasp:2:11: unterminated quoted name"},
	{"empty quoted name", "Q_a(i)\nQ_\"\"(i)\nP(i) := 1\n",
		"t.brasp:2:3: invalid quoted name \"\""},
	{"bad escape in quoted name", "Q_a(i)\nP(i) := Q_\"\\q\"(i)\n",
		"t.brasp:2:11: invalid quoted name \"\\q\""},
	{"invalid UTF-8", "Q_a(i)\nP(i) := Q_a(i) \xff\n",
		"t.brasp:2:16: invalid UTF-8 encoding"},

	// Several errors in one file are all reported, in order of position:
	// the first ten, then how many more.
	{"several errors", `Q_a(i)
P(i) := 1
Y(i) := Z(i) & P(j) | first(i) | Q_b(i)
R(i) := leftmost [1, R(j)] W(i) : Q_a(j)
S(i) := leftmost [x, 1] 1 : 0
P(i) := 0
T(i) := S(i) & $
output Nope
`, `t.brasp:3:9: undefined: Z
t.brasp:3:16: P(j) in a position-wise operation: only (i) is allowed there
t.brasp:3:23: undefined: first (declare the position predicate with a line first(i))
t.brasp:3:34: undefined: Q_b (declare the input symbol with a line Q_b(i))
t.brasp:4:22: R is used in its own definition
t.brasp:4:28: undefined: W
t.brasp:4:35: Q_a(j) in the default of an attention operation: only (i) is allowed there
t.brasp:5:19: expected a mask (1, j<i, i<j, j<=i or i<=j), found "x"
t.brasp:6:1: P redefined (first defined at 2:1)
t.brasp:7:16: unexpected character '$'
and 1 more error`},
}

func TestParseErrors(t *testing.T) {
	for _, c := range parseErrorCases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Parse("t.brasp", []byte(c.src))
			if err == nil {
				t.Fatalf("no error; parsed\n%s", Format(p))
			}
			if p != nil {
				t.Errorf("Parse returned a program together with an error")
			}
			if err.Error() != c.want {
				t.Errorf("error:\n%s\nwant:\n%s", err, c.want)
			}
			var list ErrorList
			if !errors.As(err, &list) || len(list) != strings.Count(c.want, "\n")+1 {
				t.Errorf("error is not an ErrorList of %d errors: %#v", strings.Count(c.want, "\n")+1, err)
			}
		})
	}
}

// TestParseErrorsNoFile checks the message layout without a file name.
func TestParseErrorsNoFile(t *testing.T) {
	_, err := Parse("", []byte("Q_a(i)\nP(i) := X(i)\n"))
	if err == nil || err.Error() != "2:9: undefined: X" {
		t.Errorf("error %v, want 2:9: undefined: X", err)
	}
}

// TestParseLimits checks the limits on the size of a program.
func TestParseLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString("Q_a(i)\n")
	for k := 1; k < MaxVectors; k++ {
		fmt.Fprintf(&b, "P%d(i) := Q_a(i)\n", k)
	}
	if _, err := Parse("t.brasp", []byte(b.String())); err != nil {
		t.Fatalf("%d vectors: %v", MaxVectors, err)
	}
	b.WriteString("Z(i) := Q_a(i)\n")
	_, err := Parse("t.brasp", []byte(b.String()))
	want := fmt.Sprintf("t.brasp:%d:1: too many vectors (limit MaxVectors = 65536)", MaxVectors+1)
	if err == nil || err.Error() != want {
		t.Errorf("%d vectors: error %v, want %s", MaxVectors+1, err, want)
	}

	big := make([]byte, MaxSourceBytes+1)
	for k := range big {
		big[k] = '\n'
	}
	_, err = Parse("t.brasp", big)
	want = "t.brasp: program is 16777217 bytes, more than the limit MaxSourceBytes = 16777216"
	if err == nil || err.Error() != want {
		t.Errorf("large source: error %v, want %s", err, want)
	}
}

// TestParseSyntax checks the accepted syntax: every mask spelling, the
// extensions, and the structure of expressions.
func TestParseSyntax(t *testing.T) {
	src := `# comment line
Q_a(i)   # trailing comment
Q_"#"(i)
Q_ab(i)
Q_"x y"(i)
first(i)
last(i)
MOD_0_2(i)
Mid(i)
M1(i) := leftmost [1, true] Q_a(j) : false
M2(i) := leftmost [j<i, 1] Q_a(j) : 0
M3(i) := leftmost [i>j, 1] Q_a(j) : 0
M4(i) := leftmost [i<j, 1] Q_a(j) : 0
M5(i) := leftmost [j>i, 1] Q_a(j) : 0
M6(i) := leftmost [j<=i, 1] Q_a(j) : 0
M7(i) := leftmost [i>=j, 1] Q_a(j) : 0
M8(i) := rightmost [i<=j, 1] Q_a(j) : 0
M9(i) := rightmost [j>=i, 1] Q_a(j) : 0
E(i) := !Q_a(i) & Q_"#"(i) | Q_ab(i) & !(first(i) | last(i)) | MOD_0_2(i) & Mid(i)
P_"(?"(i) := E(i)|M1(i)&M2(i)
output P_"(?"
`
	p, err := Parse("syntax", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.Alphabet.String(), `a "#" ab "x y"`; got != want {
		t.Errorf("alphabet %s, want %s", got, want)
	}
	masks := []position.Mask{position.MaskNone, position.MaskFuture, position.MaskFuture, position.MaskPast, position.MaskPast, position.MaskFutureOrSelf, position.MaskFutureOrSelf, position.MaskPastOrSelf, position.MaskPastOrSelf}
	for k, m := range masks {
		v := p.Vectors[p.Lookup(fmt.Sprintf("M%d", k+1))]
		if v.Att.Mask != m {
			t.Errorf("M%d: mask %v, want %v", k+1, v.Att.Mask, m)
		}
	}
	if got := p.Vectors[p.Lookup("M8")].Att.Tiebreak; got != position.Rightmost {
		t.Errorf("M8: tie-break %v", got)
	}
	preds := map[string]Predicate{"first": {Kind: First}, "last": {Kind: Last}, "MOD_0_2": {Kind: Mod, R: 0, M: 2}, "Mid": {Kind: Mid}}
	for name, pr := range preds {
		v := p.Vectors[p.Lookup(name)]
		if v.Kind != PredicateVector || v.Pred != pr {
			t.Errorf("%s: %v %+v", name, v.Kind, v.Pred)
		}
	}
	// ! binds tightest, then &, then |, left-associative.
	e := p.Vectors[p.Lookup("E")].Expr
	if got, want := parenthesize(e), `(((!Q_a(i) & Q_#(i)) | (Q_ab(i) & !(first(i) | last(i)))) | (MOD_0_2(i) & Mid(i)))`; got != want {
		t.Errorf("E parsed as %s, want %s", got, want)
	}
	out := p.Lookup("P_(?")
	if out < 0 || p.Output.Accept != out || !p.Output.Explicit {
		t.Errorf("output %+v, want vector %d", p.Output, out)
	}
	// Positions of names, operators and operands are recorded.
	v := p.Vectors[p.Lookup("M2")]
	if v.NamePos != (Pos{Line: 11, Col: 1}) || v.Att.TiebreakPos != (Pos{Line: 11, Col: 10}) || v.Att.MaskPos != (Pos{Line: 11, Col: 20}) || v.Att.Value.Pos() != (Pos{Line: 11, Col: 28}) {
		t.Errorf("M2 positions: %v %v %v %v", v.NamePos, v.Att.TiebreakPos, v.Att.MaskPos, v.Att.Value.Pos())
	}
}

// parenthesize prints e fully parenthesised, to check its tree.
func parenthesize(e Expr) string {
	switch e := e.(type) {
	case *Literal:
		return FormatExpr(e)
	case *Ref:
		return e.Name + "(" + e.Var.String() + ")"
	case *UnaryExpr:
		return "!" + parenthesize(e.X)
	case *BinaryExpr:
		return "(" + parenthesize(e.X) + " " + e.Op.String() + " " + parenthesize(e.Y) + ")"
	}
	return "?"
}

// TestTransducerOutput checks the output line of a transducer.
func TestTransducerOutput(t *testing.T) {
	p, err := Parse("t", []byte(`Q_a(i)
Q_b(i)
Y_a(i) := Q_a(i)
Y_b(i) := Q_b(i)
output a:Y_a "?":Y_b
`))
	if err != nil {
		t.Fatal(err)
	}
	if !p.IsTransducer() || p.Output.Symbols.String() != `a "?"` && p.Output.Symbols.String() != "a ?" {
		t.Fatalf("output %+v", p.Output)
	}
	out, err := p.Transduce(testkit.Word(t, p.Alphabet, "abba"))
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Output.Symbols.FormatWord(out); got != "a??a" {
		t.Errorf("transduce abba = %s, want a??a", got)
	}
}

// The three presets of the web simulator, verbatim.
var simulatorPresets = map[string]string{
	"dyck1_depth2": `Q_l(i)
Q_r(i)
P_l(i) := rightmost [j<i, 1] Q_l(j) : 0
S_r(i) := leftmost [i<j, 1] Q_r(j) : 0
I(i) := (Q_l(i) & S_r(i)) | (P_l(i) & Q_r(i))
A_r(i) := leftmost [i<j, !I(j)] Q_r(j) : 0
B_l(i) := rightmost [j<i, !I(j)] Q_l(j) : 0
C(i) := I(i) | (Q_l(i) & A_r(i)) | (Q_r(i) & B_l(i))
Y(i) := rightmost [1, !C(j)] 0 : 1
`,
	"ab_plus": `Q_a(i)
Q_b(i)
AB(i) := rightmost [j<i, 1] Q_a(j) & Q_b(i) : 0
BA(i) := leftmost [i<j, 1] Q_a(i) & Q_b(j) : 0
I(i) := AB(i) | BA(i)
Y(i) := rightmost [1, !I(j)] 0 : 1
`,
	"three_a": `Q_a(i)
Q_b(i)
Q_c(i)
A_2(i) := rightmost [j<i, Q_a(j) | Q_b(j)] Q_a(i) & Q_a(j) : 0
A_3(i) := rightmost [j<i, Q_a(j) | Q_b(j)] Q_a(i) & A_2(j) : 0
Y(i) := rightmost [1, A_3(j)] 1 : 0
`,
}

// dyck12 recognises Dyck-1 of depth at most 2 over l, r directly.
func dyck12(w string) bool {
	depth := 0
	for _, c := range w {
		if c == 'l' {
			depth++
		} else {
			depth--
		}
		if depth < 0 || depth > 2 {
			return false
		}
	}
	return depth == 0
}

// TestSimulatorPresets checks that the presets parse unchanged and
// recognise their languages on all words up to length 8, and that the
// testdata copies (seeds for FuzzParse and golden tests) are verbatim.
func TestSimulatorPresets(t *testing.T) {
	langs := map[string]func(string) bool{
		"dyck1_depth2": dyck12,
		"ab_plus":      regexp.MustCompile(`^(ab)+$`).MatchString,
		"three_a":      regexp.MustCompile(`ac*ac*a`).MatchString,
	}
	for name, src := range simulatorPresets {
		p, err := Parse(name, []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		file, err := os.ReadFile(filepath.Join("testdata", "presets", name+".brasp"))
		if err != nil || string(file) != src {
			t.Errorf("%s: testdata/presets copy differs or is missing (%v)", name, err)
		}
		count := 0
		for _, w := range testkit.Words(len(p.Alphabet), 1, 8) {
			s := p.Alphabet.FormatWord(w)
			want := langs[name](s)
			if got := p.RunReference(w).Accept(); got != want {
				t.Fatalf("%s on %s: reference %v, want %v", name, s, got, want)
			}
			if got := p.Accepts(w); got != want {
				t.Fatalf("%s on %s: Accepts %v, want %v", name, s, got, want)
			}
			if want {
				count++
			}
		}
		if count == 0 {
			t.Errorf("%s accepts no word up to length 8", name)
		}
	}
}

// TestFormatSimulatorSyntax checks that a program without extensions prints
// in the simulator's syntax, with no output line and the same masks.
func TestFormatSimulatorSyntax(t *testing.T) {
	for name, src := range simulatorPresets {
		p, err := Parse(name, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		got := Format(p)
		if strings.Contains(got, "output") || strings.Contains(got, "#") || strings.Contains(got, "\"") {
			t.Errorf("%s printed with an extension:\n%s", name, got)
		}
		// Same lines up to redundant parentheses.
		strip := strings.NewReplacer("(", "", ")", "").Replace
		if strip(got) != strip(src) {
			t.Errorf("%s printed as\n%s\nwant (up to parentheses)\n%s", name, got, src)
		}
	}
}

// TestValidateErrors checks each error of Validate, the checker of built
// programs, on a corrupted copy of a valid program.
func TestValidateErrors(t *testing.T) {
	fresh := func() *Program {
		p, err := Parse("v", []byte("Q_a(i)\nfirst(i)\nP(i) := Q_a(i)\nR(i) := leftmost [1, P(j)] Q_a(j) : P(i)\n"))
		if err != nil {
			t.Fatal(err)
		}
		p.File = ""
		return p
	}
	cases := []struct {
		name    string
		corrupt func(p *Program)
		want    string
	}{
		{"empty alphabet", func(p *Program) { p.Alphabet = nil },
			"empty alphabet\nsymbol vector Q_a does not match the alphabet"},
		{"duplicate name", func(p *Program) { p.Vectors[3].Name = "P"; p.Vectors[3].Att.Default.(*Ref).Name = "P" },
			`vector 3 has an empty, reserved or duplicate name "P"`},
		{"reserved name", func(p *Program) { p.Vectors[2].Name = "output" },
			"vector 2 has an empty, reserved or duplicate name \"output\"\nR: reference P(j) does not resolve to an earlier vector\nR: reference P(i) does not resolve to an earlier vector"},
		{"forward reference", func(p *Program) { p.Vectors[2].Expr.(*Ref).Vec = 3 },
			"P: reference Q_a(i) does not resolve to an earlier vector"},
		{"(j) in position-wise", func(p *Program) { p.Vectors[2].Expr.(*Ref).Var = VarJ },
			"P: Q_a(j) in a position-wise operation, where only (i) is allowed"},
		{"(j) in default", func(p *Program) { p.Vectors[3].Att.Default.(*Ref).Var = VarJ },
			"R: P(j) in the default, where only (i) is allowed"},
		{"missing expression", func(p *Program) { p.Vectors[3].Att.Value = nil },
			"R: missing the value"},
		{"missing attention", func(p *Program) { p.Vectors[3].Att = nil },
			"R: missing attention"},
		{"predicate name", func(p *Program) { p.Vectors[1].Pred = Predicate{Kind: Last} },
			"predicate vector first is named differently from its predicate last"},
		{"no output", func(p *Program) { p.Output.Accept = 7 },
			"no output vector"},
		{"transducer arity", func(p *Program) { p.Output.Symbols = []string{"x", "y"}; p.Output.Vectors = []int{3} },
			"transducer output has 2 symbols but 1 vectors"},
		{"transducer range", func(p *Program) { p.Output.Symbols = []string{"x"}; p.Output.Vectors = []int{-1} },
			"transducer output vector -1 out of range"},
	}
	if err := Validate(fresh()); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		p := fresh()
		c.corrupt(p)
		err := Validate(p)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error\n%v\nwant\n%s", c.name, err, c.want)
		}
	}
}
