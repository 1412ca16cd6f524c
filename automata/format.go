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
	b.WriteString("\n" + kwStart + " " + QuoteState(d.States[d.Start]) + "\n" + kwAccept)
	for q, acc := range d.Accept {
		if acc {
			b.WriteByte(' ')
			b.WriteString(QuoteState(d.States[q]))
		}
	}
	b.WriteByte('\n')
	// Each name quoted once: a table of n states over k symbols has n·k
	// lines.
	states := make([]string, len(d.States))
	for q, name := range d.States {
		states[q] = QuoteState(name)
	}
	symbols := make([]string, len(d.Alphabet))
	for a, s := range d.Alphabet {
		symbols[a] = alphabet.Quote(s)
	}
	// One growth of the builder, not a doubling series of copies.
	width := 0
	for _, name := range states {
		width += 2 * len(name)
	}
	width = width/max(1, len(states)) + 3 // two state names, two spaces, a newline
	symbolBytes := 0
	for _, name := range symbols {
		symbolBytes += len(name)
	}
	b.Grow(len(d.Delta)*(len(symbols)*width+symbolBytes) + 1)
	for q, row := range d.Delta {
		for a, r := range row {
			b.WriteString(states[q])
			b.WriteByte(' ')
			b.WriteString(symbols[a])
			b.WriteByte(' ')
			b.WriteString(states[r])
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// QuoteState writes a state name as the .dfa format does, quoting keywords so that they are not read
// as the start of an alphabet, start or accept line.
func QuoteState(s string) string {
	switch s {
	case kwAlphabet, kwStart, kwAccept:
		return strconv.Quote(s)
	}
	return alphabet.Quote(s)
}
