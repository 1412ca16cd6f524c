package exact

import (
	"github.com/brasp-dev/brasp/automata"
)

// Equivalent decides whether the DFAs a and b accept the same non-empty
// words. B-RASP programs, LTL formulas and transformers read only non-empty
// words, so the empty word is ignored on both sides (a DFA or regex that
// accepts ε is compared on Σ⁺).
//
// When they differ it returns a shortest word on which they disagree (first
// in short-lex order among the shortest) and whether a is the side that
// accepts it. Alphabets that list the same symbols in another order are
// aligned; symbols that only one side knows extend the other side's alphabet
// and lead it to a rejecting sink (a word with a symbol outside an alphabet
// is not in that language). The word's symbols index into the merged
// alphabet automata.MergeAlphabets(a.Alphabet, b.Alphabet) (a's alphabet
// followed by b's new symbols).
//
// It is automata.CompareAligned on Σ⁺ with the default limits, in the form
// tests and examples use; `brasp equiv` calls CompareAligned with its own
// budget.
func Equivalent(a, b *automata.DFA) (equal bool, word []int, aAccepts bool, err error) {
	d, err := automata.CompareAligned(nil, a, b, automata.SigmaPlus)
	if err != nil {
		return false, nil, false, err
	}
	if d == nil {
		return true, nil, false, nil
	}
	return false, d.Word, d.AcceptedByFirst, nil
}
