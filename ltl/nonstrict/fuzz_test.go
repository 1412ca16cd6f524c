package nonstrict_test

import (
	"errors"
	"testing"

	"github.com/brasp-dev/brasp/ltl"
	"github.com/brasp-dev/brasp/ltl/nonstrict"
)

// FuzzRewrite checks (★) of the package documentation on every formula the
// fuzzer finds: T(f) uses only non-strict operators and agrees with f on
// the destuttered word at every position of every short word.
func FuzzRewrite(f *testing.F) {
	for _, seed := range []string{
		"alphabet a b\na since b",
		"alphabet a b\n(a+b+)+ & first",
		"alphabet a b\nO(b & Y O a)",
		"alphabet a b c\nX(a until c) | Z last",
		"alphabet a b\nN(b U a) -> H(a <-> Y b)",
		"alphabet a b\nMOD_1_2 & a",
		"alphabet a\nG(a since a)",
	} {
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
