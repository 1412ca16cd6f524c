package ltl

import (
	"fmt"
	"unicode/utf8"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/internal/tracetable"
)

// maxLabel is the longest subformula written out in full as a table label;
// longer ones are abbreviated to their operator and operand rows.
const maxLabel = 48

// Rows returns, for every distinct subformula of f except constants, in
// topological order (f last), a label and its truth value at every position
// of w: the LTL counterpart of the paper's Figure-2 table. A subformula that
// prints longer than 48 characters is labelled by its row number, operator
// and operand rows, as in "[7] = [3] since [6]".
func Rows(f *Formula, w []int) (labels []string, values [][]bool) {
	tr := Evaluate(f, w)
	row := map[*Formula]int{}
	for _, g := range f.Nodes() {
		if g.Op == OpTrue || g.Op == OpFalse {
			continue
		}
		label := ""
		if g.TreeSize() <= maxLabel {
			label = Format(g)
		}
		if label == "" || utf8.RuneCountInString(label) > maxLabel {
			ref := func(x *Formula) string {
				if k, ok := row[x]; ok {
					return fmt.Sprintf("[%d]", k+1)
				}
				return Format(x) // a constant
			}
			if g.Op.Arity() == 1 {
				label = fmt.Sprintf("[%d] = %s %s", len(labels)+1, g.Op, ref(g.X))
			} else {
				label = fmt.Sprintf("[%d] = %s %s %s", len(labels)+1, ref(g.X), g.Op, ref(g.Y))
			}
		}
		row[g] = len(labels)
		labels = append(labels, label)
		v := make([]bool, len(w))
		for i := range w {
			v[i] = tr.Value(g, i)
		}
		values = append(values, v)
	}
	return labels, values
}

// FormatTable prints Rows as a table: a header row with the input symbols,
// then one row per subformula with 0 or 1 at each position (the layout of
// brasp.FormatTable).
func FormatTable(f *Formula, w []int) string {
	labels, values := Rows(f, w)
	syms := make([]string, len(w))
	for i, s := range w {
		syms[i] = "?"
		if s >= 0 && s < len(f.Alphabet()) {
			syms[i] = alphabet.Quote(f.Alphabet()[s])
		}
	}
	tb := tracetable.New(syms)
	for k, label := range labels {
		tb.Bits(label, len(w), func(i int) bool { return values[k][i] })
	}
	return tb.String()
}
