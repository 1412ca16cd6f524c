// Package monadfa reads the minimal DFA that MONA (https://www.brics.dk/mona/)
// prints with -w, as a symbolic automaton (package automata/symbolic), so
// that MONA's result for an M2L-Str or WS1S formula over second-order
// variables can be compared with brasp's own constructions, LTLf formulas
// in particular.
//
// MONA's output names the free variables, then lists the transitions:
//
//	DFA for formula with free variables: req grant
//	Initial state: 0
//	Accepting states: 2
//	Rejecting states: 3
//	Don't-care states: 0 1
//	Automaton has 4 states and 6 BDD-nodes
//	Transitions:
//	State 0: XX -> state 1
//	State 1: 0X -> state 2
//	...
//
// where each transition's label gives one bit per free variable, in the
// order of the first line (X: either). Read as a trace, a free variable is
// a proposition true at the positions it contains, so a string of MONA
// symbols is a trace of valuations. MONA's initial state is a dummy that
// reads one symbol before the string (every transition out of it goes to
// the same state, which is the real start); don't-care states are
// rejecting. Everything else of MONA's output (its statistics, examples and
// counterexamples) is ignored.
package monadfa

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/bdd"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/source"
)

// header starts the automaton in MONA's -w output.
const header = "DFA for formula with free variables:"

// Looks reports whether data looks like MONA's -w output (its header is in
// the first 64 KiB).
func Looks(data []byte) bool {
	return bytes.Contains(data[:min(len(data), 1<<16)], []byte(header))
}

// Automaton is MONA's DFA as printed: its free variables, the real start
// state, acceptance, and per state its transitions.
type Automaton struct {
	Vars   []string
	Start  int
	Accept []bool
	Trans  [][]Edge
}

// Edge is one transition: Label has one of '0', '1', 'X' per variable.
type Edge struct {
	Label string
	To    int
}

// MaxStates bounds the states Parse accepts.
const MaxStates = 1 << 22

// Parse reads MONA's -w output. Errors are file:line:col.
func Parse(filename string, data []byte) (*Automaton, error) {
	var errs source.ErrorList
	a := &Automaton{Start: -1}
	initial, states := -1, -1
	var accepting []int
	type pending struct {
		from int
		e    Edge
		pos  source.Pos
	}
	var trs []pending
	seenHeader := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		pos := source.Pos{Line: line, Col: 1}
		bad := func(format string, args ...any) { errs.Add(filename, pos, format, args...) }
		number := func(s string) int {
			n, err := strconv.Atoi(s)
			if err != nil || n < 0 || n >= MaxStates {
				bad("%q is not a state number (0..%d)", s, MaxStates-1)
				return -1
			}
			return n
		}
		switch {
		case strings.HasPrefix(text, header):
			if seenHeader {
				bad("a second automaton")
				continue
			}
			seenHeader = true
			a.Vars = strings.Fields(strings.TrimPrefix(text, header))
			seen := map[string]bool{}
			for _, v := range a.Vars {
				if seen[v] {
					bad("free variable %s twice", v)
				}
				seen[v] = true
			}
		case !seenHeader:
			continue // MONA's progress report before the automaton
		case strings.HasPrefix(text, "Initial state:"):
			initial = number(strings.TrimSpace(strings.TrimPrefix(text, "Initial state:")))
		case strings.HasPrefix(text, "Accepting states:"):
			for _, s := range strings.Fields(strings.TrimPrefix(text, "Accepting states:")) {
				accepting = append(accepting, number(s))
			}
		case strings.HasPrefix(text, "Automaton has "):
			f := strings.Fields(text)
			if len(f) < 3 {
				bad("expected \"Automaton has N states\"")
				continue
			}
			states = number(f[2])
		case strings.HasPrefix(text, "State "):
			head, rest, ok1 := strings.Cut(strings.TrimPrefix(text, "State "), ":")
			label, to, ok2 := strings.Cut(rest, "-> state ")
			if !ok1 || !ok2 {
				bad("expected \"State N: LABEL -> state M\"")
				continue
			}
			label = strings.TrimSpace(label)
			if len(label) != len(a.Vars) || strings.Trim(label, "01X") != "" {
				bad("transition label %q: want one of 0, 1, X for each of the %d free variables", label, len(a.Vars))
				continue
			}
			trs = append(trs, pending{number(strings.TrimSpace(head)), Edge{label, number(strings.TrimSpace(to))}, pos})
		}
	}
	end := source.Pos{Line: line + 1, Col: 1}
	switch {
	case !seenHeader:
		errs.Add(filename, source.Pos{Line: 1, Col: 1}, "no automaton: expected MONA's -w output (a line %q)", header)
	case states <= 0:
		errs.Add(filename, end, "no line \"Automaton has N states\"")
	case initial < 0 || initial >= states:
		errs.Add(filename, end, "no initial state among the %d states", states)
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	a.Accept = make([]bool, states)
	a.Trans = make([][]Edge, states)
	for _, q := range accepting {
		if q >= states {
			errs.Add(filename, end, "accepting state %d is not one of the %d states", q, states)
			continue
		}
		if q >= 0 {
			a.Accept[q] = true
		}
	}
	for _, t := range trs {
		if t.from < 0 || t.from >= states || t.e.To < 0 || t.e.To >= states {
			errs.Add(filename, t.pos, "transition between states outside 0..%d", states-1)
			continue
		}
		a.Trans[t.from] = append(a.Trans[t.from], t.e)
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	for _, e := range a.Trans[initial] {
		if a.Start >= 0 && e.To != a.Start {
			return nil, fmt.Errorf("%s: MONA's initial state %d does not lead to one state (%d and %d)", filename, initial, a.Start, e.To)
		}
		a.Start = e.To
	}
	if a.Start < 0 {
		return nil, fmt.Errorf("%s: MONA's initial state %d has no transition", filename, initial)
	}
	return a, nil
}

// Symbolic builds the automaton over props, which must include every free
// variable (in any order; the others are propositions it ignores): one
// transition diagram per state, leaves the successor states. It fails if a
// state's transitions overlap with different targets or miss a valuation.
func (a *Automaton) Symbolic(b *budget.Budget, props []string) (*symbolic.DFA, error) {
	vars := make(map[string]int, len(a.Vars))
	for v, name := range a.Vars {
		vars[name] = v
	}
	track := make([]int, len(props)) // proposition level → variable index, or -1
	found := 0
	for l, p := range props {
		track[l] = -1
		if v, ok := vars[p]; ok {
			track[l] = v
			found++
		}
	}
	if found < len(a.Vars) {
		at := make(map[string]bool, len(props))
		for _, p := range props {
			at[p] = true
		}
		for _, v := range a.Vars {
			if !at[v] {
				return nil, fmt.Errorf("free variable %s is not among the propositions %v", v, props)
			}
		}
	}
	m := bdd.New(b, len(props))
	d := &symbolic.DFA{Props: append([]string(nil), props...), M: m, Start: a.Start, Accept: a.Accept,
		Next: make([]bdd.Node, len(a.Trans)), Leaf: map[bdd.Node]int{}}
	for q := range a.Trans {
		d.Leaf[m.Terminal(q)] = q
	}
	for q, edges := range a.Trans {
		x, err := diagram(b, m, track, edges)
		if err != nil {
			return nil, fmt.Errorf("state %d: %w", q, err)
		}
		d.Next[q] = x
	}
	if err := m.Err(); err != nil {
		return nil, err
	}
	return symbolic.Minimize(b, d)
}

// diagram builds the decision diagram of a state's edges: from each
// proposition level on, the edges whose labels allow the value taken at
// each level, down to one target. A level where every edge allows both
// values is skipped, and each (level, set of edges) is built once
// (memoised), so that a label such as XXX…X0 costs a node per level, not a
// split per level on every path.
func diagram(b *budget.Budget, m *bdd.Manager, track []int, edges []Edge) (bdd.Node, error) {
	all := make([]int32, len(edges))
	for k := range all {
		all[k] = int32(k)
	}
	g := &differ{b: b, m: m, track: track, edges: edges, memo: map[string]bdd.Node{}}
	return g.build(0, all)
}

type differ struct {
	b     *budget.Budget
	m     *bdd.Manager
	track []int
	edges []Edge
	memo  map[string]bdd.Node
	key   []byte
}

func (g *differ) build(level int, set []int32) (bdd.Node, error) {
	if err := g.b.Step(int64(len(set))); err != nil {
		return 0, err
	}
	if len(set) == 0 {
		return 0, fmt.Errorf("no transition on some valuation")
	}
	edge := func(k int32) Edge { return g.edges[k] }
	track := g.track
	// Skip the levels that split nothing: no variable, or every edge X.
	for level < len(track) {
		v := track[level]
		if v >= 0 && !slices.ContainsFunc(set, func(k int32) bool { return edge(k).Label[v] != 'X' }) {
			v = -1
		}
		if v >= 0 {
			break
		}
		level++
	}
	same := !slices.ContainsFunc(set, func(k int32) bool { return edge(k).To != edge(set[0]).To })
	if level == len(track) {
		if same {
			return g.m.Terminal(edge(set[0]).To), nil
		}
		other := set[slices.IndexFunc(set, func(k int32) bool { return edge(k).To != edge(set[0]).To })]
		return 0, fmt.Errorf("transitions to states %d and %d on the same valuation", edge(set[0]).To, edge(other).To)
	}
	// One target and one edge that takes every remaining valuation: a
	// leaf.
	if same && slices.ContainsFunc(set, func(k int32) bool {
		for _, v := range track[level:] {
			if v >= 0 && edge(k).Label[v] != 'X' {
				return false
			}
		}
		return true
	}) {
		return g.m.Terminal(edge(set[0]).To), nil
	}
	g.key = binary.AppendUvarint(g.key[:0], uint64(level))
	for _, k := range set {
		g.key = binary.AppendUvarint(g.key, uint64(k))
	}
	if x, ok := g.memo[string(g.key)]; ok {
		return x, nil
	}
	key := string(g.key)
	v := track[level]
	var lo, hi []int32
	for _, k := range set {
		if edge(k).Label[v] != '1' {
			lo = append(lo, k)
		}
		if edge(k).Label[v] != '0' {
			hi = append(hi, k)
		}
	}
	l, err := g.build(level+1, lo)
	if err != nil {
		return 0, err
	}
	h, err := g.build(level+1, hi)
	if err != nil {
		return 0, err
	}
	x := l
	if l != h {
		x = g.m.Mk(level, l, h)
	}
	g.memo[key] = x
	return x, nil
}
