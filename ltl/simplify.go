package ltl

// The methods in this file build formulas with light simplification: constant
// folding, x & x = x, x & !x = false (and duals), no double negation, and a
// canonical operand order for the commutative connectives so that more
// subformulas are shared. They never change the meaning of a formula; the
// converters build with them. The parser uses Unary and Binary instead, so a
// parsed formula is kept exactly as written.

// Not returns ¬x, simplified.
func (p *Pool) Not(x *Formula) *Formula {
	switch x.Op {
	case OpTrue:
		return p.False()
	case OpFalse:
		return p.True()
	case OpNot:
		return x.X
	}
	return p.Unary(OpNot, x)
}

func complementary(x, y *Formula) bool {
	return (x.Op == OpNot && x.X == y) || (y.Op == OpNot && y.X == x)
}

// And returns the conjunction of xs (true if xs is empty), simplified.
func (p *Pool) And(xs ...*Formula) *Formula {
	acc := p.True()
	for _, x := range xs {
		acc = p.and2(acc, x)
	}
	return acc
}

// Or returns the disjunction of xs (false if xs is empty), simplified.
func (p *Pool) Or(xs ...*Formula) *Formula {
	acc := p.False()
	for _, x := range xs {
		acc = p.or2(acc, x)
	}
	return acc
}

func (p *Pool) and2(x, y *Formula) *Formula {
	switch {
	case x.Op == OpFalse || y.Op == OpFalse || complementary(x, y):
		return p.False()
	case x.Op == OpTrue || x == y:
		return y
	case y.Op == OpTrue:
		return x
	}
	if y.id < x.id {
		x, y = y, x
	}
	return p.Binary(OpAnd, x, y)
}

func (p *Pool) or2(x, y *Formula) *Formula {
	switch {
	case x.Op == OpTrue || y.Op == OpTrue || complementary(x, y):
		return p.True()
	case x.Op == OpFalse || x == y:
		return y
	case y.Op == OpFalse:
		return x
	}
	if y.id < x.id {
		x, y = y, x
	}
	return p.Binary(OpOr, x, y)
}

// Implies returns x → y as ¬x ∨ y, simplified.
func (p *Pool) Implies(x, y *Formula) *Formula { return p.Or(p.Not(x), y) }

// Iff returns x ↔ y, simplified.
func (p *Pool) Iff(x, y *Formula) *Formula {
	switch {
	case x == y:
		return p.True()
	case complementary(x, y):
		return p.False()
	case x.Op == OpTrue:
		return y
	case y.Op == OpTrue:
		return x
	case x.Op == OpFalse:
		return p.Not(y)
	case y.Op == OpFalse:
		return p.Not(x)
	}
	if y.id < x.id {
		x, y = y, x
	}
	return p.Binary(OpIff, x, y)
}

// Since returns the paper's strict x since y, simplified.
func (p *Pool) Since(x, y *Formula) *Formula { return p.Temporal(OpSince, x, y) }

// Until returns the paper's strict x until y, simplified.
func (p *Pool) Until(x, y *Formula) *Formula { return p.Temporal(OpUntil, x, y) }

// Temporal returns the temporal operator op applied to x (and y for the binary
// ones; y is ignored for unary operators), with constant folding.
func (p *Pool) Temporal(op Op, x, y *Formula) *Formula {
	switch op {
	case OpSince, OpUntil:
		if y.Op == OpFalse {
			return p.False()
		}
	case OpSinceNS, OpUntilNS:
		switch {
		case y.Op == OpFalse || y.Op == OpTrue:
			return y
		case x.Op == OpFalse:
			return y
		}
	case OpNext, OpYesterday:
		if x.Op == OpFalse {
			return x
		}
	case OpWeakNext, OpWeakYesterday:
		if x.Op == OpTrue {
			return x
		}
	case OpEventually, OpGlobally, OpOnce, OpHistorically:
		if x.Op == OpTrue || x.Op == OpFalse {
			return x
		}
	default:
		panic("ltl: Temporal with operator " + op.String())
	}
	if op.Arity() == 1 {
		return p.Unary(op, x)
	}
	return p.Binary(op, x, y)
}

// Simplify rebuilds f with the simplifying constructors, bottom-up; →
// becomes ¬x ∨ y. The result is equivalent to f.
func Simplify(f *Formula) *Formula {
	p := f.pool
	r, _ := rebuild(f, func(g, x, y *Formula) (*Formula, error) {
		switch g.Op {
		case OpFalse, OpTrue, OpSymbol, OpPredicate:
			return g, nil
		case OpNot:
			return p.Not(x), nil
		case OpAnd:
			return p.And(x, y), nil
		case OpOr:
			return p.Or(x, y), nil
		case OpImplies:
			return p.Implies(x, y), nil
		case OpIff:
			return p.Iff(x, y), nil
		}
		return p.Temporal(g.Op, x, y), nil
	})
	return r
}

// rebuild rewrites the DAG of f bottom-up, once per shared node: node calls
// build with the node and the rewritten operands (nil where the node has
// none). It stops at the first error.
func rebuild(f *Formula, build func(g, x, y *Formula) (*Formula, error)) (*Formula, error) {
	memo := map[*Formula]*Formula{}
	for _, g := range f.Nodes() {
		var x, y *Formula
		if g.X != nil {
			x = memo[g.X]
		}
		if g.Y != nil {
			y = memo[g.Y]
		}
		r, err := build(g, x, y)
		if err != nil {
			return nil, err
		}
		memo[g] = r
	}
	return memo[f], nil
}
