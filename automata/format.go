package automata

import (
	"strconv"
	"strings"

	"github.com/brasp-dev/brasp/alphabet"
)

// Format writes d in the `.dfa` text format: the alphabet, start and accept
// lines, then every transition in state order and symbol order. Parse reads
// the result back to an identical automaton (same names, numbering and
// transitions) whenever d is valid.
func Format(d *DFA) string {
	var b strings.Builder
	b.WriteString(kwAlphabet)
	for _, s := range d.Alphabet {
		b.WriteByte(' ')
		b.WriteString(alphabet.Quote(s))
	}
	b.WriteString("\n" + kwStart + " " + quoteState(d.States[d.Start]) + "\n" + kwAccept)
	for q, acc := range d.Accept {
		if acc {
			b.WriteByte(' ')
			b.WriteString(quoteState(d.States[q]))
		}
	}
	b.WriteByte('\n')
	for q, row := range d.Delta {
		for a, r := range row {
			b.WriteString(quoteState(d.States[q]) + " " + alphabet.Quote(d.Alphabet[a]) + " " + quoteState(d.States[r]) + "\n")
		}
	}
	return b.String()
}

// quoteState writes a state name, quoting keywords so that they are not read
// as the start of an alphabet, start or accept line.
func quoteState(s string) string {
	switch s {
	case kwAlphabet, kwStart, kwAccept:
		return strconv.Quote(s)
	}
	return alphabet.Quote(s)
}
