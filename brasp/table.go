package brasp

import (
	"strings"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/internal/tracetable"
)

// FormatTable prints a trace in the layout of the paper's Figure 2: a header
// row with the input symbols (for a program over propositions, the set of
// propositions true at each step), then one row per vector with its value
// (0 or 1) at each position. A transducer's trace ends with an output row:
// the output symbol at each position, "-" where no output vector is 1 and
// "*" where several are.
func FormatTable(t *Trace) string {
	p := t.Prog
	n := t.N()
	var syms []string
	for _, s := range t.Word {
		syms = append(syms, alphabet.Quote(p.Alphabet[s]))
	}
	for _, s := range t.Steps {
		var on []string
		for k, name := range p.Props {
			if StepHas(s, k) {
				on = append(on, QuoteName(name))
			}
		}
		syms = append(syms, "{"+strings.Join(on, ",")+"}")
	}
	tb := tracetable.New(syms)
	for k, v := range p.Vectors {
		tb.Bits(QuoteName(v.Name), n, func(i int) bool { return t.Value(k, i) })
	}
	if p.IsTransducer() {
		out := make([]string, n)
		for i := range n {
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
			out[i] = sym
		}
		tb.Row("output", out)
	}
	return tb.String()
}
