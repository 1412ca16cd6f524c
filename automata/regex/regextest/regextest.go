// Package regextest gives tests the minimal DFA of a regular expression
// written inline, the reference language many exact-equivalence tests
// compare a construction with. It is a package of its own because
// internal/testkit, which automata/regex's own tests use, cannot import
// automata/regex.
package regextest

import (
	"testing"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/regex"
)

// DFA returns the minimal DFA of expr (the syntax of package regex: . for
// any symbol, & intersection, ~ complement) over the alphabet alpha, written
// as a .re file's alphabet line writes it (names separated by spaces,
// quoted when they are not letters or digits: `a b "#"`). A parse error
// or a refused construction fails the test.
func DFA(t testing.TB, alpha, expr string) *automata.DFA {
	t.Helper()
	r, err := regex.Parse("lang.re", []byte("alphabet "+alpha+"\n"+expr))
	if err != nil {
		t.Fatalf("regular expression %q over %s: %v", expr, alpha, err)
	}
	d, err := r.DFA(nil)
	if err != nil {
		t.Fatalf("regular expression %q over %s: %v", expr, alpha, err)
	}
	return d
}
