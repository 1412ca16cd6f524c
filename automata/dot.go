package automata

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// DOT writes d as a Graphviz digraph: accepting states are double circles, an
// arrow from an invisible node marks the start, and parallel transitions share
// one edge labelled with their symbols.
func DOT(d *DFA) string {
	var b strings.Builder
	b.WriteString("digraph dfa {\n  rankdir=LR;\n  __start [shape=point];\n")
	for q, name := range d.States {
		shape := "circle"
		if d.Accept[q] {
			shape = "doublecircle"
		}
		fmt.Fprintf(&b, "  s%d [label=%s, shape=%s];\n", q, strconv.Quote(name), shape)
	}
	fmt.Fprintf(&b, "  __start -> s%d;\n", d.Start)
	for q, row := range d.Delta {
		labels := map[int][]string{}
		for a, r := range row {
			labels[r] = append(labels[r], d.Alphabet[a])
		}
		targets := make([]int, 0, len(labels))
		for r := range labels {
			targets = append(targets, r)
		}
		sort.Ints(targets)
		for _, r := range targets {
			fmt.Fprintf(&b, "  s%d -> s%d [label=%s];\n", q, r, strconv.Quote(strings.Join(labels[r], ",")))
		}
	}
	b.WriteString("}\n")
	return b.String()
}
