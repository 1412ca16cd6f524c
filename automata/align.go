package automata

import (
	"fmt"

	"github.com/brasp-dev/brasp/alphabet"
)

// MergeAlphabets returns a followed by the symbols of b that a lacks: the
// alphabet Align puts two automata on, and the one a counterexample of
// CompareAligned is written in.
func MergeAlphabets(a, b alphabet.Alphabet) alphabet.Alphabet {
	out := append(alphabet.Alphabet(nil), a...)
	inA := a.Indexer()
	for _, s := range b {
		if inA(s) < 0 {
			out = append(out, s)
		}
	}
	return out
}

// Align returns copies of a and b over the merged alphabet
// MergeAlphabets(a, b): transitions on a symbol an automaton did not know
// lead to a new rejecting sink (a word with a symbol outside an alphabet is
// not in that language). An automaton already over the merged alphabet is
// returned as it is.
func Align(a, b *DFA) (*DFA, *DFA, error) {
	m := MergeAlphabets(a.Alphabet, b.Alphabet)
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
func Extend(d *DFA, to alphabet.Alphabet) (*DFA, error) {
	if d.Alphabet.Equal(to) {
		return d, nil
	}
	from := make([]int, len(to)) // symbol of to → symbol of d, or -1
	known := 0
	symbol := d.Alphabet.Indexer()
	for k, s := range to {
		from[k] = symbol(s)
		if from[k] >= 0 {
			known++
		}
	}
	if known != len(d.Alphabet) {
		return nil, fmt.Errorf("alphabet {%s} does not contain {%s}", to, d.Alphabet)
	}
	n := d.NumStates()
	e := &DFA{Alphabet: append(alphabet.Alphabet(nil), to...), Start: d.Start}
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
