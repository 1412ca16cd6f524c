package krohnrhodes

import (
	"strconv"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/position"
)

// contextProgram compiles the cascade with its levels in context form (see
// CascadeToBRASP): one attention vector per reachable level state, one C
// vector per holonomy set on a chain (when it is not an alias), one R vector
// per level with more than two states, one A vector per DFA state and the
// output. It needs no global states.
func contextProgram(c *Cascade) (*brasp.Program, error) {
	d := c.Automaton
	b := brasp.NewBuilder(d.Alphabet)
	levels := len(c.Levels)

	// The states a level can be in: its initial state, its rules' targets
	// and 0 when some input resets it to 0.
	used := make([]map[int]bool, levels)
	for l, lv := range c.Levels {
		used[l] = map[int]bool{lv.Initial: true}
		if c.cx.reachZero[l] {
			used[l][0] = true
		}
		for _, r := range lv.Rules {
			used[l][r.Target] = true
		}
	}
	levelVec := make([]map[int]brasp.Expr, levels) // level state → its vector at i (1 for a constant level)

	byChild := map[int][]int{}
	for e, edge := range c.Edges {
		byChild[edge.Child] = append(byChild[edge.Child], e)
	}
	// resolve(P) says at i that the chain passes the set P (C_P), edgeAt(e)
	// that it passes edge e: C_P(i) ∧ the level of P in the edge's state.
	// Both read only levels above P's children.
	chainExpr := map[int]brasp.Expr{0: brasp.Bool(true)}
	var resolve func(set int) brasp.Expr
	edgeAt := func(e int) brasp.Expr {
		edge := c.Edges[e]
		return brasp.Conjoin(resolve(edge.Parent), levelVec[edge.Level][edge.Value])
	}
	resolve = func(set int) brasp.Expr {
		if e, ok := chainExpr[set]; ok {
			return e
		}
		var terms []brasp.Expr
		for _, e := range byChild[set] {
			terms = append(terms, edgeAt(e))
		}
		single := len(c.Sets[set]) == 1
		var x brasp.Expr
		_, isRef := terms[0].(*brasp.Ref)
		value, isLit := brasp.LiteralValue(terms[0])
		switch {
		case len(terms) == 1 && (isRef || isLit && value) && !single:
			x = terms[0] // an alias: no vector needed
		case single:
			x = b.I(b.Positionwise(stateVectorName(d, c.Sets[set][0]), brasp.Or(terms...)))
		default:
			x = b.I(b.Positionwise("C_"+strconv.Itoa(set), brasp.Or(terms...)))
		}
		chainExpr[set] = x
		return x
	}
	// Conditions at j: the symbol at j is one of syms and the chain passes
	// a set or an edge.
	symbolsAt := func(syms []int) brasp.Expr {
		var qs []brasp.Expr
		for _, a := range syms {
			qs = append(qs, b.J(b.SymbolVec(a)))
		}
		return brasp.Or(qs...)
	}
	type group struct {
		key  int // a set (keep) or an edge (rules; -1: none)
		syms []int
	}
	groupBy := func(groups []*group, index map[int]*group, key, a int) []*group {
		g, ok := index[key]
		if !ok {
			g = &group{key: key}
			index[key] = g
			groups = append(groups, g)
		}
		g.syms = append(g.syms, a)
		return groups
	}

	for l, lv := range c.Levels {
		levelVec[l] = map[int]brasp.Expr{}
		if len(used[l]) < 2 {
			for s := range used[l] {
				levelVec[l][s] = brasp.Bool(true)
			}
			continue
		}
		// Lemma B.6 with Lemma B.7's inputs: the level is reset at j unless
		// an identity input (keep) is read there; the reset's target is s ≠ 0
		// when one of the rules for s fires, and 0 when none does.
		var keeps []*group
		keepIndex := map[int]*group{}
		for _, k := range lv.Keep {
			keeps = groupBy(keeps, keepIndex, k.Set, k.Symbol)
		}
		var kept []brasp.Expr
		for _, g := range keeps {
			kept = append(kept, brasp.Conjoin(brasp.ReadAt(resolve(g.key), brasp.VarJ), symbolsAt(g.syms)))
		}
		var resetJ brasp.Expr = brasp.Bool(true)
		if len(kept) > 0 {
			resetJ = brasp.Not(brasp.Or(kept...))
			if len(used[l]) > 2 {
				resetJ = b.J(b.Positionwise("R"+strconv.Itoa(l+1), brasp.ReadAt(resetJ, brasp.VarI)))
			}
		}
		byTarget := map[int][]*group{}
		targetIndex := map[int]map[int]*group{}
		for _, r := range lv.Rules {
			if targetIndex[r.Target] == nil {
				targetIndex[r.Target] = map[int]*group{}
			}
			byTarget[r.Target] = groupBy(byTarget[r.Target], targetIndex[r.Target], r.Edge, r.Symbol)
		}
		value := map[int]brasp.Expr{}
		var nonzero []brasp.Expr
		for s := range lv.States {
			if s == 0 || !used[l][s] {
				continue
			}
			var terms []brasp.Expr
			for _, g := range byTarget[s] {
				cond := symbolsAt(g.syms)
				if g.key >= 0 {
					cond = brasp.Conjoin(brasp.ReadAt(edgeAt(g.key), brasp.VarJ), cond)
				}
				terms = append(terms, cond)
			}
			value[s] = brasp.Or(terms...)
			nonzero = append(nonzero, value[s])
		}
		if used[l][0] {
			value[0] = brasp.Not(brasp.Or(nonzero...))
		}
		for s := range lv.States {
			if !used[l][s] {
				continue
			}
			name := "L" + strconv.Itoa(l+1) + "_" + strconv.Itoa(s)
			levelVec[l][s] = b.I(b.Attend(name, position.Rightmost, position.MaskFuture,
				resetJ, value[s], brasp.Bool(s == lv.Initial)))
		}
	}

	stateVec := make([]brasp.Expr, d.NumStates())
	var order []int
	if levels == 0 {
		x := c.Sets[0][0]
		stateVec[x] = brasp.Bool(true)
		order = append(order, x)
	}
	singles := map[int]int{} // DFA state → singleton set on a chain
	for _, edge := range c.Edges {
		if len(c.Sets[edge.Child]) == 1 {
			singles[c.Sets[edge.Child][0]] = edge.Child
		}
	}
	for x := range d.NumStates() {
		if set, ok := singles[x]; ok {
			stateVec[x] = resolve(set)
			order = append(order, x)
		}
	}
	return finish(b, d, order, stateVec)
}
