// Package tracetable lays out a trace as the paper's Figure 2 does: a
// header row "input" with the symbols of the word, then one row per
// vector (B-RASP) or subformula (LTL) with its value at each position. The
// first column is left-aligned, the others right-aligned, one space apart;
// a row with only its label has no trailing blanks. brasp.FormatTable and
// ltl.FormatTable both write through it, so the two tables line up the same
// way.
package tracetable

import (
	"strings"
	"unicode/utf8"
)

// Table is a Figure-2 table being filled row by row.
type Table struct {
	rows [][]string
}

// New starts a table whose header row is "input" followed by the symbols
// (already quoted as they should appear).
func New(symbols []string) *Table {
	return &Table{rows: [][]string{append([]string{"input"}, symbols...)}}
}

// Row adds a row: a label and one cell per position.
func (t *Table) Row(label string, cells []string) {
	t.rows = append(t.rows, append([]string{label}, cells...))
}

// Bits adds a row with 1 or 0 at each of n positions, as value says.
func (t *Table) Bits(label string, n int, value func(i int) bool) {
	r := make([]string, 1, n+1)
	r[0] = label
	for i := range n {
		if value(i) {
			r = append(r, "1")
		} else {
			r = append(r, "0")
		}
	}
	t.rows = append(t.rows, r)
}

// String writes the table, one line per row, columns padded to their widest
// cell (counted in runes).
func (t *Table) String() string {
	var width []int
	for _, r := range t.rows {
		for c, s := range r {
			if c == len(width) {
				width = append(width, 0)
			}
			width[c] = max(width[c], utf8.RuneCountInString(s))
		}
	}
	var b strings.Builder
	for _, r := range t.rows {
		for c, s := range r {
			pad := strings.Repeat(" ", width[c]-utf8.RuneCountInString(s))
			switch {
			case c == 0 && len(r) > 1:
				b.WriteString(s + pad)
			case c == 0:
				b.WriteString(s)
			default:
				b.WriteString(" " + pad + s)
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
