package ltl

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/brasp-dev/brasp/alphabet"
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
// then one row per subformula with 0 or 1 at each position.
func FormatTable(f *Formula, w []int) string {
	labels, values := Rows(f, w)
	cells := [][]string{{"input"}}
	for _, s := range w {
		sym := "?"
		if s >= 0 && s < len(f.Alphabet()) {
			sym = alphabet.Quote(f.Alphabet()[s])
		}
		cells[0] = append(cells[0], sym)
	}
	for k, label := range labels {
		r := []string{label}
		for _, b := range values[k] {
			if b {
				r = append(r, "1")
			} else {
				r = append(r, "0")
			}
		}
		cells = append(cells, r)
	}
	width := make([]int, len(w)+1)
	for _, r := range cells {
		for c, s := range r {
			width[c] = max(width[c], utf8.RuneCountInString(s))
		}
	}
	var b strings.Builder
	for _, r := range cells {
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
