package regextest_test

import (
	"testing"

	"github.com/brasp-dev/brasp/automata/regex/regextest"
)

// TestDFA: the DFA reads the expression over the given alphabet (quoted
// symbols included) and is minimal.
func TestDFA(t *testing.T) {
	d := regextest.DFA(t, `a b "#"`, `(a|b)* "#" a*`)
	if len(d.Alphabet) != 3 || d.Alphabet[2] != "#" {
		t.Fatalf("alphabet %v, want a b #", d.Alphabet)
	}
	for _, c := range []struct {
		w    string
		want bool
	}{{"#", true}, {"ab#aa", true}, {"ab#b", false}, {"ab", false}, {"##", false}} {
		w, err := d.Alphabet.ParseWord(c.w)
		if err != nil {
			t.Fatal(err)
		}
		if got := d.Accepts(w); got != c.want {
			t.Errorf("%q: %v, want %v", c.w, got, c.want)
		}
	}
	// (a|b)* # a*: the states before #, after # reading a's, and dead.
	if n := d.NumStates(); n != 3 {
		t.Errorf("%d states, want 3 (minimal)", n)
	}
}
