package nonstrict_test

import (
	"errors"
	"testing"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/exact"
	"github.com/brasp-dev/brasp/ltl"
	"github.com/brasp-dev/brasp/ltl/nonstrict"
)

// FuzzRewrite checks (★) of the package documentation on every formula the
// fuzzer finds: T(f) uses only non-strict operators and agrees with f on
// the destuttered word at every position of every short word.
func FuzzRewrite(f *testing.F) {
	for _, seed := range fuzzSeeds {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		g, err := ltl.ParseFile("fuzz.ltl", []byte(src))
		if err != nil || g.DAGSize() > 40 || len(g.Alphabet()) > 3 {
			return
		}
		tg, err := nonstrict.Rewrite(nil, g)
		if errors.Is(err, nonstrict.ErrPredicate) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := nonstrict.CheckFormula(tg, nonstrict.NonStrict); err != nil {
			t.Fatal(err)
		}
		checkLemma(t, g, tg, 5)
	})
}

// FuzzFromFormula runs the whole converter on every formula the fuzzer
// finds, in both forms: the output is exactly equivalent and uses only the
// allowed operators, or the input is refused exactly when classify says
// its language is not stutter-invariant star-free.
func FuzzFromFormula(f *testing.F) {
	for _, seed := range fuzzSeeds {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		g, err := ltl.ParseFile("fuzz.ltl", []byte(src))
		if err != nil || g.DAGSize() > 14 || len(g.Alphabet()) > 3 {
			return
		}
		for _, h := range g.Nodes() {
			if h.Op == ltl.OpPredicate && h.Pred.Kind == brasp.Mid {
				return
			}
		}
		d, err := exact.FormulaDFA(nil, g)
		if err != nil {
			return // a limit
		}
		c, err := automata.Classify(nil, d)
		if err != nil {
			return
		}
		for _, m := range forms {
			out, err := nonstrict.FromFormula(nil, g, nonstrict.Options{Masks: m})
			var na *nonstrict.NotApplicableError
			if errors.As(err, &na) != !(c.StarFree && c.StutterInvariant) {
				t.Fatalf("%s --masks %s: %v, but classify says star-free %v, stutter-invariant %v", src, m, err, c.StarFree, c.StutterInvariant)
			}
			if err != nil {
				continue
			}
			if err := nonstrict.CheckFormula(out, m); err != nil {
				t.Fatal(err)
			}
			od, err := exact.FormulaDFA(nil, out)
			if err != nil {
				t.Fatal(err)
			}
			checkEquivalent(t, src+" --masks "+m.String(), d, od)
		}
	})
}

var fuzzSeeds = []string{
	"alphabet a b\na since b",
	"alphabet a b\n(a S b) & first",
	"alphabet a b\nO(b & Y O a)",
	"alphabet a b c\nX(a until c) | Z last",
	"alphabet a b\nN(b U a) -> H(a <-> Y b)",
	"alphabet a b\nMOD_1_2 & a",
	"alphabet a\nG(a since a)",
	"alphabet a b\nb & O(a & first)",
}
