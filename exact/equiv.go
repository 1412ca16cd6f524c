package exact

import (
	"fmt"

	"github.com/brasp-dev/brasp/alphabet"
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
// alphabet returned by Merge (a's alphabet followed by b's new symbols).
func Equivalent(a, b *automata.DFA) (equal bool, word []int, aAccepts bool, err error) {
	x, y, err := Align(a, b)
	if err != nil {
		return false, nil, false, err
	}
	d, err := automata.Compare(x, y, automata.SigmaPlus)
	if err != nil {
		return false, nil, false, err
	}
	if d == nil {
		return true, nil, false, nil
	}
	return false, d.Word, d.AcceptedByFirst, nil
}

// Merge returns a's alphabet followed by the symbols of b's alphabet that a's
// lacks: the alphabet Align puts both automata on.
func Merge(a, b alphabet.Alphabet) alphabet.Alphabet {
	out := append(alphabet.Alphabet(nil), a...)
	for _, s := range b {
		if a.Index(s) < 0 {
			out = append(out, s)
		}
	}
	return out
}

// Align returns copies of a and b over the merged alphabet Merge(a, b):
// transitions on a symbol an automaton did not know lead to a new rejecting
// sink.
func Align(a, b *automata.DFA) (*automata.DFA, *automata.DFA, error) {
	m := Merge(a.Alphabet, b.Alphabet)
	x, err := Extend(a, m)
	if err != nil {
		return nil, nil, err
	}
	y, err := Extend(b, m)
	if err != nil {
		return nil, nil, err
	}
	return x, y, nil
}

// Extend returns d over the alphabet to, which must contain every symbol of
// d's alphabet: known symbols keep their transitions (reordered), new ones go
// to a rejecting sink.
func Extend(d *automata.DFA, to alphabet.Alphabet) (*automata.DFA, error) {
	if d.Alphabet.Equal(to) {
		return d, nil
	}
	from := make([]int, len(to)) // symbol of to → symbol of d, or -1
	known := 0
	for k, s := range to {
		from[k] = d.Alphabet.Index(s)
		if from[k] >= 0 {
			known++
		}
	}
	if known != len(d.Alphabet) {
		return nil, fmt.Errorf("alphabet {%s} does not contain {%s}", to, d.Alphabet)
	}
	n := d.NumStates()
	e := &automata.DFA{Alphabet: append(alphabet.Alphabet(nil), to...), Start: d.Start}
	sink := -1
	if known < len(to) {
		sink = n
	}
	for q := range n {
		row := make([]int, len(to))
		for k := range to {
			if from[k] >= 0 {
				row[k] = d.Delta[q][from[k]]
			} else {
				row[k] = sink
			}
		}
		e.Delta = append(e.Delta, row)
		e.Accept = append(e.Accept, d.Accept[q])
		e.States = append(e.States, d.States[q])
	}
	if sink >= 0 {
		taken := map[string]bool{}
		for _, s := range d.States {
			taken[s] = true
		}
		name := "sink"
		for k := 1; taken[name]; k++ {
			name = fmt.Sprintf("sink%d", k)
		}
		row := make([]int, len(to))
		for k := range row {
			row[k] = sink
		}
		e.Delta = append(e.Delta, row)
		e.Accept = append(e.Accept, false)
		e.States = append(e.States, name)
	}
	return e, nil
}
