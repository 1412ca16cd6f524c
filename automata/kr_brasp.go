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
// rightmost, strictly future-masked attention (as Thm 5.1 promises):
//
//   - level d in state s before position i, "most recent reset wins":
//     L<d>_<s>(i) := rightmost [j<i, reset_d(j)] resetTo_s(j) : [s initial],
//     where reset_d(j) says that the symbol at j, read while levels 1..d-1
//     are in the states of some reset of level d, resets it;
//   - U_<s1>_…_<sd>(i), the conjunction of the level states of a reachable
//     prefix of global states (levels 1..d), as reset conditions need them;
//   - C_<P>(i): the tile chain of the global state passes through the set P,
//     the homomorphism read one tile at a time (one vector per set on a
//     chain, not one per global state);
//   - A_<x>(i): the DFA is in state x before position i (C of {x});
//   - Y(i): the DFA accepts after reading position i, the output vector.
//
// A level with a single reachable state needs no vector.
func CascadeToBRASP(c *Cascade) (*brasp.Program, error) {
	d := c.Automaton
	b := brasp.NewBuilder(d.Alphabet)
	levels := len(c.Levels)

	// Which states of each level occur in reachable global states.
	used := make([]map[int]bool, levels)
	for l := range used {
		used[l] = map[int]bool{}
	}
	for _, tuple := range c.States {
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
		for _, r := range c.compressedResets(l) {
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
	byChild := map[int][]decodeEdge{}
	for _, e := range c.decode {
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
		state, single := c.setState[set]
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
	for set, q := range c.setState {
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

// compressedResets returns the resets of level l (0-based) with each
// condition on the levels above cut down to the shortest prefix of level
// states all of whose reachable extensions behave alike on the symbol (all
// reset to the same target). Only reachable global states occur in runs, so
// the shorter condition is equivalent and needs fewer prefix vectors.
func (c *Cascade) compressedResets(l int) []CascadeReset {
	lv := c.Levels[l]
	if l == 0 {
		return lv.Resets
	}
	// Trie nodes: ids per prefix length, with parent links and children.
	type link struct{ parent, value int }
	up := make([]map[int]link, l+1)
	down := make([]map[int][]int, l+1)
	for m := range l + 1 {
		up[m], down[m] = map[int]link{}, map[int][]int{}
	}
	for m := range l {
		for key, id := range c.trie[m] {
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
			if i, ok := lv.reset[[2]int{id, a}]; ok {
				outcome[l][id] = lv.Resets[i].Target
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
