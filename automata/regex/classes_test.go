package regex

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/internal/testkit"
)

// TestSymbolSets checks the merged symbol sets and the shared derivative of
// unlisted symbols on random expressions over six symbols, where unions and
// intersections of symbols, "." and complements meet often: the DFA agrees
// with the reference matcher on every word up to length 3.
func TestSymbolSets(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	alpha := mustAlpha(t, "a", "b", "c", "d", "e", "f")
	words := testkit.Words(len(alpha), 3, 3)
	for range 400 {
		r := &Regex{Alphabet: alpha, Root: randomNode(rng, 3, 4)} // symbols a b c only: d e f unlisted
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

// TestLargeAlphabet builds expressions over a 10,000-symbol alphabet, which
// took time quadratic in the alphabet per state before symbols became sets
// (each derivative of "." visited every symbol, for every symbol).
func TestLargeAlphabet(t *testing.T) {
	const k = 10000
	syms := make([]string, k)
	for i := range syms {
		syms[i] = fmt.Sprintf("s%d", i)
	}
	alpha := mustAlpha(t, syms...)
	for _, c := range []struct {
		expr   string
		states int
		accept []string
		reject []string
	}{
		{".* s1 .*", 2, []string{"s1", "s0 s1 s9999"}, []string{"", "s0 s2"}},
		{"(" + strings.Join(syms, "|") + ")*", 1, []string{"", "s5 s9999 s0"}, nil},
		{"~(.* s1 s1 .*)", 3, []string{"", "s1 s2 s1"}, []string{"s1 s1", "s0 s1 s1 s3"}},
		{".* (s7 | s8) & ~(s8)", 3, []string{"s7", "s8 s8", "s0 s7"}, []string{"s8", "", "s9"}},
	} {
		r, err := ParseExpr(alpha, c.expr)
		if err != nil {
			t.Fatal(err)
		}
		d, err := r.DFA(nil)
		if err != nil {
			t.Fatal(err)
		}
		name := c.expr
		if len(name) > 40 {
			name = name[:40] + "…"
		}
		if d.NumStates() != c.states {
			t.Errorf("%s: %d states, want %d", name, d.NumStates(), c.states)
		}
		for _, list := range []struct {
			words []string
			want  bool
		}{{c.accept, true}, {c.reject, false}} {
			for _, s := range list.words {
				w, err := alpha.ParseWord(s)
				if err != nil {
					t.Fatal(err)
				}
				if d.Accepts(w) != list.want {
					t.Errorf("%s: Accepts(%q) = %v, want %v", name, s, !list.want, list.want)
				}
			}
		}
	}
}
