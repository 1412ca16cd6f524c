package brasp

import (
	"strings"
	"unicode/utf8"

	"github.com/brasp-dev/brasp/alphabet"
)

// FormatTable prints a trace in the layout of the paper's Figure 2: a header
// row with the input symbols, then one row per vector with its value (0 or 1)
// at each position. A transducer's trace ends with an output row.
func FormatTable(t *Trace) string {
	p := t.Prog
	n := t.N()
	cells := make([][]string, 0, len(p.Vectors)+2)
	row := []string{"input"}
	for _, s := range t.Word {
		row = append(row, alphabet.Quote(p.Alphabet[s]))
	}
	for _, s := range t.Steps {
		var on []string
		for k, name := range p.Props {
			if StepHas(s, k) {
				on = append(on, QuoteName(name))
			}
		}
		row = append(row, "{"+strings.Join(on, ",")+"}")
	}
	cells = append(cells, row)
	for k, v := range p.Vectors {
		row := []string{QuoteName(v.Name)}
		for i := 0; i < n; i++ {
			if t.Value(k, i) {
				row = append(row, "1")
			} else {
				row = append(row, "0")
			}
		}
		cells = append(cells, row)
	}
	if p.IsTransducer() {
		row := []string{"output"}
		for i := 0; i < n; i++ {
			sym := "-"
			for k, v := range p.Output.Vectors {
				if t.Value(v, i) {
					if sym != "-" {
						sym = "*"
						break
					}
					sym = alphabet.Quote(p.Output.Symbols[k])
				}
			}
			row = append(row, sym)
		}
		cells = append(cells, row)
	}
	width := make([]int, n+1)
	for _, r := range cells {
		for c, s := range r {
			width[c] = max(width[c], utf8.RuneCountInString(s))
		}
	}
	var b strings.Builder
	for _, r := range cells {
		for c, s := range r {
			if c > 0 {
				b.WriteString(" ")
			}
			pad := width[c] - utf8.RuneCountInString(s)
			if c == 0 {
				b.WriteString(s)
				if len(r) > 1 {
					b.WriteString(strings.Repeat(" ", pad))
				}
			} else {
				b.WriteString(strings.Repeat(" ", pad))
				b.WriteString(s)
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
