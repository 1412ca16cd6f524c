// Package guarddfa reads back the text format in which brasp writes a
// symbolic DFA (symbolic.Format, what `brasp convert f.ltlf --to dfa`
// prints): a deterministic automaton over the valuations of atomic
// propositions whose edges carry guards.
//
//	propositions req grant
//	start 0
//	accept 1
//	0 1 !req | req & grant
//	0 2 req & !grant
//	1 1 !req | req & grant
//	1 2 req & !grant
//	2 2 !grant
//	2 1 grant
//
// The grammar, one item per line (# starts a comment):
//
//	line  = "propositions" {prop} | "start" state | "accept" {state}
//	      | state state guard
//	      | "node" N prop ref ref | "state" state ref
//	ref   = "n" N | "s" state
//	guard = "true" | "false" | cube {"|" cube}
//	cube  = literal {"&" literal}
//	literal = ["!"] prop
//
// A prop is an identifier (a letter or _, then letters, digits, _ and .) or
// a double-quoted string with Go's escapes. The guards of the edges out of
// a state must be disjoint and cover every valuation: the automaton is
// complete and deterministic, as Format writes it, and a file that is not
// is refused with the line of the overlapping edge or the state that lacks
// one. The node and state lines are the .bdd form that
// symbolic.FormatDiagram writes: shared diagram nodes (numbered 0, 1, … in
// order, each testing a proposition, children for false and true), and a
// state's diagram by its root; a state has edge lines or a state line.
// Symbolic builds the decision diagrams over any list of propositions
// that includes the file's (so that equiv can compare it over the union of
// two inputs' propositions) and minimises.
package guarddfa

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/bdd"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/source"
)

// MaxStates bounds the state numbers a file may use.
const MaxStates = 1 << 24

// Automaton is a parsed guard-format DFA, before its guards are decision
// diagrams.
type Automaton struct {
	File   string
	Props  []string
	Start  int
	Accept []bool
	Edges  [][]Edge // by source state
	// Nodes and Roots are the shared diagrams of the .bdd form
	// (symbolic.FormatDiagram): node lines, and the root of each state
	// given by a state line (a state has edges or a root, not both).
	Nodes []Node
	Roots map[int]Ref
	// named is where each state is first named, for the message about a
	// state without edges.
	named []source.Pos
}

// Edge is one edge line: its target, its guard as a disjunction of cubes
// (nil: false; one empty cube: true) and the line's position.
type Edge struct {
	To    int
	Guard [][]Literal
	Pos   source.Pos
}

// Node is one node line: the proposition it tests and its children for
// that proposition false and true.
type Node struct {
	Prop   int
	Lo, Hi Ref
}

// Ref is a child or root in the .bdd form: node Index (nN) or the leaf of
// state Index (sN).
type Ref struct {
	Node  bool
	Index int
}

// Literal is a proposition (an index into Automaton.Props) or its negation.
type Literal struct {
	Prop  int
	Value bool
}

// Looks reports whether data is in the guard format: its first line that
// is not blank or a comment declares the propositions.
func Looks(data []byte) bool {
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte("\n"))
		data = rest
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		f := bytes.Fields(line)
		return string(f[0]) == "propositions"
	}
	return false
}

// Parse reads the guard format. Errors are positioned (file:line:col) and
// capped as every parser's are.
func Parse(filename string, data []byte) (*Automaton, error) {
	p := &parser{a: &Automaton{File: filename, Start: -1}, file: filename, index: map[string]int{}}
	line := 0
	for len(data) > 0 {
		var text []byte
		text, data, _ = bytes.Cut(data, []byte("\n"))
		line++
		p.line(line, string(bytes.TrimRight(text, "\r")))
		if p.errs.Full() {
			break
		}
	}
	p.finish(source.Pos{Line: line + 1, Col: 1})
	if err := p.errs.Err(); err != nil {
		return nil, err
	}
	return p.a, nil
}

type parser struct {
	a        *Automaton
	file     string
	errs     source.ErrorList
	index    map[string]int
	sawProps bool
	sawStart bool
	accepts  []int
	pending  []pendingEdge
	maxState int
	statePos map[int]source.Pos
}

type pendingEdge struct {
	from int
	e    Edge
}

func (p *parser) errorf(pos source.Pos, format string, args ...any) {
	p.errs.Add(p.file, pos, format, args...)
}

// line reads one line.
func (p *parser) line(n int, text string) {
	toks, err := scan(text)
	if err != nil {
		p.errorf(source.Pos{Line: n, Col: err.col}, "%s", err.msg)
		// A propositions line with a bad name is still the propositions
		// line: the lines after it are not blamed for its absence.
		if f := strings.Fields(text); len(f) > 0 && f[0] == "propositions" && !p.sawProps {
			p.sawProps = true
			p.a.Props = []string{}
		}
		return
	}
	if len(toks) == 0 {
		return
	}
	pos := func(t token) source.Pos { return source.Pos{Line: n, Col: t.col} }
	head := toks[0]
	switch {
	case head.kind == tIdent && head.text == "propositions":
		if p.sawProps {
			p.errorf(pos(head), "a second propositions line")
			return
		}
		p.sawProps = true
		p.a.Props = []string{}
		for _, t := range toks[1:] {
			if t.kind != tIdent && t.kind != tQuoted {
				p.errorf(pos(t), "expected a proposition, found %s", t.describe())
				continue
			}
			if _, dup := p.index[t.text]; dup {
				p.errorf(pos(t), "proposition %s declared twice", strconv.Quote(t.text))
				continue
			}
			p.index[t.text] = len(p.a.Props)
			p.a.Props = append(p.a.Props, t.text)
		}
	case !p.sawProps:
		p.errorf(pos(head), "expected the propositions line first (propositions p q …)")
	case head.kind == tIdent && head.text == "start":
		if p.sawStart {
			p.errorf(pos(head), "a second start line")
			return
		}
		p.sawStart = true
		if len(toks) != 2 {
			p.errorf(pos(head), "expected one state after start")
			return
		}
		p.a.Start = p.state(toks[1], n)
	case head.kind == tIdent && head.text == "accept":
		for _, t := range toks[1:] {
			if q := p.state(t, n); q >= 0 {
				p.accepts = append(p.accepts, q)
			}
		}
	case head.kind == tNumber:
		if len(toks) < 3 {
			p.errorf(pos(head), "expected an edge: FROM TO GUARD")
			return
		}
		from, to := p.state(toks[0], n), p.state(toks[1], n)
		g, ok := p.guard(toks[2:], n)
		if from >= 0 && to >= 0 && ok {
			p.pending = append(p.pending, pendingEdge{from, Edge{To: to, Guard: g, Pos: pos(head)}})
		}
	case head.kind == tIdent && head.text == "node":
		if len(toks) != 5 || toks[1].kind != tNumber {
			p.errorf(pos(head), "expected a node line: node N PROP LOW HIGH")
			return
		}
		if k, err := strconv.Atoi(toks[1].text); err != nil || k != len(p.a.Nodes) {
			p.errorf(pos(toks[1]), "node %s: nodes are numbered 0, 1, … in order (want %d)", toks[1].text, len(p.a.Nodes))
			return
		}
		prop, ok := p.index[toks[2].text]
		if !ok || toks[2].kind != tIdent && toks[2].kind != tQuoted {
			p.errorf(pos(toks[2]), "%s is not declared on the propositions line", toks[2].describe())
			return
		}
		lo, ok1 := p.ref(toks[3], n)
		hi, ok2 := p.ref(toks[4], n)
		if ok1 && ok2 {
			p.a.Nodes = append(p.a.Nodes, Node{Prop: prop, Lo: lo, Hi: hi})
		}
	case head.kind == tIdent && head.text == "state":
		if len(toks) != 3 {
			p.errorf(pos(head), "expected a state line: state Q ROOT")
			return
		}
		q := p.state(toks[1], n)
		root, ok := p.ref(toks[2], n)
		if q < 0 || !ok {
			return
		}
		if p.a.Roots == nil {
			p.a.Roots = map[int]Ref{}
		}
		if _, dup := p.a.Roots[q]; dup {
			p.errorf(pos(head), "a second state line for state %d", q)
			return
		}
		p.a.Roots[q] = root
	default:
		p.errorf(pos(head), "expected a line starting with propositions, start, accept, node, state or a state number, found %s", head.describe())
	}
}

// ref reads a child or root: nN, a node already read, or sN, a state.
func (p *parser) ref(t token, line int) (Ref, bool) {
	pos := source.Pos{Line: line, Col: t.col}
	if t.kind == tIdent && len(t.text) > 1 && (t.text[0] == 'n' || t.text[0] == 's') {
		k, err := strconv.Atoi(t.text[1:])
		switch {
		case err != nil || k < 0:
		case t.text[0] == 'n' && k < len(p.a.Nodes):
			return Ref{Node: true, Index: k}, true
		case t.text[0] == 'n':
			p.errorf(pos, "%s: node %d is not defined before this line", t.text, k)
			return Ref{}, false
		default:
			q := p.state(token{kind: tNumber, text: t.text[1:], col: t.col + 1}, line)
			return Ref{Index: q}, q >= 0
		}
	}
	p.errorf(pos, "expected a node nN or a state sN, found %s", t.describe())
	return Ref{}, false
}

// state reads a state number and records where the state is first named.
func (p *parser) state(t token, line int) int {
	pos := source.Pos{Line: line, Col: t.col}
	n, err := strconv.Atoi(t.text)
	if t.kind != tNumber || err != nil || n < 0 || n >= MaxStates {
		p.errorf(pos, "%s is not a state number (0..%d)", t.describe(), MaxStates-1)
		return -1
	}
	if p.statePos == nil {
		p.statePos = map[int]source.Pos{}
	}
	if _, ok := p.statePos[n]; !ok {
		p.statePos[n] = pos
	}
	p.maxState = max(p.maxState, n)
	return n
}

// guard reads
//
//	guard = "true" | "false" | cube {"|" cube}
//	cube  = literal {"&" literal}
//	literal = ["!"] prop
func (p *parser) guard(toks []token, line int) ([][]Literal, bool) {
	pos := func(t token) source.Pos { return source.Pos{Line: line, Col: t.col} }
	if len(toks) == 1 && toks[0].kind == tIdent {
		switch toks[0].text {
		case "true":
			return [][]Literal{{}}, true
		case "false":
			return nil, true
		}
	}
	var cubes [][]Literal
	var cube []Literal
	i := 0
	for {
		neg := false
		if i < len(toks) && toks[i].kind == tNot {
			neg = true
			i++
		}
		if i >= len(toks) {
			p.errorf(pos(toks[len(toks)-1]), "expected a proposition at the end of the guard")
			return nil, false
		}
		t := toks[i]
		if t.kind != tIdent && t.kind != tQuoted {
			p.errorf(pos(t), "expected a proposition, found %s", t.describe())
			return nil, false
		}
		k, ok := p.index[t.text]
		if !ok {
			p.errorf(pos(t), "proposition %s is not declared on the propositions line", strconv.Quote(t.text))
			return nil, false
		}
		cube = append(cube, Literal{Prop: k, Value: !neg})
		i++
		if i == len(toks) {
			return append(cubes, cube), true
		}
		switch toks[i].kind {
		case tAnd:
		case tOr:
			cubes, cube = append(cubes, cube), nil
		default:
			p.errorf(pos(toks[i]), "expected & or | in the guard, found %s", toks[i].describe())
			return nil, false
		}
		i++
	}
}

// finish checks the whole file and lays out the edges by state.
func (p *parser) finish(end source.Pos) {
	if !p.sawProps {
		p.errorf(source.Pos{Line: 1, Col: 1}, "missing propositions line")
	}
	if !p.sawStart {
		p.errorf(end, "missing start line")
	}
	if p.errs.Len() > 0 {
		return
	}
	// Every state named must have edges, and the states must be numbered
	// without gaps: both checked on what was read, before anything is
	// allocated by the largest number (start 16777215 alone is one state,
	// not sixteen million).
	from := make(map[int]bool, len(p.statePos))
	for _, e := range p.pending {
		from[e.from] = true
	}
	for q := range p.a.Roots {
		if from[q] {
			p.errorf(p.statePos[q], "state %d has both edges and a state line", q)
		}
		from[q] = true
	}
	for q, pos := range p.statePos {
		if !from[q] {
			p.errorf(pos, "state %d has no edges (the guards out of every state must cover every valuation)", q)
		}
	}
	if p.errs.Len() > 0 {
		return
	}
	if len(p.statePos) != p.maxState+1 {
		missing := 0
		for p.statePos[missing] != (source.Pos{}) {
			missing++
		}
		p.errorf(p.statePos[p.maxState], "state %d is named but state %d is not: states are numbered 0, 1, … without gaps", p.maxState, missing)
		return
	}
	n := p.maxState + 1
	p.a.Accept = make([]bool, n)
	for _, q := range p.accepts {
		p.a.Accept[q] = true
	}
	p.a.Edges = make([][]Edge, n)
	for _, e := range p.pending {
		p.a.Edges[e.from] = append(p.a.Edges[e.from], e.e)
	}
	p.a.named = make([]source.Pos, n)
	for q, pos := range p.statePos {
		p.a.named[q] = pos
	}
}

// Symbolic builds the automaton's decision diagrams over props, a list of
// propositions that includes the file's (in any order), checks that every
// state's guards are disjoint and cover every valuation, and minimises.
func (a *Automaton) Symbolic(b *budget.Budget, props []string) (*symbolic.DFA, error) {
	at := make(map[string]int, len(props))
	for l, p := range props {
		at[p] = l
	}
	level := make([]int, len(a.Props))
	for k, name := range a.Props {
		l, ok := at[name]
		level[k] = l
		if !ok {
			return nil, fmt.Errorf("%s: proposition %s is not among %v", a.File, strconv.Quote(name), props)
		}
	}
	n := len(a.Edges)
	m := bdd.New(b, len(props))
	d := &symbolic.DFA{Props: append([]string(nil), props...), M: m, Start: a.Start, Accept: a.Accept,
		Next: make([]bdd.Node, n), Leaf: map[bdd.Node]int{}}
	for q := range n {
		d.Leaf[m.Terminal(q)] = q
	}
	// The shared diagrams of the .bdd form, node by node.
	nodes := make([]bdd.Node, len(a.Nodes))
	ref := func(r Ref) bdd.Node {
		if r.Node {
			return nodes[r.Index]
		}
		return m.Terminal(r.Index)
	}
	for k, nd := range a.Nodes {
		if err := b.Step(1); err != nil {
			return nil, err
		}
		nodes[k] = m.Ite(m.Var(level[nd.Prop]), ref(nd.Hi), ref(nd.Lo))
	}
	var errs source.ErrorList
	for q, edges := range a.Edges {
		if err := b.Step(int64(1 + len(edges))); err != nil {
			return nil, err
		}
		if root, ok := a.Roots[q]; ok {
			d.Next[q] = ref(root)
			continue
		}
		if len(edges) == 0 {
			errs.Add(a.File, a.named[q], "state %d has no edges (the guards out of every state must cover every valuation)", q)
			continue
		}
		covered := bdd.False
		next := m.Terminal(q) // replaced wherever a guard holds; checked to be everywhere
		for _, e := range edges {
			g := a.guardNode(m, level, e.Guard)
			if both := m.And(g, covered); both != bdd.False {
				errs.Add(a.File, e.Pos, "state %d: this guard overlaps an earlier edge's on %s", q, cube(m, props, both))
			}
			covered = m.Or(covered, g)
			next = m.Ite(g, m.Terminal(e.To), next)
		}
		if covered != bdd.True {
			errs.Add(a.File, edges[len(edges)-1].Pos, "state %d: no edge on %s (the guards out of a state must cover every valuation)", q, cube(m, props, m.Not(covered)))
		}
		d.Next[q] = next
	}
	if err := m.Err(); err != nil {
		return nil, err
	}
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return symbolic.Minimize(b, d)
}

// guardNode is the diagram of a guard, its propositions at level[prop].
// Each conjunction is built from its deepest literal up, and the
// conjunctions are joined deepest first: conjoining or joining in the
// written order rebuilt the diagram so far at every literal, quadratic in
// a guard over many propositions (p0 & p1 & … & p19999 ran for minutes).
func (a *Automaton) guardNode(m *bdd.Manager, level []int, g [][]Literal) bdd.Node {
	cubes := make([]bdd.Node, 0, len(g))
	var lits []bdd.Literal
	for _, c := range g {
		lits = lits[:0]
		for _, l := range c {
			lits = append(lits, bdd.Literal{Var: level[l.Prop], Value: l.Value})
		}
		slices.SortFunc(lits, func(x, y bdd.Literal) int { return y.Var - x.Var })
		y := bdd.True
		for i, l := range lits {
			if i > 0 && lits[i-1].Var == l.Var {
				if lits[i-1].Value != l.Value {
					y = bdd.False // p & !p
					break
				}
				continue
			}
			if l.Value {
				y = m.Mk(l.Var, bdd.False, y)
			} else {
				y = m.Mk(l.Var, y, bdd.False)
			}
		}
		cubes = append(cubes, y)
	}
	slices.SortStableFunc(cubes, func(x, y bdd.Node) int { return m.Level(y) - m.Level(x) })
	x := bdd.False
	for _, c := range cubes {
		x = m.Or(x, c)
	}
	return x
}

// cube shows one valuation class of the non-empty guard g as a conjunction
// of literals.
func cube(m *bdd.Manager, props []string, g bdd.Node) string {
	lits, _ := m.AnySat(g)
	if len(lits) == 0 {
		return "every valuation"
	}
	parts := make([]string, len(lits))
	for i, l := range lits {
		parts[i] = props[l.Var]
		if !l.Value {
			parts[i] = "!" + parts[i]
		}
	}
	return strings.Join(parts, " & ")
}
