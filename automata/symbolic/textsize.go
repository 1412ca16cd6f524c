package symbolic

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/brasp-dev/brasp/bdd"
	"github.com/brasp-dev/brasp/budget"
)

// maxGuardText bounds the text of Format and DOT, whose guards are
// disjunctions of the paths of their diagrams: a guard over many
// propositions can have exponentially many paths, where FormatDiagram
// shares the diagrams and stays as small as the automaton.
var maxGuardText = budget.Define("guard-text-bytes", 256<<20, "bytes",
	"text of a symbolic DFA written with guards (the .bdd format shares diagrams instead)")

// FormatGuards is Format within the budget: the text is refused under the
// guard-text-bytes limit, before any of it is written when the number of
// edges alone puts it over (guardTextFloor), and otherwise as soon as what
// is written passes the limit; the work is charged to the budget as the
// text grows, so a cancelled budget stops it within a few thousand bytes.
func FormatGuards(b *budget.Budget, d *DFA) ([]byte, error) { return guardText(b, d, false) }

// FormatDOT is DOT within the budget, as FormatGuards.
func FormatDOT(b *budget.Budget, d *DFA) ([]byte, error) { return guardText(b, d, true) }

// unlimited is a budget without a limit on the guard text.
var unlimited = budget.Settings{maxGuardText.Name: math.MaxInt64 / 2}

// guardText writes d's guard text (DOT's when dot is set).
func guardText(b *budget.Budget, d *DFA, dot bool) ([]byte, error) {
	limit := b.Max(maxGuardText)
	refuse := func(need int64) error {
		err := b.Check(maxGuardText, need, "the guard text of the automaton")
		if errors.Is(err, budget.ErrLimit) {
			err = fmt.Errorf("%w; a .bdd output file shares the decision diagrams instead", err)
		}
		return err
	}
	if need, err := guardTextFloor(b, d, limit); err != nil || need > limit {
		if err == nil {
			err = refuse(need)
		}
		return nil, err
	}
	lits := make([][]byte, 2*len(d.Props))
	for v, p := range d.Props {
		lits[2*v], lits[2*v+1] = []byte("!"+quoteProp(p)), []byte(quoteProp(p))
	}
	var buf, label []byte
	var head strings.Builder
	if dot {
		head.WriteString("digraph dfa {\n  rankdir=LR;\n  node [shape=circle];\n  init [shape=point];\n")
		for q := range d.NumStates() {
			shape := "circle"
			if d.Accept[q] {
				shape = "doublecircle"
			}
			head.WriteString("  " + strconv.Itoa(q) + " [shape=" + shape + "];\n")
		}
		head.WriteString("  init -> " + strconv.Itoa(d.Start) + ";\n")
	} else {
		writeHeader(&head, d)
	}
	buf = append(buf, head.String()...)
	g := newGuards(b, d)
	for q := range d.NumStates() {
		es, err := g.edges(q)
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			n := len(buf)
			if dot {
				buf = append(buf, "  "...)
				buf = strconv.AppendInt(buf, int64(q), 10)
				buf = append(buf, " -> "...)
				buf = strconv.AppendInt(buf, int64(e.to), 10)
				buf = append(buf, " [label="...)
				label = g.appendGuard(label[:0], e.g, lits)
				buf = strconv.AppendQuote(buf, string(label))
				buf = append(buf, "];\n"...)
			} else {
				buf = strconv.AppendInt(buf, int64(q), 10)
				buf = append(buf, ' ')
				buf = strconv.AppendInt(buf, int64(e.to), 10)
				buf = append(buf, ' ')
				buf = g.appendGuard(buf, e.g, lits)
				buf = append(buf, '\n')
			}
			if int64(len(buf)) > limit {
				return nil, refuse(int64(len(buf)))
			}
			if err := b.Step(int64(len(buf)-n)/16 + 1); err != nil {
				return nil, err
			}
		}
	}
	if dot {
		buf = append(buf, "}\n"...)
	}
	return buf, nil
}

// guardTextFloor is a lower bound on the guard text of d, from the number
// of edges of each state (the distinct leaves of its diagram) and the
// shortest line each can have; it stops counting once the bound passes
// limit. It costs a walk of each state's diagram, far less than the text
// (every path of a diagram is a cube of the text).
func guardTextFloor(b *budget.Budget, d *DFA, limit int64) (int64, error) {
	m := d.M
	var seen bdd.Marks
	var stack []bdd.Node
	need := int64(0)
	for q := range d.NumStates() {
		seen.Clear()
		edges := int64(0)
		stack = append(stack[:0], d.Next[q])
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !seen.Add(x) {
				continue
			}
			if d.isLeaf(x) {
				edges++
				continue
			}
			stack = append(stack, m.High(x), m.Low(x))
		}
		if err := b.Step(edges); err != nil {
			return 0, err
		}
		// "q t g\n": a target of one digit at least, and a guard of one
		// literal at least ("true" alone).
		guard := int64(1)
		if edges == 1 {
			guard = 4
		}
		need += edges * (int64(len(strconv.Itoa(q))) + 4 + guard)
		if need > limit {
			break
		}
	}
	return need, nil
}
