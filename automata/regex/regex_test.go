package regex

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/internal/testkit"
	"github.com/brasp-dev/brasp/source"
)

// matchTable is the reference semantics, independent of derivatives:
// m[i][j] reports whether w[i:j] is in the language of n.
func matchTable(n *Node, k int, w []int) [][]bool {
	l := len(w)
	m := make([][]bool, l+1)
	for i := range m {
		m[i] = make([]bool, l+1)
	}
	var subs [][][]bool
	for _, s := range n.Sub {
		subs = append(subs, matchTable(s, k, w))
	}
	compose := func(x, y [][]bool) [][]bool {
		z := make([][]bool, l+1)
		for i := range z {
			z[i] = make([]bool, l+1)
			for j := i; j <= l; j++ {
				for h := i; h <= j; h++ {
					if x[i][h] && y[h][j] {
						z[i][j] = true
						break
					}
				}
			}
		}
		return z
	}
	star := func(x [][]bool) [][]bool {
		z := make([][]bool, l+1)
		for i := range z {
			z[i] = make([]bool, l+1)
			z[i][i] = true
		}
		for range l + 1 {
			z = compose(z, x)
			for i := range z {
				z[i][i] = true
			}
		}
		return z
	}
	for i := 0; i <= l; i++ {
		for j := i; j <= l; j++ {
			switch n.Op {
			case OpEpsilon:
				m[i][j] = i == j
			case OpSymbol:
				m[i][j] = j == i+1 && w[i] == n.Symbol
			case OpAny:
				m[i][j] = j == i+1
			case OpUnion:
				for _, s := range subs {
					m[i][j] = m[i][j] || s[i][j]
				}
			case OpInter:
				m[i][j] = true
				for _, s := range subs {
					m[i][j] = m[i][j] && s[i][j]
				}
			case OpCompl:
				m[i][j] = !subs[0][i][j]
			case OpOpt:
				m[i][j] = i == j || subs[0][i][j]
			}
		}
	}
	switch n.Op {
	case OpConcat:
		m = subs[0]
		for _, s := range subs[1:] {
			m = compose(m, s)
		}
	case OpStar:
		m = star(subs[0])
	case OpPlus:
		m = compose(subs[0], star(subs[0]))
	}
	return m
}

func randomNode(rng *rand.Rand, k, depth int) *Node {
	if depth == 0 || rng.IntN(4) == 0 {
		switch rng.IntN(8) {
		case 0:
			return Epsilon()
		case 1:
			return EmptySet()
		case 2:
			return &Node{Op: OpAny}
		}
		return Sym(rng.IntN(k))
	}
	sub := func() *Node { return randomNode(rng, k, depth-1) }
	switch rng.IntN(8) {
	case 0:
		return Concat(sub(), sub(), sub())
	case 1:
		return Concat(sub(), sub())
	case 2:
		return Union(sub(), sub())
	case 3:
		return Inter(sub(), sub())
	case 4:
		return Star(sub())
	case 5:
		return Plus(sub())
	case 6:
		return Opt(sub())
	}
	return Compl(sub())
}

func mustAlpha(t testing.TB, syms ...string) alphabet.Alphabet {
	a, err := alphabet.New(syms...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestRandomRegexes(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, alpha := range []alphabet.Alphabet{mustAlpha(t, "a", "b"), mustAlpha(t, "ab", "c", "#")} {
		// Words of the maximal length only: the reference table of w decides
		// every prefix of w too.
		maxLen := 7 - len(alpha)
		var words [][]int
		for _, w := range testkit.Words(len(alpha), 0, maxLen) {
			if len(w) == maxLen {
				words = append(words, w)
			}
		}
		for range 300 {
			r := &Regex{Alphabet: alpha, Root: randomNode(rng, len(alpha), 4)}
			src := Format(r)
			r2, err := Parse("rt.re", []byte(src))
			if err != nil {
				t.Fatalf("printed expression does not parse: %v\n%s", err, src)
			}
			if !r2.Root.Equal(r.Root) || Format(r2) != src {
				t.Fatalf("round trip changed the tree:\n%s\n%s", src, Format(r2))
			}
			d, err := r.DFA(nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range words {
				table := matchTable(r.Root, len(alpha), w)
				for j := range len(w) + 1 {
					if d.Accepts(w[:j]) != table[0][j] {
						t.Fatalf("%s: DFA says %v on %q", FormatExpr(r), d.Accepts(w[:j]), alpha.FormatWord(w[:j]))
					}
				}
			}
		}
	}
}

// load parses testdata/name.
func load(t testing.TB, name string) *Regex {
	return testkit.Load(t, filepath.Join("testdata", name), Parse)
}

func TestGoldenFiles(t *testing.T) {
	for name, c := range map[string]struct {
		states int
		accept []string
		reject []string
	}{
		"ab_plus.re":            {4, []string{"ab", "abab"}, []string{"", "a", "aab", "ba"}},
		"a_plus_b_plus_plus.re": {4, []string{"ab", "aabbbab"}, []string{"", "a", "ba", "aba"}},
		"aa_star.re":            {3, []string{"", "aa", "aaaa"}, []string{"a", "aaa", "ab"}},
		"parity.re":             {2, []string{"b", "abaabab"}, []string{"", "a", "bb"}},
		"ab_star_starfree.re":   {3, []string{"", "ab", "abab"}, []string{"a", "ba", "aba"}},
		"dyck12.re":             {4, []string{"", "lr", "llrr", "llrrlr"}, []string{"l", "lllrrr", "rl"}},
	} {
		r := load(t, name)
		d, err := r.DFA(nil)
		if err != nil {
			t.Fatal(err)
		}
		if d.NumStates() != c.states {
			t.Errorf("%s: %d states, want %d:\n%s", name, d.NumStates(), c.states, automata.Format(d))
		}
		for _, s := range c.accept {
			if !d.Accepts(testkit.Word(t, r.Alphabet, s)) {
				t.Errorf("%s rejects %q", name, s)
			}
		}
		for _, s := range c.reject {
			if d.Accepts(testkit.Word(t, r.Alphabet, s)) {
				t.Errorf("%s accepts %q", name, s)
			}
		}
	}
	// The paper's star-free expression denotes (ab)*.
	sf, _ := load(t, "ab_star_starfree.re").DFA(nil)
	ab, _ := ParseExpr(sf.Alphabet, "(ab)*")
	abd, _ := ab.DFA(nil)
	if diff, _ := automata.Compare(nil, sf, abd, automata.SigmaStar); diff != nil {
		t.Errorf("star-free expression differs from (ab)* on %v", diff.Word)
	}
}

func TestTokenisation(t *testing.T) {
	single := mustAlpha(t, "a", "b", "#", "?")
	r, err := ParseExpr(single, `ab"#"* | "?"?`)
	if err != nil {
		t.Fatal(err)
	}
	want := Union(Concat(Sym(0), Sym(1), Star(Sym(2))), Opt(Sym(3)))
	if !r.Root.Equal(want) {
		t.Errorf("single-character tokenisation: got %s", FormatExpr(r))
	}
	if got := FormatExpr(r); got != `ab"#"* | "?"?` {
		t.Errorf("FormatExpr = %s", got)
	}
	multi := mustAlpha(t, "ab", "a", "b")
	r, err = ParseExpr(multi, `ab a b* ~a`)
	if err != nil {
		t.Fatal(err)
	}
	want = Concat(Sym(0), Sym(1), Star(Sym(2)), Compl(Sym(1)))
	if !r.Root.Equal(want) {
		t.Errorf("multi-character tokenisation: got %s", FormatExpr(r))
	}
	if got := FormatExpr(r); got != `ab a b* ~a` {
		t.Errorf("FormatExpr = %s", got)
	}
	// Precedence: | looser than &, looser than concatenation, looser than ~,
	// looser than postfix.
	r, _ = ParseExpr(single, `a|b&ab~a*`)
	want = Union(Sym(0), Inter(Sym(1), Concat(Sym(0), Sym(1), Compl(Star(Sym(0))))))
	if !r.Root.Equal(want) {
		t.Errorf("precedence: got %s", FormatExpr(r))
	}
}

func TestParseErrors(t *testing.T) {
	for src, want := range map[string][]string{
		"":                       {"e.re:1:1: missing alphabet line"},
		"a b\n":                  {"e.re:1:1: expected an alphabet line first"},
		"alphabet a a\nab":       {"e.re:1:12: duplicate symbol a"},
		"alphabet a b\n":         {"e.re:2:1: missing expression after the alphabet line"},
		"alphabet a b\nac | % b": {"e.re:2:2: symbol c is not in the alphabet {a b}", "e.re:2:6: unexpected character '%'"},
		"alphabet a b\n(ab":      {"e.re:2:4: expected ) to close the ( at e.re:2:1, found end of input"},
		"alphabet a b\nab)":      {"e.re:2:3: unexpected \")\""},
		"alphabet a b\n[a]":      {"e.re:2:2: expected ] after ["},
		"alphabet a b\na | *b":   {"e.re:2:5: expected an expression, found \"*\""},
		"alphabet ab c\nabc":     {"e.re:2:1: symbol abc is not in the alphabet {ab c}"},
		"alphabet a b\n\"a":      {"e.re:2:1: unterminated quoted symbol"},
		"alphabet a b\n" + strings.Repeat("(", 2000) + "a": {"expression nested deeper than 1000"},
	} {
		_, err := Parse("e.re", []byte(src))
		el, ok := err.(source.ErrorList)
		if !ok {
			t.Errorf("Parse(%q): got %v, want errors %v", src, err, want)
			continue
		}
		for _, w := range want {
			found := false
			for _, e := range el {
				found = found || strings.Contains(e.Error(), w)
			}
			if !found {
				t.Errorf("Parse(%q): missing %q in %v", src, w, el)
			}
		}
	}
}

func TestStateLimit(t *testing.T) {
	// The 10th symbol from the end is a: 2^10 states.
	alpha := mustAlpha(t, "a", "b")
	r, err := ParseExpr(alpha, ".*a"+strings.Repeat(".", 9))
	if err != nil {
		t.Fatal(err)
	}
	// The derivatives before minimisation: 1,024 reachable ones.
	if _, err := r.DFA(budget.New(context.Background(), budget.Settings{"regex-states": 100})); !errors.Is(err, budget.ErrLimit) || !strings.Contains(err.Error(), "regex-states=100") {
		t.Errorf("limit not enforced: %v", err)
	}
	d, err := r.DFA(nil)
	if err != nil || d.NumStates() != 1024 {
		t.Errorf("got %v states, err %v", d, err)
	}
}

func FuzzParse(f *testing.F) {
	entries, _ := os.ReadDir("testdata")
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".re") {
			src, _ := os.ReadFile(filepath.Join("testdata", e.Name()))
			f.Add(src)
		}
	}
	f.Add([]byte("alphabet ab \"#\" c\nab \"#\"* | ~(c & ())?[]"))
	f.Add([]byte("alphabet a\n((a)"))
	f.Fuzz(func(t *testing.T, src []byte) {
		r, err := Parse("fuzz.re", src)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.re:") {
				t.Fatalf("error without position: %v", err)
			}
			return
		}
		out := Format(r)
		r2, err := Parse("fuzz2.re", []byte(out))
		if err != nil || !r2.Root.Equal(r.Root) || Format(r2) != out {
			t.Fatalf("round trip failed: %v\n%s", err, out)
		}
		if _, err := r.DFA(budget.New(context.Background(), budget.Settings{"regex-states": 200})); err != nil {
			if !errors.Is(err, budget.ErrLimit) {
				t.Fatalf("compile error: %v", err)
			}
		}
	})
}
