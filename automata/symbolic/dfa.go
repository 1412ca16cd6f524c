// Package symbolic holds deterministic finite automata over valuations of
// atomic propositions whose transitions are decision diagrams (package
// bdd), as in MONA: each state's transition function is one diagram over
// the propositions whose leaves are the successor states. A guard — the
// set of valuations leading from one state to another — is the set of
// paths to one leaf, so an automaton over 30 propositions stores a few
// diagram nodes per state, not 2^30 letters, and states with many
// successors share the diagram rather than listing one guard per edge.
//
// Minimize is Moore's partition refinement on diagrams: a state's
// signature is its class and its diagram with every leaf replaced by the
// leaf of its successor's class, canonical because diagrams are. Compare
// explores the product by walking two diagrams together, breadth-first,
// and returns a shortest trace on which the automata differ.
package symbolic

import (
	"fmt"

	"github.com/brasp-dev/brasp/bdd"
)

// DFA is a complete deterministic automaton over the valuations of Props.
// Variables 0..len(Props)-1 of M are the propositions; Next[q] is state q's
// transition diagram: reading a valuation from its root along the
// propositions ends at a node testing no proposition (a leaf: a terminal or
// a node over M's other variables), and Leaf maps that node to the
// successor state.
type DFA struct {
	Props  []string
	M      *bdd.Manager
	Start  int
	Accept []bool
	Next   []bdd.Node
	Leaf   map[bdd.Node]int
}

// NumStates is the number of states.
func (d *DFA) NumStates() int { return len(d.Next) }

func (d *DFA) isLeaf(x bdd.Node) bool { return d.M.Level(x) >= len(d.Props) }

// Step is the successor of q on the valuation val (val(i): proposition i).
func (d *DFA) Step(q int, val func(int) bool) int {
	x := d.Next[q]
	for !d.isLeaf(x) {
		if val(d.M.Level(x)) {
			x = d.M.High(x)
		} else {
			x = d.M.Low(x)
		}
	}
	return d.Leaf[x]
}

// Accepts reports whether d accepts the trace of valuations.
func (d *DFA) Accepts(trace [][]bool) bool {
	q := d.Start
	for _, v := range trace {
		q = d.Step(q, func(i int) bool { return v[i] })
	}
	return d.Accept[q]
}

// Edge is the transition to To on every valuation satisfying Guard.
type Edge struct {
	Guard bdd.Node
	To    int
}

// Edges lists q's transitions, one per successor, with the guard of the
// paths leading there, in order of first reach along the diagram
// (low children first).
func (d *DFA) Edges(q int) []Edge {
	m := d.M
	k := len(d.Props)
	root := d.Next[q]
	if d.isLeaf(root) {
		return []Edge{{bdd.True, d.Leaf[root]}}
	}
	guard := map[bdd.Node]bdd.Node{root: bdd.True}
	levels := make([][]bdd.Node, k)
	levels[m.Level(root)] = append(levels[m.Level(root)], root)
	var out []Edge
	idx := map[int]int{}
	reach := func(child, g bdd.Node) {
		if lv := m.Level(child); lv < k {
			if old, ok := guard[child]; ok {
				guard[child] = m.Or(old, g)
				return
			}
			guard[child] = g
			levels[lv] = append(levels[lv], child)
			return
		}
		to := d.Leaf[child]
		if i, ok := idx[to]; ok {
			out[i].Guard = m.Or(out[i].Guard, g)
			return
		}
		idx[to] = len(out)
		out = append(out, Edge{g, to})
	}
	for lv := range k {
		for _, n := range levels[lv] {
			g := guard[n]
			reach(m.Low(n), m.And(g, m.NVar(lv)))
			reach(m.High(n), m.And(g, m.Var(lv)))
		}
	}
	return out
}

// Successors lists the states q moves to on some valuation, in order of
// first reach along the diagram (low children first).
func (d *DFA) Successors(q int) []int {
	var out []int
	var seen bdd.Marks
	for _, x := range leaves(d.M, len(d.Props), d.Next[q], &seen) {
		out = append(out, d.Leaf[x])
	}
	return out
}

// Validate checks the structure: a start state and acceptance flag per
// state, and every leaf of every diagram a state.
func (d *DFA) Validate() error {
	n := len(d.Next)
	if n == 0 || len(d.Accept) != n || d.Start < 0 || d.Start >= n {
		return fmt.Errorf("symbolic automaton: %d states, %d acceptance flags, start %d", n, len(d.Accept), d.Start)
	}
	for q := range n {
		var bad error
		seen := map[bdd.Node]bool{}
		var walk func(bdd.Node)
		walk = func(x bdd.Node) {
			if seen[x] || bad != nil {
				return
			}
			seen[x] = true
			if d.isLeaf(x) {
				if to, ok := d.Leaf[x]; !ok || to < 0 || to >= n {
					bad = fmt.Errorf("state %d: a diagram leaf is no state", q)
				}
				return
			}
			walk(d.M.Low(x))
			walk(d.M.High(x))
		}
		walk(d.Next[q])
		if bad != nil {
			return bad
		}
	}
	return d.M.Err()
}

// IsEmpty reports whether d accepts no trace (every state rejects; d's
// states are taken to be reachable, as Minimize and the constructions
// leave them).
func IsEmpty(d *DFA) bool {
	for _, a := range d.Accept {
		if a {
			return false
		}
	}
	return true
}

// IsFull reports whether d accepts every non-empty trace: every state but
// the start accepts and no transition returns to the start (d's states are
// taken to be reachable).
func IsFull(d *DFA) bool {
	for q, a := range d.Accept {
		if !a && q != d.Start {
			return false
		}
	}
	for q := range d.Next {
		for _, s := range d.Successors(q) {
			if s == d.Start {
				return false
			}
		}
	}
	return true
}
