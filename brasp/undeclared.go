package brasp

import (
	"fmt"
	"strings"

	"github.com/brasp-dev/brasp/alphabet"
)

// NoSymbol is the symbol of a word position holding a character the program
// does not declare: every symbol vector Q_σ is 0 there (position predicates
// keep their values). Run, Accepts and Transduce take it like any symbol.
const NoSymbol = -1

// ParseWordUndeclared reads a word as the B-RASP web simulator does: after
// trimming surrounding white space, each character is one symbol, and a
// character that is not in a becomes NoSymbol. undeclared lists those
// characters once each, in order of first appearance. It applies to
// alphabets of one-character symbols only (the simulator's).
func ParseWordUndeclared(a alphabet.Alphabet, s string) (w []int, undeclared []string, err error) {
	if !a.SingleChar() {
		return nil, nil, fmt.Errorf("reading undeclared characters as all-zero symbols needs an alphabet of one-character symbols, as in the simulator; {%s} has longer ones", a)
	}
	seen := map[rune]bool{}
	for _, r := range strings.TrimSpace(s) {
		k := a.Index(string(r))
		if k < 0 {
			k = NoSymbol
			if !seen[r] {
				seen[r] = true
				undeclared = append(undeclared, string(r))
			}
		}
		w = append(w, k)
	}
	return w, undeclared, nil
}
