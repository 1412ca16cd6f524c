package ltlf

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/bdd"
	"github.com/brasp-dev/brasp/budget"
)

// maxStates bounds the states ToDFA explores before minimising.
var maxStates = budget.Define("ltlf-states", 1<<22, "states",
	"states of the LTLf automaton before minimisation")

// ErrPastOverFuture: a past operator applied to a formula with a future
// operator, which ToDFA does not translate (Eval evaluates it).
var ErrPastOverFuture = fmt.Errorf("past operator over a future formula")

// ToDFA returns the minimal complete symbolic DFA accepting exactly the
// non-empty traces that satisfy f (the start state rejects: the empty trace
// is not a trace).
//
// The construction is formula progression on decision diagrams. One BDD
// variable per proposition (on top, so guards are the top of every
// diagram), then one "obligation" variable per temporal operator that
// looks ahead: X[!]φ and X φ give the obligations ⟨φ⟩ₛ and ⟨φ⟩ʷ ("there is a
// next step and φ holds there" / "if there is a next step, φ holds there"),
// and the fixpoint operators unfold one step as usual:
//
//	T(F φ)   = T(φ) ∨ ⟨F φ⟩ₛ          T(G φ)   = T(φ) ∧ ⟨G φ⟩ʷ
//	T(φ U ψ) = T(ψ) ∨ T(φ) ∧ ⟨φ U ψ⟩ₛ  T(φ W ψ) = T(ψ) ∨ T(φ) ∧ ⟨φ W ψ⟩ʷ
//	T(φ R ψ) = T(ψ) ∧ (T(φ) ∨ ⟨φ R ψ⟩ʷ) T(φ M ψ) = T(ψ) ∧ (T(φ) ∨ ⟨φ M ψ⟩ₛ)
//
// with Boolean operators as BDD operations and a proposition as its
// variable. T(φ) holds of a step's valuation and the obligations exactly
// when φ holds at that step given that the obligations hold from the next
// step on. A state is a Boolean function of obligations (a BDD, so equal
// functions are one state). Reading a step from state s substitutes T(φ)
// for every obligation ⟨φ⟩ in s; in the result the propositions are on top,
// and each path through them ends in a node over obligations alone: the
// successor, reached under the guard of the paths leading there. A state
// accepts when it holds with the strong obligations false and the weak ones
// true, which is what they mean on the empty rest of a trace. The start
// state is ⟨root⟩ₛ.
//
// Past operators over past-only formulas are carried in the state as the
// values they had at the previous step: Y φ and Z φ read the stored value
// of φ, O, H and S the stored value of themselves; one more variable per
// past operator (between the propositions and the obligations) records the
// value for the next step, fixed on every path by the step's valuation.
//
// The reachable states are finite (functions of finitely many
// obligations) but not always minimal: the result is minimised with
// symbolic.Minimize.
//
// The Boolean connectives at the top of the formula (above every temporal
// operator) are done compositionally, as MONA does: each temporal operand
// becomes its minimal DFA, and the connective is the minimised product of
// its operands' DFAs, so that a conjunction of many small specifications
// never builds the product of their unminimised automata. G, X[!] and X
// are distributed over ∧ and F over ∨ first, so that the conjunctions
// under them are done the same way.
func ToDFA(b *budget.Budget, f *Formula) (*symbolic.DFA, error) {
	// A copy, to which distributing G, X[!] and X over ∧ (and F over ∨)
	// adds nodes.
	g := *f
	g.Nodes = append([]Node(nil), f.Nodes...)
	g.index = nil
	c := &connectives{b: b, f: &g, done: map[int32]*symbolic.DFA{}, dist: map[int32]int32{}}
	d, err := c.dfa(f.Root)
	if err != nil || !f.EmptyTrace {
		return d, err
	}
	return symbolic.Minimize(b, WithEmptyTrace(f, d))
}

type builder struct {
	f     *Formula
	m     *bdd.Manager
	k     int     // propositions: variables 0..k-1
	past  []int32 // past-operator nodes, in node order
	pastV []int   // variable recording past[i]'s next value (k+i)
	prevV []int   // variable reading past[i]'s stored value (bottom)
	init  []bool  // past[i]'s stored value before the first step
	obl   map[oblKey]int
	oblOf []oblKey // by variable - firstObl
	first int      // first obligation variable
	t     []bdd.Node
}

type oblKey struct {
	node   int32
	strong bool
}

// ToDFAUnminimized is ToDFA without the final minimisation: the reachable
// progression states.
func ToDFAUnminimized(b *budget.Budget, f *Formula) (*symbolic.DFA, error) {
	bl := &builder{f: f, k: len(f.Props), obl: map[oblKey]int{}}
	// Which nodes are reachable, pure past, and need obligations.
	reach := make([]bool, len(f.Nodes))
	reach[f.Root] = true
	future := make([]bool, len(f.Nodes)) // the subformula contains a future temporal operator
	for i := len(f.Nodes) - 1; i >= 0; i-- {
		if !reach[i] {
			continue
		}
		n := f.Nodes[i]
		switch n.Op.Arity() {
		case 1:
			reach[n.A] = true
		case 2:
			reach[n.A], reach[n.B] = true, true
		}
	}
	var obls []oblKey
	addObl := func(k oblKey) {
		if _, ok := bl.obl[k]; !ok {
			bl.obl[k] = len(obls)
			obls = append(obls, k)
		}
	}
	addObl(oblKey{f.Root, true})
	for i, n := range f.Nodes {
		if !reach[i] {
			continue
		}
		if n.Op.Arity() >= 1 {
			future[i] = future[n.A]
		}
		if n.Op.Arity() == 2 {
			future[i] = future[i] || future[n.B]
		}
		switch n.Op {
		case Yesterday, WeakYesterday, Once, Historically, Since:
			if future[i] {
				return nil, fmt.Errorf("%w: %s (the automaton construction reads past operators over past-only formulas)",
					ErrPastOverFuture, f.NodeString(int32(i)))
			}
			bl.past = append(bl.past, int32(i))
			bl.init = append(bl.init, n.Op == WeakYesterday || n.Op == Historically)
		}
		if n.Op.Temporal() && !n.Op.Past() {
			future[i] = true
		}
	}
	// The obligations, the outermost first: their variables are then
	// ordered outside in, so that the diagrams of nested operators share
	// their inner parts (φ U (φ U … U ψ) makes T of each U the T of the one
	// inside plus a node, not a new diagram over every obligation inside).
	for i := len(f.Nodes) - 1; i >= 0; i-- {
		if !reach[i] {
			continue
		}
		switch n := f.Nodes[i]; n.Op {
		case Next:
			addObl(oblKey{n.A, true})
		case WeakNext:
			addObl(oblKey{n.A, false})
		case Finally, Until, StrongRelease:
			addObl(oblKey{int32(i), true})
		case Globally, Release, WeakUntil:
			addObl(oblKey{int32(i), false})
		}
	}
	np := len(bl.past)
	bl.first = bl.k + np
	nvars := bl.first + len(obls) + np
	bl.m = bdd.New(b, nvars)
	m := bl.m
	for i := range bl.past {
		bl.pastV = append(bl.pastV, bl.k+i)
		bl.prevV = append(bl.prevV, bl.first+len(obls)+i)
	}
	bl.oblOf = obls
	pastIdx := map[int32]int{}
	for i, u := range bl.past {
		pastIdx[u] = i
	}
	// T for every reachable node, operands first.
	bl.t = make([]bdd.Node, len(f.Nodes))
	ob := func(node int32, strong bool) bdd.Node { return m.Var(bl.first + bl.obl[oblKey{node, strong}]) }
	for i, n := range f.Nodes {
		if !reach[i] {
			continue
		}
		t := bl.t
		var r bdd.Node
		switch n.Op {
		case True:
			r = bdd.True
		case False:
			r = bdd.False
		case Prop:
			r = m.Var(int(n.A))
		case Not:
			r = m.Not(t[n.A])
		case And:
			r = m.And(t[n.A], t[n.B])
		case Or:
			r = m.Or(t[n.A], t[n.B])
		case Implies:
			r = m.Imp(t[n.A], t[n.B])
		case Equiv:
			r = m.Iff(t[n.A], t[n.B])
		case Xor:
			r = m.Xor(t[n.A], t[n.B])
		case Next:
			r = ob(n.A, true)
		case WeakNext:
			r = ob(n.A, false)
		case Finally:
			r = m.Or(t[n.A], ob(int32(i), true))
		case Globally:
			r = m.And(t[n.A], ob(int32(i), false))
		case Until:
			r = m.Or(t[n.B], m.And(t[n.A], ob(int32(i), true)))
		case WeakUntil:
			r = m.Or(t[n.B], m.And(t[n.A], ob(int32(i), false)))
		case Release:
			r = m.And(t[n.B], m.Or(t[n.A], ob(int32(i), false)))
		case StrongRelease:
			r = m.And(t[n.B], m.Or(t[n.A], ob(int32(i), true)))
		case Yesterday, WeakYesterday:
			// the stored value of the operand at the previous step
			r = m.Var(bl.prevV[pastIdx[int32(i)]])
		case Once:
			r = m.Or(t[n.A], m.Var(bl.prevV[pastIdx[int32(i)]]))
		case Historically:
			r = m.And(t[n.A], m.Var(bl.prevV[pastIdx[int32(i)]]))
		case Since:
			r = m.Or(t[n.B], m.And(t[n.A], m.Var(bl.prevV[pastIdx[int32(i)]])))
		}
		t[i] = r
	}
	if err := m.Err(); err != nil {
		return nil, err
	}
	// What each past variable records for the next step.
	record := make([]bdd.Node, np)
	for i, u := range bl.past {
		n := f.Nodes[u]
		if n.Op == Yesterday || n.Op == WeakYesterday {
			record[i] = bl.t[n.A]
		} else {
			record[i] = bl.t[u]
		}
	}
	// Known entailments between obligations: states equal under them are
	// equivalent, so every state is conjoined with them (a canonical
	// representative of its class), which keeps, say, the 2^n disjunctions
	// of the obligations of p1 U (p2 U (… U pn)) down to n.
	// The implications are conjoined from the deepest variables up: a
	// conjunction then walks only the part of care above its implication's
	// variables (in the order they come, each would walk all of care: a
	// chain of 3,000 U spent minutes there).
	// entails(a, b) holds for a ≠ b only through a rule on a's operator
	// (down) or on b's (up): only those pairs are tried, so that a chain
	// of nexts (X[32768] a: 32,768 obligations) tries none.
	var imps [][2]int
	var down, up []int
	var stepErr error
	for i, o := range obls {
		switch f.Nodes[o.node].Op {
		case False, Globally, Release, StrongRelease, And, Or, Until:
			down = append(down, i)
		}
		switch f.Nodes[o.node].Op {
		case True, Until, WeakUntil, Finally, Or, And:
			up = append(up, i)
		}
	}
	isDown := make([]bool, len(obls))
	for _, i := range down {
		isDown[i] = true
	}
	try := func(i, j int) {
		stepErr = cmp.Or(stepErr, b.Step(1))
		oi, oj := obls[i], obls[j]
		if i == j || (!oi.strong && oj.strong) {
			return // a weak obligation never entails a strong one
		}
		if entails(f, oi.node, oj.node, 8) {
			imps = append(imps, [2]int{bl.first + i, bl.first + j})
		}
	}
	for _, i := range down {
		for j := range obls {
			try(i, j)
		}
		if stepErr != nil {
			return nil, stepErr
		}
	}
	for _, j := range up {
		for i := range obls {
			if !isDown[i] {
				try(i, j)
			}
		}
		if stepErr != nil {
			return nil, stepErr
		}
	}
	slices.SortFunc(imps, func(x, y [2]int) int { return min(y[0], y[1]) - min(x[0], x[1]) })
	care := bdd.True
	for _, v := range imps {
		care = m.And(care, m.Imp(m.Var(v[0]), m.Var(v[1])))
	}
	sub := make(map[int]bdd.Node, len(obls))
	for j, o := range obls {
		sub[bl.first+j] = bl.t[o.node]
	}
	comp := m.NewComposer(sub)

	// The start state: ⟨root⟩ₛ with the past's initial values recorded.
	start := m.Var(bl.first + bl.obl[oblKey{f.Root, true}])
	for i := np - 1; i >= 0; i-- {
		lit := m.Var(bl.pastV[i])
		if !bl.init[i] {
			lit = m.Not(lit)
		}
		start = m.And(lit, start)
	}
	// States are keyed by their canonical function (conjoined with care);
	// raw keeps one function of each class without care, cheaper to compose.
	startKey := m.And(start, care)
	states := map[bdd.Node]int{startKey: 0}
	order := []bdd.Node{startKey}
	raw := []bdd.Node{start}
	d := &symbolic.DFA{Props: f.Props, M: m}
	meter := b.Meter(maxStates, "LTLf automaton")
	if err := meter.Add(1); err != nil {
		return nil, err
	}
	lits := make([]bdd.Literal, np)
	for q := 0; q < len(order); q++ {
		s := raw[q]
		// Split s into the stored past values and the obligations.
		prev := make([]bool, np)
		for i := range np {
			lv := bl.pastV[i]
			if m.Level(s) != lv {
				break // s is False: every value is as good
			}
			if m.Low(s) == bdd.False {
				prev[i] = true
				s = m.High(s)
			} else {
				s = m.Low(s)
			}
		}
		d.Accept = append(d.Accept, bl.accepts(s))
		// The stored values fixed by one cube (a Restrict per value and
		// per record walked each diagram np times, np² walks a state),
		// and the values recorded for the next step conjoined among
		// themselves, the deepest first, before they meet next (each
		// conjunction with next walked all of next: Y⁴⁰ a ∧ F b spent
		// its time there).
		for i := range np {
			lits[i] = bdd.Literal{Var: bl.prevV[i], Value: prev[i]}
		}
		cube := m.Cube(lits)
		next := m.RestrictCube(comp.Apply(s), cube)
		recorded := bdd.True
		for i := np - 1; i >= 0; i-- {
			recorded = m.And(m.Iff(m.Var(bl.pastV[i]), m.RestrictCube(record[i], cube)), recorded)
		}
		next = m.And(next, recorded)
		nextC := m.And(next, care)
		if err := m.Err(); err != nil {
			return nil, err
		}
		d.Next = append(d.Next, nextC)
		bl.leafPairs(next, nextC, func(r, x bdd.Node) {
			if _, ok := states[x]; !ok {
				states[x] = len(order)
				order = append(order, x)
				raw = append(raw, r)
				meter.Add(1)
			}
		})
		if err := meter.Add(0); err != nil {
			return nil, err
		}
		if err := m.Err(); err != nil {
			return nil, err
		}
	}
	d.Start = 0
	d.Leaf = states
	return d, nil
}

// accepts evaluates an obligation function on the empty rest of a trace.
func (bl *builder) accepts(s bdd.Node) bool {
	return bl.m.Eval(s, func(v int) bool {
		j := v - bl.first
		return j >= 0 && j < len(bl.oblOf) && !bl.oblOf[j].strong
	})
}

// entails reports whether subformula a entails subformula b on every trace
// and step by simple syntactic rules (ψ ⊨ φ U ψ, ψ ⊨ F ψ, G ψ ⊨ ψ, φ R ψ ⊨ ψ,
// φ ∧ ψ ⊨ φ, φ ⊨ φ ∨ ψ, …), to the given depth. False means "not known".
func entails(f *Formula, a, b int32, depth int) bool {
	if a == b {
		return true
	}
	if depth == 0 {
		return false
	}
	na, nb := f.Nodes[a], f.Nodes[b]
	switch nb.Op {
	case True:
		return true
	case Until, WeakUntil:
		if entails(f, a, nb.B, depth-1) {
			return true
		}
	case Finally:
		if entails(f, a, nb.A, depth-1) {
			return true
		}
	case Or:
		if entails(f, a, nb.A, depth-1) || entails(f, a, nb.B, depth-1) {
			return true
		}
	case And:
		if entails(f, a, nb.A, depth-1) && entails(f, a, nb.B, depth-1) {
			return true
		}
	}
	switch na.Op {
	case False:
		return true
	case Globally, Release, StrongRelease:
		sub := na.A
		if na.Op != Globally {
			sub = na.B
		}
		return entails(f, sub, b, depth-1)
	case And:
		return entails(f, na.A, b, depth-1) || entails(f, na.B, b, depth-1)
	case Or:
		return entails(f, na.A, b, depth-1) && entails(f, na.B, b, depth-1)
	case Until:
		// φ U ψ ⊨ b when φ ⊨ b and ψ ⊨ b, and b is closed under U-steps:
		// only claimed for b = F χ with ψ ⊨ χ.
		if nb.Op == Finally && entails(f, na.B, nb.A, depth-1) {
			return true
		}
	}
	return false
}

// leafPairs walks the diagram c (x ∧ care) and x together and calls fn
// with each leaf of c and a leaf of x on a path to it (x's structure over the
// propositions refines c's, since care does not mention propositions).
func (bl *builder) leafPairs(x, c bdd.Node, fn func(raw, leaf bdd.Node)) {
	m := bl.m
	seen := map[[2]bdd.Node]bool{}
	var walk func(u, v bdd.Node)
	walk = func(u, v bdd.Node) {
		if seen[[2]bdd.Node{u, v}] {
			return
		}
		seen[[2]bdd.Node{u, v}] = true
		lu, lv := min(m.Level(u), bl.k), min(m.Level(v), bl.k)
		if lv == bl.k {
			for m.Level(u) < bl.k {
				u = m.Low(u)
			}
			fn(u, v)
			return
		}
		if lu == lv {
			walk(m.Low(u), m.Low(v))
			walk(m.High(u), m.High(v))
			return
		}
		walk(m.Low(u), v)
		walk(m.High(u), v)
	}
	walk(x, c)
}
