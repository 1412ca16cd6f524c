package toltlf

import (
	"github.com/brasp-dev/brasp/ltlf"
)

// wrapLast is F(last ∧ x): x at the last step.
func (t *translator) wrapLast(x int32) int32 {
	if x == t.tru || x == t.fls {
		return x // the trace is not empty
	}
	last := t.g.Mk(ltlf.WeakNext, t.fls, 0)
	return t.g.Mk(ltlf.Finally, t.and(last, x), 0)
}

func (t *translator) constant(v bool) int32 {
	if v {
		return t.tru
	}
	return t.fls
}

func (t *translator) not(x int32) int32 {
	switch {
	case x == t.tru:
		return t.fls
	case x == t.fls:
		return t.tru
	}
	if n := t.g.Nodes[x]; n.Op == ltlf.Not {
		return n.A
	}
	return t.g.Mk(ltlf.Not, x, 0)
}

// and makes x ∧ y, simplified around constants.
func (t *translator) and(x, y int32) int32 { return t.junction(ltlf.And, x, y) }

// or makes x ∨ y, simplified around constants.
func (t *translator) or(x, y int32) int32 { return t.junction(ltlf.Or, x, y) }

// junction makes x op y for op And or Or: the dominant constant (false for
// And, true for Or) decides it, the neutral one drops out, and x op x is x.
func (t *translator) junction(op ltlf.Op, x, y int32) int32 {
	dominant, neutral := t.fls, t.tru
	if op == ltlf.Or {
		dominant, neutral = t.tru, t.fls
	}
	switch {
	case x == dominant || y == dominant:
		return dominant
	case x == neutral:
		return y
	case y == neutral || x == y:
		return x
	}
	return t.g.Mk(op, x, y)
}

func (t *translator) implies(x, y int32) int32 {
	if x == t.tru || x == t.fls || y == t.tru || y == t.fls || x == y {
		return t.or(t.not(x), y)
	}
	return t.g.Mk(ltlf.Implies, x, y)
}

func (t *translator) iff(x, y int32) int32 {
	switch {
	case x == t.tru:
		return y
	case y == t.tru:
		return x
	case x == t.fls:
		return t.not(y)
	case y == t.fls:
		return t.not(x)
	case x == y:
		return t.tru
	}
	return t.g.Mk(ltlf.Equiv, x, y)
}

// unary makes op x, deciding it when x is a constant and the value does
// not depend on the step.
func (t *translator) unary(op ltlf.Op, x int32) int32 {
	if x == t.tru || x == t.fls {
		switch op {
		case ltlf.Finally, ltlf.Globally, ltlf.Once, ltlf.Historically:
			return x
		case ltlf.WeakNext, ltlf.WeakYesterday:
			if x == t.tru {
				return x
			}
		case ltlf.Next, ltlf.Yesterday:
			if x == t.fls {
				return x
			}
		}
	}
	return t.g.Mk(op, x, 0)
}

// binary makes the non-strict φ U ψ or φ S ψ, decided when ψ is a constant.
func (t *translator) binary(op ltlf.Op, x, y int32) int32 {
	if y == t.tru || y == t.fls {
		return y
	}
	if x == t.fls {
		return y
	}
	if x == t.tru {
		if op == ltlf.Until {
			return t.g.Mk(ltlf.Finally, y, 0)
		}
		return t.g.Mk(ltlf.Once, y, 0)
	}
	return t.g.Mk(op, x, y)
}
