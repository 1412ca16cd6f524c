package automata

import (
	"slices"
	"strconv"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/brasp"
)

// CascadeToBRASP compiles a cascade of identity–reset automata into a B-RASP
// program that accepts exactly the non-empty words the cascade's automaton
// accepts (paper, Lemmas B.6–B.8 and the proof of Thm B.4). It uses only
// rightmost, strictly future-masked attention (as Thm 5.1 promises). Level d
// in state s before position i is Lemma B.6's "most recent reset wins":
//
//	L<d>_<s>(i) := rightmost [j<i, reset_d(j)] resetTo_s(j) : [s initial],
//
// where reset_d(j), as in Lemma B.7, is a Boolean combination of the symbol
// at j and vectors of levels 1..d-1 at j; Lemma B.8 stacks the levels. The
// homomorphism of the proof of Thm B.4 (A_r := ⋁ C_q over φ(q) = r) is read
// one tile at a time: C_<P>(i) says that the tile chain of the global state
// before i passes the set P, A_<x>(i) that the DFA is in state x before i
// (C of {x}), and Y(i), the output vector, that it accepts after reading i.
//
// Two forms of the level inputs, both over the same cascade:
//
//   - the context form (kr_context.go), used unless the cascade is tiny:
//     level d is reset at j unless an identity input is read there, "the
//     symbol is a and the chain passes the set P" (Q_a(j) ∧ C_P(j), P a set
//     of the level's height that a keeps in its class); the target is s ≠ 0
//     when one of the level's rules for s fires, "the symbol is a and the
//     chain passes the edge P --t--> T" (Q_a(j) ∧ C_P(j) ∧ L<level of P>_<t>(j)),
//     and 0 when none does. R<d>(i) names the reset condition when the level
//     has more than two states. The program's size is polynomial in the
//     number of holonomy sets and edges, whatever the number of global
//     states, and no global state is enumerated;
//   - the explicit form, for cascades with at most TupleProgramStates
//     reachable global states (within Limits.MaxCascade): reset conditions
//     are disjunctions over the reachable tuples of states of the levels
//     above (cut to their shortest prefix that decides the reset),
//     U_<s1>_…_<sk>(i) being the conjunction of such a prefix. This is
//     Lemma B.7 verbatim and the form of the paper's Figure for A_3.
//
// A level with a single reachable state needs no vector.
func CascadeToBRASP(c *Cascade) (*brasp.Program, error) {
	if c.numGlobal >= 0 && c.numGlobal <= TupleProgramStates {
		g, err := c.Global()
		if err != nil {
			return nil, err
		}
		return tupleProgram(c, g)
	}
	return contextProgram(c)
}

// TupleProgramStates is the largest number of reachable global states for
// which CascadeToBRASP writes reset conditions over explicit tuples. The
// context form is smaller from a handful of global states on (on random
// counter-free DFAs of 9 states, 83 vectors against 200 on average); the
// explicit form is kept for the smallest cascades, such as the paper's A_3,
// whose program it reproduces.
const TupleProgramStates = 8

func tupleProgram(c *Cascade, g *GlobalStates) (*brasp.Program, error) {
	d := c.Automaton
	b := brasp.NewBuilder(d.Alphabet)
	levels := len(c.Levels)

	// Which states of each level occur in reachable global states.
	used := make([]map[int]bool, levels)
	for l := range used {
		used[l] = map[int]bool{}
	}
	for _, tuple := range g.States {
		for l, s := range tuple {
			used[l][s] = true
		}
	}

	levelVec := make([]map[int]int, levels) // level state → vector, absent when the level is constant
	prefixVec := map[string]brasp.Expr{}    // key of a prefix of a global state → U vector reference at i
	var atI func(prefix []int) brasp.Expr
	atI = func(prefix []int) brasp.Expr {
		if len(prefix) == 0 {
			return brasp.Bool(true)
		}
		key := transformationKey(prefix)
		if e, ok := prefixVec[key]; ok {
			return e
		}
		l := len(prefix) - 1
		var e brasp.Expr
		own, ok := levelVec[l][prefix[l]]
		switch {
		case !ok:
			e = atI(prefix[:l])
		case l == 0:
			e = b.I(own)
		default:
			name := "U"
			for _, s := range prefix {
				name += "_" + strconv.Itoa(s)
			}
			e = b.I(b.Positionwise(name, brasp.And(atI(prefix[:l]), b.I(own))))
		}
		prefixVec[key] = e
		return e
	}
	// jOf rewrites an expression over (i) references into (j) references:
	// the reset conditions are read at the attended position j.
	jOf := func(e brasp.Expr) brasp.Expr { return toJ(b, e) }

	for l, lv := range c.Levels {
		levelVec[l] = map[int]int{}
		if len(used[l]) < 2 {
			continue
		}
		var any []brasp.Expr
		byTarget := map[int][]brasp.Expr{}
		for _, r := range g.compressedResets(c, l) {
			cond := brasp.Expr(b.J(b.SymbolVec(r.Symbol)))
			if len(r.Above) > 0 {
				cond = brasp.And(jOf(atI(r.Above)), cond)
			}
			any = append(any, cond)
			byTarget[r.Target] = append(byTarget[r.Target], cond)
		}
		for s := range lv.States {
			if !used[l][s] {
				continue
			}
			name := "L" + strconv.Itoa(l+1) + "_" + strconv.Itoa(s)
			levelVec[l][s] = b.Attend(name, brasp.Rightmost, brasp.MaskFuture,
				brasp.Or(any...), brasp.Or(byTarget[s]...), brasp.Bool(s == lv.Initial))
		}
	}

	// The homomorphism, one tile at a time: C_P(i) says that the tile chain
	// of the global state before i passes through set P (C of the whole set
	// is 1); the chain continues from P to the child chosen by the level of
	// P. A_x(i) is C of the singleton {x}. This needs one vector per set on a
	// chain rather than one per global state.
	chainExpr := map[int]brasp.Expr{0: brasp.Bool(true)}
	byChild := map[int][]ChainEdge{}
	for _, e := range g.decode {
		byChild[e.Child] = append(byChild[e.Child], e)
	}
	var resolve func(set int) brasp.Expr
	resolve = func(set int) brasp.Expr {
		if e, ok := chainExpr[set]; ok {
			return e
		}
		var terms []brasp.Expr
		for _, e := range byChild[set] {
			step := brasp.Expr(brasp.Bool(true))
			if v, ok := levelVec[e.Level][e.Value]; ok {
				step = b.I(v)
			}
			terms = append(terms, and2(resolve(e.Parent), step))
		}
		state, single := g.setState[set]
		if _, isRef := terms[0].(*brasp.Ref); len(terms) == 1 && isRef && !single {
			chainExpr[set] = terms[0] // an alias: no vector needed
			return terms[0]
		}
		name := "C_" + strconv.Itoa(set)
		if single {
			name = stateVectorName(d, state)
		}
		x := b.I(b.Positionwise(name, brasp.Or(terms...)))
		chainExpr[set] = x
		return x
	}
	// Singleton sets in the order of their DFA states.
	singletonOf := make([]int, d.NumStates())
	for q := range singletonOf {
		singletonOf[q] = -1
	}
	for set, q := range g.setState {
		singletonOf[q] = set
	}
	stateVec := make([]brasp.Expr, d.NumStates())
	var order []int
	for q, set := range singletonOf {
		if set < 0 {
			continue
		}
		order = append(order, q)
		if levels == 0 {
			stateVec[q] = brasp.Bool(true)
		} else {
			stateVec[q] = resolve(set)
		}
	}
	return finish(b, d, order, stateVec)
}

// finish adds the output vector: Y(i) says that the DFA accepts after
// reading position i, from the state vectors A_x (before i) and the symbol
// at i (the proof of Thm B.4).
func finish(b *brasp.Builder, d *DFA, order []int, stateVec []brasp.Expr) (*brasp.Program, error) {
	var accept []brasp.Expr
	for _, x := range order {
		var syms []brasp.Expr
		for a := range d.Alphabet {
			if d.Accept[d.Delta[x][a]] {
				syms = append(syms, b.I(b.SymbolVec(a)))
			}
		}
		if len(syms) > 0 {
			accept = append(accept, brasp.And(stateVec[x], brasp.Or(syms...)))
		}
	}
	b.SetAccept(b.Positionwise("Y", brasp.Or(accept...)))
	return b.Program()
}

func stateVectorName(d *DFA, x int) string {
	if alphabet.IsBare(d.States[x]) {
		return "A_" + d.States[x]
	}
	return "A_" + strconv.Itoa(x)
}

// toJ returns e with every reference read at j instead of i.
func toJ(b *brasp.Builder, e brasp.Expr) brasp.Expr {
	switch e := e.(type) {
	case *brasp.Ref:
		return b.J(e.Vec)
	case *brasp.UnaryExpr:
		return brasp.Not(toJ(b, e.X))
	case *brasp.BinaryExpr:
		if e.Op == brasp.AND {
			return brasp.And(toJ(b, e.X), toJ(b, e.Y))
		}
		return brasp.Or(toJ(b, e.X), toJ(b, e.Y))
	}
	return e
}

// DFAToBRASP minimises d, decomposes it (Decompose) and compiles the cascade
// into B-RASP (CascadeToBRASP). The program accepts exactly the non-empty
// words d accepts; the empty word, which B-RASP never reads, is ignored. It
// fails with a *NotCounterFreeError carrying the witness when the language is
// not star-free, and with a *LimitError when a limit is exceeded.
func DFAToBRASP(d *DFA, limits Limits) (*brasp.Program, *Cascade, error) {
	c, err := Decompose(Minimize(d), limits)
	if err != nil {
		return nil, nil, err
	}
	p, err := CascadeToBRASP(c)
	if err != nil {
		return nil, nil, err
	}
	return p, c, nil
}

// and2 is x ∧ y without a literal 1 operand.
func and2(x, y brasp.Expr) brasp.Expr {
	if l, ok := x.(*brasp.Literal); ok && l.Value {
		return y
	}
	if l, ok := y.(*brasp.Literal); ok && l.Value {
		return x
	}
	return brasp.And(x, y)
}

// compressedResets returns the explicit resets of level l (0-based) with each
// condition on the levels above cut down to the shortest prefix of level
// states all of whose reachable extensions behave alike on the symbol (all
// reset to the same target). Only reachable global states occur in runs, so
// the shorter condition is equivalent and needs fewer prefix vectors.
func (g *GlobalStates) compressedResets(c *Cascade, l int) []CascadeReset {
	if l == 0 {
		return g.Resets[0]
	}
	// Trie nodes: ids per prefix length, with parent links and children.
	type link struct{ parent, value int }
	up := make([]map[int]link, l+1)
	down := make([]map[int][]int, l+1)
	for m := range l + 1 {
		up[m], down[m] = map[int]link{}, map[int][]int{}
	}
	for m := range l {
		for key, id := range g.trie[m] {
			up[m+1][id] = link{key[0], key[1]}
			down[m][key[0]] = append(down[m][key[0]], id)
		}
	}
	for m := range down {
		for _, ids := range down[m] {
			slices.Sort(ids)
		}
	}
	prefix := func(m, id int) []int {
		p := make([]int, m)
		for ; m > 0; m-- {
			e := up[m][id]
			p[m-1] = e.value
			id = e.parent
		}
		return p
	}
	const identity, mixed = -1, -2
	var out []CascadeReset
	for a := range c.Automaton.Alphabet {
		outcome := make([]map[int]int, l+1)
		for m := range outcome {
			outcome[m] = map[int]int{}
		}
		for id := range up[l] {
			outcome[l][id] = identity
			if i, ok := g.reset[l][[2]int{id, a}]; ok {
				outcome[l][id] = g.Resets[l][i].Target
			}
		}
		for m := l - 1; m >= 0; m-- {
			for id, kids := range down[m] {
				o := outcome[m+1][kids[0]]
				for _, kid := range kids[1:] {
					if outcome[m+1][kid] != o {
						o = mixed
						break
					}
				}
				outcome[m][id] = o
			}
		}
		var emit func(m, id int)
		emit = func(m, id int) {
			switch o := outcome[m][id]; {
			case o == mixed:
				for _, kid := range down[m][id] {
					emit(m+1, kid)
				}
			case o >= 0:
				out = append(out, CascadeReset{Above: prefix(m, id), Symbol: a, Target: o})
			}
		}
		emit(0, 0)
	}
	return out
}
