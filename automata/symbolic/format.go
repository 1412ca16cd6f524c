package symbolic

import (
	"context"
	"strconv"
	"strings"

	"github.com/brasp-dev/brasp/bdd"
	"github.com/brasp-dev/brasp/budget"
)

// Format writes d with one line per edge and guards as formulas:
//
//	propositions a b
//	start 0
//	accept 1
//	0 1 a & !b
//	0 0 !a | b
//	1 1 true
//
// States are numbers; an edge line is source, target and guard, the guard a
// disjunction of disjoint conjunctions of literals (the paths of its
// diagram), or true. Propositions that are not plain identifiers are
// double-quoted.
func Format(d *DFA) string {
	text, err := FormatGuards(budget.New(context.Background(), unlimited), d)
	if err != nil {
		panic("symbolic: Format without limits failed: " + err.Error())
	}
	return string(text)
}

func writeHeader(b *strings.Builder, d *DFA) {
	b.WriteString("propositions")
	for _, p := range d.Props {
		b.WriteString(" " + quoteProp(p))
	}
	b.WriteString("\nstart " + strconv.Itoa(d.Start) + "\naccept")
	for q, a := range d.Accept {
		if a {
			b.WriteString(" " + strconv.Itoa(q))
		}
	}
	b.WriteByte('\n')
}

// GuardString writes a guard over props as a disjunction of the disjoint
// cubes of its diagram.
func GuardString(m *bdd.Manager, props []string, g bdd.Node) string {
	switch g {
	case bdd.True:
		return "true"
	case bdd.False:
		return "false"
	}
	cubes, _ := m.Cubes(g, 1<<30)
	parts := make([]string, len(cubes))
	for i, c := range cubes {
		lits := make([]string, len(c))
		for j, l := range c {
			lits[j] = quoteProp(props[l.Var])
			if !l.Value {
				lits[j] = "!" + lits[j]
			}
		}
		parts[i] = strings.Join(lits, " & ")
	}
	return strings.Join(parts, " | ")
}

// FormatDiagram writes d with its transition diagrams shared, as MONA's
// -w output does: one line per diagram node and one per state.
//
//	propositions a b
//	start 0
//	accept 1
//	node 0 b s1 s0
//	node 1 a s0 n0
//	state 0 n1
//	state 1 s1
//
// A node line is the node's number, the proposition it tests, and its
// children for that proposition false and true; a child is a node nN or a
// state sN (the diagram's leaf for that state). A state line gives the
// root of the state's diagram. Nodes come before the nodes that use them.
func FormatDiagram(d *DFA) string {
	var b strings.Builder
	writeHeader(&b, d)
	k := len(d.Props)
	num := map[bdd.Node]int{}
	ref := func(x bdd.Node) string {
		if d.M.Level(x) >= k {
			return "s" + strconv.Itoa(d.Leaf[x])
		}
		return "n" + strconv.Itoa(num[x])
	}
	var walk func(bdd.Node)
	walk = func(x bdd.Node) {
		if d.M.Level(x) >= k {
			return
		}
		if _, ok := num[x]; ok {
			return
		}
		walk(d.M.Low(x))
		walk(d.M.High(x))
		num[x] = len(num)
		b.WriteString("node " + strconv.Itoa(num[x]) + " " + quoteProp(d.Props[d.M.Level(x)]) + " " +
			ref(d.M.Low(x)) + " " + ref(d.M.High(x)) + "\n")
	}
	for q := range d.NumStates() {
		walk(d.Next[q])
	}
	for q := range d.NumStates() {
		b.WriteString("state " + strconv.Itoa(q) + " " + ref(d.Next[q]) + "\n")
	}
	return b.String()
}

// DOT draws d for Graphviz, one arrow per edge labelled with its guard.
func DOT(d *DFA) string {
	text, err := FormatDOT(budget.New(context.Background(), unlimited), d)
	if err != nil {
		panic("symbolic: DOT without limits failed: " + err.Error())
	}
	return string(text)
}

func quoteProp(p string) string {
	bare := p != "" && p != "true" && p != "false" && p != "propositions" && p != "start" && p != "accept" &&
		p != "node" && p != "state"
	for i := 0; i < len(p) && bare; i++ {
		c := p[i]
		bare = c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '.')
	}
	if bare {
		return p
	}
	return strconv.Quote(p)
}
