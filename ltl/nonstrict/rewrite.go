package nonstrict

import (
	"errors"
	"fmt"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/ltl"
)

// maxNodes bounds the formulas Rewrite builds. A node has a bounded size
// (about 160 bytes with its entries in the pool's index and the rewriter's
// memo tables), so nodes are a faithful measure of the memory.
var maxNodes = budget.Define("nonstrict-nodes", 1<<20, "formula nodes",
	"distinct subformulas of a formula rewritten with non-strict operators (Thm 5.2)")

// ErrPredicate reports a position predicate that no formula with only
// non-strict operators can express (MOD_r_m, Mid).
var ErrPredicate = errors.New("position predicate with no non-strict translation")

// Rewrite returns T(f), the formula of the package documentation: it uses
// only the non-strict operators S, U, O, H, F, G and connectives, and
// w, i ⊨ T(f) iff ♮w, blk(i) ⊨ f for every word w. So T(f) defines the
// same language as f whenever f's language is stutter-invariant. T(f) is
// built in a new pool over f's alphabet, with Boolean combinations of
// letters simplified. A formula using MOD_r_m or Mid gives an error
// wrapping ErrPredicate.
func Rewrite(b *budget.Budget, f *ltl.Formula) (*ltl.Formula, error) {
	r := newRewriter(b, f)
	for _, g := range f.Nodes() {
		out, err := r.node(g)
		if err != nil {
			return nil, err
		}
		if err := r.charge(); err != nil {
			return nil, err
		}
		r.memo[g] = out
	}
	return r.memo[f], nil
}

// rewriter holds the state of one Rewrite: the output pool, the rewritten
// node of every input node, and the memoised change-of-letter operators.
type rewriter struct {
	b       *budget.Budget
	meter   *budget.Meter
	charged int
	p       *ltl.Pool
	sigma   int
	memo    map[*ltl.Formula]*ltl.Formula
	prevOf  map[*ltl.Formula]*ltl.Formula
	nextOf  map[*ltl.Formula]*ltl.Formula
	sets    map[*ltl.Formula]letterSet // the letter formulas built so far
}

func newRewriter(b *budget.Budget, f *ltl.Formula) *rewriter {
	alpha := f.Alphabet()
	return &rewriter{
		b:      b,
		meter:  b.Meter(maxNodes, "non-strict rewriting"),
		p:      ltl.NewPool(alpha),
		sigma:  len(alpha),
		memo:   map[*ltl.Formula]*ltl.Formula{},
		prevOf: map[*ltl.Formula]*ltl.Formula{},
		nextOf: map[*ltl.Formula]*ltl.Formula{},
		sets:   map[*ltl.Formula]letterSet{},
	}
}

// charge meters the nodes created since the last call.
func (r *rewriter) charge() error {
	n := r.p.Len() - r.charged
	r.charged = r.p.Len()
	if n == 0 {
		return r.b.Step(1)
	}
	return r.meter.Add(int64(n))
}

// node returns T(g), given T of g's operands in r.memo.
func (r *rewriter) node(g *ltl.Formula) (*ltl.Formula, error) {
	var x, y *ltl.Formula
	if g.X != nil {
		x = r.memo[g.X]
	}
	if g.Y != nil {
		y = r.memo[g.Y]
	}
	p := r.p
	switch g.Op {
	case ltl.OpTrue, ltl.OpFalse:
		return p.Const(g.Op == ltl.OpTrue), nil
	case ltl.OpSymbol:
		return r.letters(single(r.sigma, g.Symbol)), nil
	case ltl.OpPredicate:
		switch g.Pred.Kind {
		case brasp.First:
			return r.blockOf(ltl.OpHistorically), nil
		case brasp.Last:
			return r.blockOf(ltl.OpGlobally), nil
		}
		return nil, fmt.Errorf("%w: %s (it tells apart positions of one block of equal letters)", ErrPredicate, g.Pred.Name())
	case ltl.OpNot:
		return r.not(x), nil
	case ltl.OpAnd:
		return r.and(x, y), nil
	case ltl.OpOr:
		return r.or(x, y), nil
	case ltl.OpImplies:
		return r.or(r.not(x), y), nil
	case ltl.OpIff:
		return r.or(r.and(x, y), r.and(r.not(x), r.not(y))), nil
	case ltl.OpSinceNS, ltl.OpUntilNS, ltl.OpOnce, ltl.OpHistorically, ltl.OpEventually, ltl.OpGlobally:
		return r.temporal(g.Op, x, y), nil
	case ltl.OpSince:
		return r.prev(r.temporal(ltl.OpSinceNS, x, y)), nil
	case ltl.OpUntil:
		return r.next(r.temporal(ltl.OpUntilNS, x, y)), nil
	case ltl.OpYesterday:
		return r.prev(x), nil
	case ltl.OpWeakYesterday:
		return r.not(r.prev(r.not(x))), nil
	case ltl.OpNext:
		return r.next(x), nil
	case ltl.OpWeakNext:
		return r.not(r.next(r.not(x))), nil
	}
	return nil, fmt.Errorf("nonstrict: unknown operator %v", g.Op)
}

// temporal builds a non-strict temporal operator, folding constants, and
// folding O, H, F, G of a letter set that is all or nothing.
func (r *rewriter) temporal(op ltl.Op, x, y *ltl.Formula) *ltl.Formula {
	return r.p.Temporal(op, x, y)
}

// prev is "χ holds at the last position before the current block":
// ⋁_a a ∧ (a S (¬a ∧ χ)), memoised per χ.
func (r *rewriter) prev(chi *ltl.Formula) *ltl.Formula {
	return r.change(chi, ltl.OpSinceNS, r.prevOf)
}

// next is "χ holds at the first position after the current block":
// ⋁_a a ∧ (a U (¬a ∧ χ)), memoised per χ.
func (r *rewriter) next(chi *ltl.Formula) *ltl.Formula {
	return r.change(chi, ltl.OpUntilNS, r.nextOf)
}

func (r *rewriter) change(chi *ltl.Formula, op ltl.Op, memo map[*ltl.Formula]*ltl.Formula) *ltl.Formula {
	if out, ok := memo[chi]; ok {
		return out
	}
	out := r.p.False()
	if chi.Op != ltl.OpFalse {
		for a := range r.sigma {
			qa := r.letters(single(r.sigma, a))
			inner := r.p.Temporal(op, qa, r.and(r.not(qa), chi))
			out = r.or(out, r.and(qa, inner))
		}
	}
	memo[chi] = out
	return out
}

// blockOf is ⋁_a a ∧ op a for op = H (the first block) or G (the last).
func (r *rewriter) blockOf(op ltl.Op) *ltl.Formula {
	out := r.p.False()
	for a := range r.sigma {
		qa := r.letters(single(r.sigma, a))
		out = r.or(out, r.and(qa, r.p.Temporal(op, qa, nil)))
	}
	return out
}

// The connectives simplify Boolean combinations of letters to canonical
// letter sets, and otherwise use the pool's simplifying constructors.

func (r *rewriter) not(x *ltl.Formula) *ltl.Formula {
	if s, ok := r.setOf(x); ok {
		return r.letters(s.complement())
	}
	return r.p.Not(x)
}

func (r *rewriter) and(x, y *ltl.Formula) *ltl.Formula {
	sx, okx := r.setOf(x)
	sy, oky := r.setOf(y)
	switch {
	case okx && oky:
		return r.letters(sx.and(sy))
	case okx:
		return r.andLetters(sx, x, y)
	case oky:
		return r.andLetters(sy, y, x)
	}
	return r.p.And(x, y)
}

// andLetters is c ∧ g for the letter set c (written cf): it drops the
// disjuncts of g that are false on the letters of c, such as the other
// letters' cases of prev and next, and then applies atLetters.
func (r *rewriter) andLetters(c letterSet, cf, g *ltl.Formula) *ltl.Formula {
	if g.Op == ltl.OpOr {
		if h := r.restrict(c, g); h != g {
			return r.and(cf, h)
		}
	}
	if g.Op == ltl.OpAnd {
		for _, xy := range [][2]*ltl.Formula{{g.X, g.Y}, {g.Y, g.X}} {
			if d, ok := r.setOf(xy[0]); ok {
				return r.and(r.letters(c.and(d)), xy[1])
			}
		}
	}
	if h, ok := r.atLetters(c, g); ok {
		return h
	}
	return r.p.And(cf, g)
}

// restrict returns the disjunction g without the disjuncts that are false
// at every position whose letter is in c: those with a conjunct letter set
// disjoint from c.
func (r *rewriter) restrict(c letterSet, g *ltl.Formula) *ltl.Formula {
	switch g.Op {
	case ltl.OpOr:
		x, y := r.restrict(c, g.X), r.restrict(c, g.Y)
		if x == g.X && y == g.Y {
			return g
		}
		return r.or(x, y)
	case ltl.OpAnd:
		for _, h := range []*ltl.Formula{g.X, g.Y} {
			if s, ok := r.setOf(h); ok && s.and(c).count() == 0 {
				return r.p.False()
			}
		}
	}
	if s, ok := r.setOf(g); ok && s.and(c).count() == 0 {
		return r.p.False()
	}
	return g
}

// atLetters simplifies c ∧ g for a letter set c and a non-strict temporal
// formula g whose value at the current position is decided by its letter
// operands alone: φ S ψ and O ψ hold wherever ψ does, and φ S ψ fails where
// neither φ nor ψ holds (likewise U and F); H φ and G φ fail where φ does.
// It returns c or false when g's value on the letters of c is constant.
func (r *rewriter) atLetters(c letterSet, g *ltl.Formula) (*ltl.Formula, bool) {
	switch g.Op {
	case ltl.OpSinceNS, ltl.OpUntilNS:
		if sy, ok := r.setOf(g.Y); ok && sy.and(c).equal(c) {
			return r.letters(c), true
		}
		if sx, ok := r.setOf(g.X); ok {
			if sy, ok := r.setOf(g.Y); ok && sx.or(sy).and(c).count() == 0 {
				return r.p.False(), true
			}
		}
	case ltl.OpOnce, ltl.OpEventually:
		if sx, ok := r.setOf(g.X); ok && sx.and(c).equal(c) {
			return r.letters(c), true
		}
	case ltl.OpHistorically, ltl.OpGlobally:
		if sx, ok := r.setOf(g.X); ok && sx.and(c).count() == 0 {
			return r.p.False(), true
		}
	}
	return nil, false
}

func (r *rewriter) or(x, y *ltl.Formula) *ltl.Formula {
	if sx, ok := r.setOf(x); ok {
		if sy, ok := r.setOf(y); ok {
			return r.letters(sx.or(sy))
		}
	}
	return r.p.Or(x, y)
}

// setOf returns the letters at which x holds, if x is a Boolean combination
// of letters and constants.
func (r *rewriter) setOf(x *ltl.Formula) (letterSet, bool) {
	switch x.Op {
	case ltl.OpTrue:
		return full(r.sigma), true
	case ltl.OpFalse:
		return empty(r.sigma), true
	}
	s, ok := r.sets[x]
	return s, ok
}

// letters returns the canonical formula of a letter set: a constant, one
// letter, the negation of one letter, or the shorter of the disjunction of
// its letters and the negated disjunction of the others.
func (r *rewriter) letters(s letterSet) *ltl.Formula {
	n := s.count()
	var out *ltl.Formula
	switch {
	case n == 0:
		return r.p.False()
	case n == r.sigma:
		return r.p.True()
	case 2*n <= r.sigma || n == 1:
		out = r.p.False()
		for a := range r.sigma {
			if s.has(a) {
				out = r.p.Or(out, r.p.Symbol(a))
			}
		}
	default:
		c := s.complement()
		out = r.p.False()
		for a := range r.sigma {
			if c.has(a) {
				out = r.p.Or(out, r.p.Symbol(a))
			}
		}
		out = r.p.Not(out)
	}
	r.sets[out] = s
	return out
}
