package ltlf

import (
	"errors"
	"math/rand"
	"strings"
	"testing"
)

// TestSpotPrecedence: each formula reads as its fully parenthesised form.
func TestSpotPrecedence(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a U b & c", "(a U b) & c"},
		{"a & b U c", "a & (b U c)"},
		{"a U b U c", "a U (b U c)"},
		{"a U b R c", "a U (b R c)"},
		{"!a U b", "(!a) U b"},
		{"F a U b", "(F a) U b"},
		{"a | b & c", "a | (b & c)"},
		{"a xor b & c", "a xor (b & c)"},
		{"a | b xor c", "a | (b xor c)"},
		{"a -> b -> c", "a -> (b -> c)"},
		{"a <-> b -> c", "a <-> (b -> c)"},
		{"a -> b | c", "a -> (b | c)"},
		{"GFa", "G(F(a))"},
		{"GFa & Xb", "G(F a) & X(b)"},
		{"Fo0 xor((o0<->Fi0)->Fi0)", "(F o0) xor ((o0 <-> F i0) -> F i0)"},
		{"X[!]a", "X[!](a)"},
		{"GX[!]a", "G(X[!] a)"},
		{"[]<>a", "G F a"},
		{"a V b", "a R b"},
		{"a && b || !c", "(a & b) | !c"},
		{`a /\ b \/ c`, "(a & b) | c"},
		{"a => b <=> c", "a -> (b <-> c)"},
		{"a --> b", "a -> b"},
		{"1 & 0 | true", "(true & false) | true"},
		{"~a ^ b", "(!a) xor b"},
		{"F0", "F false"},
		{`"x y" & "G"`, `"x y" & "G"`},
		{"Y a S b & O c", "((Y a) S b) & O c"},
	} {
		got := mustParse(t, c.in)
		want := mustParse(t, c.want)
		if got.String() != want.String() {
			t.Errorf("%q reads as %s, want %s", c.in, got, want)
		}
	}
}

func TestDialects(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// LTLf2DFA: X strong, WX weak, n-ary <->, left-folded ->,
		// U looser than R, capital runs split, last.
		{"dialect ltlf2dfa\nX a & WX b", "X[!] a & X b"},
		{"dialect ltlf2dfa\na <-> b <-> c", "(a <-> b) & (b <-> c)"},
		{"dialect ltlf2dfa\na -> b -> c", "(a -> b) -> c"},
		{"dialect ltlf2dfa\na U b R c", "a U (b R c)"},
		{"dialect ltlf2dfa\na R b U c", "(a R b) U c"},
		{"dialect ltlf2dfa\nXGXFWX G prop0", "X[!] G X[!] F X G prop0"},
		{"dialect ltlf2dfa\na & last", "a & X false"},
		{"dialect syft\nX a & WX b", "X[!] a & X b"},
		{"dialect ppltl\nO(a) -> O(b)", "F(X false & (O a -> O b))"},
	} {
		got := mustParse(t, c.in)
		want := mustParse(t, c.want)
		if got.String() != want.String() {
			t.Errorf("%q reads as %s, want %s", c.in, got, want)
		}
	}
}

func TestPropositionsLine(t *testing.T) {
	f := mustParse(t, "# comment\npropositions b a c\nG(a -> F b)\n")
	if strings.Join(f.Props, " ") != "b a c" {
		t.Errorf("props %v", f.Props)
	}
	f = mustParse(t, "G(req -> F grant) & Fx")
	if strings.Join(f.Props, " ") != "req grant x" {
		t.Errorf("inferred props %v", f.Props)
	}
	// "propositions" used as a proposition in a formula.
	f = mustParse(t, "propositions & a")
	if strings.Join(f.Props, " ") != "propositions a" {
		t.Errorf("props %v", f.Props)
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a &", "f.ltlf:1:4: expected a formula, found end of input"},
		{"(a | b", "f.ltlf:1:7: expected ')', found end of input"},
		{"a b", "f.ltlf:1:3: unexpected 'b' after the formula"},
		{"propositions a\na & b", "f.ltlf:2:5: proposition 'b' is not declared on the propositions line"},
		{"propositions a a\na", "f.ltlf:1:16: proposition 'a' declared twice"},
		{"dialect lisp\na", `f.ltlf:1:9: unknown LTLf dialect "lisp"`},
		{"a U", "f.ltlf:1:4: expected a formula"},
		{"U a", "f.ltlf:1:1: expected a formula, found the operator 'U'"},
		{"a & 2", "f.ltlf:1:5: number 2 is not a formula"},
		{"a $ b", "f.ltlf:1:3: unexpected character '$'"},
		{`"a`, "unterminated quoted proposition"},
		{"a [!]", "f.ltlf:1:3: unexpected '[!]'"},
		{"[!] a", "f.ltlf:1:1: [!] must follow X"},
		{"", "f.ltlf:1:1: no formula"},
		{"# only a comment\n", "f.ltlf:2:1: no formula"},
	} {
		_, err := Parse("f.ltlf", []byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.in, err, c.want)
		}
	}
}

func TestLimits(t *testing.T) {
	deep := strings.Repeat("(", 2000) + "a" + strings.Repeat(")", 2000)
	if _, err := Parse("", []byte(deep)); !errors.Is(err, ErrNesting) {
		t.Errorf("deep parentheses: %v", err)
	}
	if _, err := Parse("", []byte(strings.Repeat("G", 5000)+"a")); !errors.Is(err, ErrNesting) {
		t.Errorf("deep run: %v", err)
	}
	if _, err := ParseOptions("", []byte("a & b & c"), Options{MaxTokens: 3}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("tokens: %v", err)
	}
}

// TestRoundTrip: String and Format read back to the same formula.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for range 2000 {
		f := randomFormula(r, 3, r.Intn(12), true)
		s := f.String()
		g, err := ParseString(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if g.String() != s {
			t.Fatalf("%s printed back as %s", s, g)
		}
		h, err := Parse("", []byte(f.Format()))
		if err != nil || strings.Join(h.Props, ",") != strings.Join(f.Props, ",") || h.String() != s {
			t.Fatalf("Format %q: %v %v", f.Format(), err, h)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"G(a -> X b)", "GFa & X[!]b", "propositions a b\na U b", "dialect ltlf2dfa\nXGXFWX a",
		`"x y" R (b W c) M d`, "a xor b <-> c", "Y a S O b", "dialect ppltl\nH(a -> Y b)", "((a", "a & [!]",
		"X[3] a & F[1:2] b", "G[2:!] a | F[!0:$] b", "X[2!] a", "G[1:x] a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		g, err := ParseOptions("", []byte(src), Options{MaxNesting: 200})
		if err != nil {
			return
		}
		s := g.String()
		h, err := Parse("", []byte(g.Format()))
		if err != nil {
			t.Fatalf("%q printed as %q which does not parse: %v", src, g.Format(), err)
		}
		if h.String() != s {
			t.Fatalf("%q printed as %q, read back as %q", src, s, h)
		}
	})
}

func FuzzParseTrace(f *testing.F) {
	for _, s := range []string{"a,b;;c", "{}", "{a};{b,c}", ";", "a,,b", `"a"`, "d", ""} {
		f.Add(s)
	}
	props := []string{"a", "b", "c"}
	f.Fuzz(func(t *testing.T, s string) {
		tr, err := ParseTrace(props, s)
		if err != nil {
			return
		}
		back, err := ParseTrace(props, FormatTrace(props, tr))
		if err != nil || FormatTrace(props, back) != FormatTrace(props, tr) || len(back) != len(tr) {
			t.Fatalf("%q: printed %q reads back as %v (%v)", s, FormatTrace(props, tr), back, err)
		}
	})
}

// FuzzToDFA: the DFA of any small formula agrees with the evaluator on
// every trace up to length 3.
func FuzzToDFA(f *testing.F) {
	for _, s := range []string{"G(a -> X b)", "a U b & c", "X[!] Y a", "H(a -> O b)", "a M b xor F c", "GFa", "X false"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		g, err := ParseOptions("", []byte(src), Options{MaxNesting: 50})
		if err != nil || len(g.Props) > 3 || g.Size() > 40 {
			return
		}
		d, err := ToDFA(nil, g)
		if err != nil {
			if errors.Is(err, ErrPastOverFuture) {
				return
			}
			t.Fatal(err)
		}
		allTraces(len(g.Props), 3, func(tr Trace) {
			if runDFA(d, tr) != g.Eval(tr) {
				t.Fatalf("%s on %s: DFA and Eval differ", g, FormatTrace(g.Props, tr))
			}
		})
	})
}
