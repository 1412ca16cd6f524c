package ltl

import (
	"fmt"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/position"
)

// maxNodes bounds the formulas FromBRASP builds.
var maxNodes = budget.Define("ltl-nodes", 1<<20, "nodes",
	"DAG nodes of the LTL formulas brasp → ltl builds (a node is a few dozen bytes)")

// FromBRASP converts an acceptor into an LTL formula defining the same
// language (Theorem 3.3, proof in App. B.3): w is accepted by p iff
// w, n ⊨ FromBRASP(p). See FromBRASPVectors for the construction.
func FromBRASP(b *budget.Budget, p *brasp.Program) (*Formula, error) {
	if p.IsTransducer() {
		return nil, fmt.Errorf("ltl: FromBRASP: %s is a transducer; LTL formulas define languages (use FromBRASPVectors for its output vectors)", programName(p))
	}
	fs, err := FromBRASPVectors(b, p)
	if err != nil {
		return nil, err
	}
	return fs[p.Output.Accept], nil
}

func programName(p *brasp.Program) string {
	if p.File != "" {
		return p.File
	}
	return "the program"
}

// FromBRASPVectors returns, for every vector P of p, a formula φ_P with
// w ⊨ P(i) iff w, i ⊨ φ_P, all in one pool (so they share subformulas).
//
// It follows the proof of Theorem 3.3. First the program is brought into the
// unary normal forms, brasp.UnaryValue (Prop. B.1) then brasp.UnaryScore
// (Lemma B.2, under the budget's unary-score-copies), which keep every vector's name and
// value. Then, vector by vector: Q_σ becomes the atom σ, a position
// predicate the same predicate atom, a position-wise operation the same
// Boolean combination, and an attention operation with unary score S(j),
// value V(j) and default D(i) becomes, with
//
//	exists_< φ = 1 since φ        exists_> φ = 1 until φ
//	exists φ = exists_< φ | φ | exists_> φ
//	rightmost φ = φ & !exists_> φ  leftmost φ = φ & !exists_< φ
//
// the paper's formulas for the six strict attention kinds
//
//	rightmost [j<i]   (!S since (S & V)) | (!exists_< S & D)
//	rightmost [i<j]   exists_>(rightmost S & V) | (!exists_> S & D)
//	rightmost [1]     exists(rightmost S & V) | (!exists S & D)
//	leftmost  [i<j]   (!S until (S & V)) | (!exists_> S & D)
//	leftmost  [j<i]   exists_<(leftmost S & V) | (!exists_< S & D)
//	leftmost  [1]     exists(leftmost S & V) | (!exists S & D)
//
// and their adaptation to non-strict masks (§5.2) with non-strict operators:
//
//	rightmost [j<=i]  (!S S (S & V)) | (!O S & D)
//	leftmost  [i<=j]  (!S U (S & V)) | (!F S & D)
//	rightmost [i<=j]  F(S & G(S -> V)) | (!F S & D)   (the last S at or after i is the last S)
//	leftmost  [j<=i]  O(S & H(S -> V)) | (!O S & D)
//
// The formulas are built with the simplifying constructors (constant
// folding, no double negation) in one hash-consed pool. The temporal depth of
// φ_P equals the attention depth of P when p uses only rightmost [j<i],
// leftmost [i<j], rightmost [j<=i] and leftmost [i<=j]; the other kinds add
// two levels per attention, as in the paper. Exceeding a limit
// (unary-score-copies, ltl-nodes) gives a *budget.Error naming it.
func FromBRASPVectors(b *budget.Budget, p *brasp.Program) ([]*Formula, error) {
	q, err := brasp.UnaryScore(b, brasp.UnaryValue(p))
	if err != nil {
		return nil, fmt.Errorf("ltl: FromBRASP: %w", err)
	}
	pool := NewPool(p.Alphabet)
	c := &fromConverter{pool: pool, vec: make([]*Formula, len(q.Vectors))}
	for k, v := range q.Vectors {
		f, err := c.vector(v)
		if err != nil {
			return nil, fmt.Errorf("ltl: FromBRASP: vector %s: %w", v.Name, err)
		}
		c.vec[k] = f
		if err := b.Check(maxNodes, int64(pool.Len()), "the formula DAG at vector "+v.Name); err != nil {
			return nil, fmt.Errorf("ltl: FromBRASP: %w", err)
		}
		if err := b.Step(1); err != nil {
			return nil, err
		}
	}
	// The normalised program's vectors by name, looked up once each (a
	// program of tens of thousands of vectors made this quadratic).
	index := make(map[string]int, len(q.Vectors))
	for k, v := range q.Vectors {
		index[v.Name] = k
	}
	out := make([]*Formula, len(p.Vectors))
	for k, v := range p.Vectors {
		m, ok := index[v.Name]
		if !ok {
			return nil, fmt.Errorf("ltl: FromBRASP: the normal forms lost vector %s", v.Name)
		}
		out[k] = c.vec[m]
	}
	return out, nil
}

type fromConverter struct {
	pool *Pool
	vec  []*Formula // formula of each vector of the normalised program
}

// expr translates a Boolean expression over vectors; references at i and
// at j alike become the referenced vector's formula (at j inside the
// temporal operators that the attention formulas wrap around them).
func (c *fromConverter) expr(e brasp.Expr) (*Formula, error) {
	switch e := e.(type) {
	case *brasp.Literal:
		return c.pool.Const(e.Value), nil
	case *brasp.Ref:
		if e.Vec < 0 || e.Vec >= len(c.vec) || c.vec[e.Vec] == nil {
			return nil, fmt.Errorf("reference %s to vector %d out of range", e.Name, e.Vec)
		}
		return c.vec[e.Vec], nil
	case *brasp.UnaryExpr:
		x, err := c.expr(e.X)
		if err != nil {
			return nil, err
		}
		return c.pool.Not(x), nil
	case *brasp.BinaryExpr:
		x, err := c.expr(e.X)
		if err != nil {
			return nil, err
		}
		y, err := c.expr(e.Y)
		if err != nil {
			return nil, err
		}
		if e.Op == brasp.AND {
			return c.pool.And(x, y), nil
		}
		return c.pool.Or(x, y), nil
	}
	return nil, fmt.Errorf("unknown expression %T", e)
}

func (c *fromConverter) vector(v *brasp.Vector) (*Formula, error) {
	p := c.pool
	switch v.Kind {
	case brasp.SymbolVector:
		return p.Symbol(v.Symbol), nil
	case brasp.PredicateVector:
		return p.Predicate(v.Pred), nil
	case brasp.PositionwiseVector:
		return c.expr(v.Expr)
	case brasp.PropositionVector:
		return nil, fmt.Errorf("the program reads propositions; LTL formulas read letters (brasp.ToValuationLetters first)")
	}
	a := v.Att
	if a == nil {
		return nil, fmt.Errorf("vector of kind %s has no attention", v.Kind)
	}
	if brasp.UsesVar(a.Score, brasp.VarI) || brasp.UsesVar(a.Value, brasp.VarI) {
		return nil, fmt.Errorf("score or value reads (i) after the unary normal forms")
	}
	s, err := c.expr(a.Score)
	if err != nil {
		return nil, err
	}
	val, err := c.expr(a.Value)
	if err != nil {
		return nil, err
	}
	d, err := c.expr(a.Default)
	if err != nil {
		return nil, err
	}
	return c.attention(a.Tiebreak, a.Mask, s, val, d)
}

// attention is the paper's formula for one attention operation with unary
// score s, value v and default d (see FromBRASPVectors).
func (c *fromConverter) attention(tb position.Tiebreak, mask position.Mask, s, v, d *Formula) (*Formula, error) {
	p := c.pool
	t := p.True()
	before := func(f *Formula) *Formula { return p.Since(t, f) }
	after := func(f *Formula) *Formula { return p.Until(t, f) }
	exists := func(f *Formula) *Formula { return p.Or(before(f), f, after(f)) }
	rightmost := func(f *Formula) *Formula { return p.And(f, p.Not(after(f))) }
	leftmost := func(f *Formula) *Formula { return p.And(f, p.Not(before(f))) }
	sv := p.And(s, v)
	switch {
	case tb == position.Rightmost && mask == position.MaskFuture:
		return p.Or(p.Since(p.Not(s), sv), p.And(p.Not(before(s)), d)), nil
	case tb == position.Rightmost && mask == position.MaskPast:
		return p.Or(after(p.And(rightmost(s), v)), p.And(p.Not(after(s)), d)), nil
	case tb == position.Rightmost && mask == position.MaskNone:
		return p.Or(exists(p.And(rightmost(s), v)), p.And(p.Not(exists(s)), d)), nil
	case tb == position.Leftmost && mask == position.MaskPast:
		return p.Or(p.Until(p.Not(s), sv), p.And(p.Not(after(s)), d)), nil
	case tb == position.Leftmost && mask == position.MaskFuture:
		return p.Or(before(p.And(leftmost(s), v)), p.And(p.Not(before(s)), d)), nil
	case tb == position.Leftmost && mask == position.MaskNone:
		return p.Or(exists(p.And(leftmost(s), v)), p.And(p.Not(exists(s)), d)), nil
	case tb == position.Rightmost && mask == position.MaskFutureOrSelf:
		return p.Or(p.Temporal(OpSinceNS, p.Not(s), sv), p.And(p.Not(p.Temporal(OpOnce, s, nil)), d)), nil
	case tb == position.Leftmost && mask == position.MaskPastOrSelf:
		return p.Or(p.Temporal(OpUntilNS, p.Not(s), sv), p.And(p.Not(p.Temporal(OpEventually, s, nil)), d)), nil
	case tb == position.Rightmost && mask == position.MaskPastOrSelf:
		last := p.And(s, p.Temporal(OpGlobally, p.Implies(s, v), nil))
		return p.Or(p.Temporal(OpEventually, last, nil), p.And(p.Not(p.Temporal(OpEventually, s, nil)), d)), nil
	case tb == position.Leftmost && mask == position.MaskFutureOrSelf:
		first := p.And(s, p.Temporal(OpHistorically, p.Implies(s, v), nil))
		return p.Or(p.Temporal(OpOnce, first, nil), p.And(p.Not(p.Temporal(OpOnce, s, nil)), d)), nil
	}
	return nil, fmt.Errorf("unknown attention kind %v %v", tb, mask.Predicate())
}
