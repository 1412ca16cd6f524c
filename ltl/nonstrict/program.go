package nonstrict

import (
	"fmt"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/ltl"
	"github.com/brasp-dev/brasp/position"
)

// ToProgram converts a formula of form m into a B-RASP program and checks
// that it uses only the masks m allows. It is Theorem 3.2 (ltl.ToBRASP)
// with non-strict masks — S and O become rightmost [j<=i, ...], H
// rightmost [j<=i, ...] with default 1, U, F, G the leftmost [i<=j, ...]
// mirror images — with one more case that the change-of-letter operators
// of the rewriting need: a disjunction over distinct letters a of
// a ∧ (a S ψ_a) is one operation whose score reads the letter at i,
//
//	rightmost [j<=i, ⋁_a Q_a(i) & (!Q_a(j) | ψ_a(j))] ⋁_a Q_a(i) & ψ_a(j) : 0
//
// (exactly one Q_a(i) holds, so at a position with letter a this is the
// operation of a S ψ_a, and with a letter outside the disjunction the
// score is 0 everywhere and the default 0 is the disjunction's value);
// likewise for U. This saves |Σ|−1 operations per prev and next. The
// attention depth is the temporal depth of f.
func ToProgram(f *ltl.Formula, m Masks) (*brasp.Program, error) {
	if err := CheckFormula(f, m); err != nil {
		return nil, err
	}
	c := &programBuilder{b: brasp.NewBuilder(f.Alphabet()), vec: map[*ltl.Formula]int{}}
	root, err := c.vector(f)
	if err != nil {
		return nil, err
	}
	c.b.SetAccept(root)
	p, err := c.b.Program()
	if err != nil {
		return nil, fmt.Errorf("internal error: an invalid program: %w", err)
	}
	if err := CheckProgram(p, m); err != nil {
		return nil, fmt.Errorf("internal error: %w", err)
	}
	return p, nil
}

type programBuilder struct {
	b   *brasp.Builder
	vec map[*ltl.Formula]int
}

// expr is g read at i or at j: a literal for a constant, else g's vector.
func (c *programBuilder) expr(g *ltl.Formula, at func(int) *brasp.Ref) (brasp.Expr, error) {
	switch g.Op {
	case ltl.OpTrue, ltl.OpFalse:
		return brasp.Bool(g.Op == ltl.OpTrue), nil
	}
	k, err := c.vector(g)
	if err != nil {
		return nil, err
	}
	return at(k), nil
}

// vector returns the vector computing g, building it (and what it reads)
// on first use.
func (c *programBuilder) vector(g *ltl.Formula) (int, error) {
	if k, ok := c.vec[g]; ok {
		return k, nil
	}
	k, err := c.build(g)
	if err != nil {
		return 0, err
	}
	c.vec[g] = k
	return k, nil
}

func (c *programBuilder) build(g *ltl.Formula) (int, error) {
	b := c.b
	i := func(h *ltl.Formula) (brasp.Expr, error) { return c.expr(h, b.I) }
	j := func(h *ltl.Formula) (brasp.Expr, error) { return c.expr(h, b.J) }
	switch g.Op {
	case ltl.OpSymbol:
		return b.SymbolVec(g.Symbol), nil
	case ltl.OpTrue, ltl.OpFalse:
		return b.Positionwise("C", brasp.Bool(g.Op == ltl.OpTrue)), nil
	case ltl.OpOr:
		if k, ok, err := c.letterCases(g); ok || err != nil {
			return k, err
		}
	}
	var x, y brasp.Expr
	var err error
	if g.X != nil {
		if x, err = i(g.X); err != nil {
			return 0, err
		}
	}
	if g.Y != nil {
		if y, err = i(g.Y); err != nil {
			return 0, err
		}
	}
	switch g.Op {
	case ltl.OpNot:
		return b.Positionwise("Not", brasp.Not(x)), nil
	case ltl.OpAnd:
		return b.Positionwise("And", brasp.And(x, y)), nil
	case ltl.OpOr:
		return b.Positionwise("Or", brasp.Or(x, y)), nil
	case ltl.OpImplies:
		return b.Positionwise("Implies", brasp.Or(brasp.Not(x), y)), nil
	case ltl.OpIff:
		return b.Positionwise("Iff", brasp.Or(brasp.And(x, y), brasp.And(brasp.Not(x), brasp.Not(y)))), nil
	}
	var jx, jy brasp.Expr
	if g.X != nil {
		if jx, err = j(g.X); err != nil {
			return 0, err
		}
	}
	if g.Y != nil {
		if jy, err = j(g.Y); err != nil {
			return 0, err
		}
	}
	switch g.Op {
	case ltl.OpSinceNS:
		return b.Attend("S", position.Rightmost, position.MaskFutureOrSelf, brasp.Or(brasp.Not(jx), jy), jy, brasp.Bool(false)), nil
	case ltl.OpUntilNS:
		return b.Attend("U", position.Leftmost, position.MaskPastOrSelf, brasp.Or(brasp.Not(jx), jy), jy, brasp.Bool(false)), nil
	case ltl.OpOnce:
		return b.Attend("Once", position.Rightmost, position.MaskFutureOrSelf, jx, jx, brasp.Bool(false)), nil
	case ltl.OpEventually:
		return b.Attend("Eventually", position.Leftmost, position.MaskPastOrSelf, jx, jx, brasp.Bool(false)), nil
	case ltl.OpHistorically:
		return b.Attend("Historically", position.Rightmost, position.MaskFutureOrSelf, brasp.Not(jx), brasp.Bool(false), brasp.Bool(true)), nil
	case ltl.OpGlobally:
		return b.Attend("Globally", position.Leftmost, position.MaskPastOrSelf, brasp.Not(jx), brasp.Bool(false), brasp.Bool(true)), nil
	}
	return 0, fmt.Errorf("nonstrict: ToProgram: operator %v is not non-strict", g.Op)
}

// letterCase is one disjunct a ∧ (a S ψ) (or U) of a disjunction.
type letterCase struct {
	letter int
	op     ltl.Op
	psi    *ltl.Formula
}

// asLetterCase recognises a ∧ (a S ψ) and a ∧ (a U ψ).
func asLetterCase(g *ltl.Formula) (letterCase, bool) {
	if g.Op != ltl.OpAnd {
		return letterCase{}, false
	}
	for _, xy := range [][2]*ltl.Formula{{g.X, g.Y}, {g.Y, g.X}} {
		q, t := xy[0], xy[1]
		if q.Op == ltl.OpSymbol && (t.Op == ltl.OpSinceNS || t.Op == ltl.OpUntilNS) && t.X == q {
			return letterCase{letter: q.Symbol, op: t.Op, psi: t.Y}, true
		}
	}
	return letterCase{}, false
}

// letterCases builds the disjunction g with its letter cases merged into
// one operation per direction, when at least two cases of distinct letters
// share a direction; ok is false otherwise.
func (c *programBuilder) letterCases(g *ltl.Formula) (int, bool, error) {
	var disjuncts []*ltl.Formula
	var flatten func(h *ltl.Formula)
	flatten = func(h *ltl.Formula) {
		if h.Op == ltl.OpOr {
			flatten(h.X)
			flatten(h.Y)
			return
		}
		disjuncts = append(disjuncts, h)
	}
	flatten(g)
	groups := map[ltl.Op][]letterCase{}
	var rest []*ltl.Formula
	for _, h := range disjuncts {
		lc, ok := asLetterCase(h)
		if !ok {
			rest = append(rest, h)
			continue
		}
		dup := false
		for _, o := range groups[lc.op] {
			dup = dup || o.letter == lc.letter
		}
		if dup {
			rest = append(rest, h)
			continue
		}
		groups[lc.op] = append(groups[lc.op], lc)
	}
	b := c.b
	var parts []brasp.Expr
	merged := false
	for _, op := range []ltl.Op{ltl.OpSinceNS, ltl.OpUntilNS} {
		cases := groups[op]
		if len(cases) < 2 {
			for _, lc := range cases {
				rest = append(rest, c.caseFormula(g, lc))
			}
			continue
		}
		merged = true
		var score, value []brasp.Expr
		for _, lc := range cases {
			psi, err := c.expr(lc.psi, b.J)
			if err != nil {
				return 0, false, err
			}
			qi, qj := b.I(b.SymbolVec(lc.letter)), b.J(b.SymbolVec(lc.letter))
			score = append(score, brasp.And(qi, brasp.Or(brasp.Not(qj), psi)))
			value = append(value, brasp.And(qi, psi))
		}
		name, tb, mask := "Prev", position.Rightmost, position.MaskFutureOrSelf
		if op == ltl.OpUntilNS {
			name, tb, mask = "Next", position.Leftmost, position.MaskPastOrSelf
		}
		k := b.Attend(name, tb, mask, brasp.Or(score...), brasp.Or(value...), brasp.Bool(false))
		parts = append(parts, b.I(k))
	}
	if !merged {
		return 0, false, nil
	}
	for _, h := range rest {
		e, err := c.expr(h, b.I)
		if err != nil {
			return 0, false, err
		}
		parts = append(parts, e)
	}
	if len(parts) == 1 {
		if r, ok := parts[0].(*brasp.Ref); ok {
			return r.Vec, true, nil
		}
	}
	return b.Positionwise("Or", brasp.Or(parts...)), true, nil
}

// caseFormula returns the disjunct of g that lc came from.
func (c *programBuilder) caseFormula(g *ltl.Formula, lc letterCase) *ltl.Formula {
	var found *ltl.Formula
	var walk func(h *ltl.Formula)
	walk = func(h *ltl.Formula) {
		if found != nil {
			return
		}
		if h.Op == ltl.OpOr {
			walk(h.X)
			walk(h.Y)
			return
		}
		if x, ok := asLetterCase(h); ok && x == lc {
			found = h
		}
	}
	walk(g)
	return found
}
