package automata

import (
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
//   - U<d>_<k>(i), the conjunction of the level states of a reachable prefix
//     of global states (levels 1..d), shared by the levels below;
//   - A_<x>(i): the DFA is in state x before position i (the homomorphism);
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
		for _, r := range lv.Resets {
			cond := brasp.Expr(b.J(b.SymbolVec(r.Symbol)))
			if l > 0 {
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

	// The homomorphism: A_x(i) is the disjunction of the global states mapped
	// to x.
	stateVec := make([]brasp.Expr, d.NumStates())
	byState := map[int][]brasp.Expr{}
	var order []int
	for g, tuple := range c.States {
		x := c.Phi[g]
		if _, ok := byState[x]; !ok {
			order = append(order, x)
		}
		byState[x] = append(byState[x], atI(tuple))
	}
	for _, x := range order {
		stateVec[x] = b.I(b.Positionwise(stateVectorName(d, x), brasp.Or(byState[x]...)))
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
