package toltlf

import (
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/ltl"
)

// anchor is a first-anchored formula O(first ∧ ψ) or H(first → ψ) (or
// H(¬first ∨ ψ)): its value at every position is ψ's value at the first
// position. ψ is the conjunction (disjunction, for H) of parts: the
// operands of the connective chain the first occurs in.
type anchor struct {
	parts []*ltl.Formula
	or    bool
}

// anchored returns g's anchor when g is first-anchored.
func anchored(g *ltl.Formula) (anchor, bool) {
	isFirst := func(x *ltl.Formula) bool {
		return x.Op == ltl.OpPredicate && x.Pred.Kind == brasp.First
	}
	isNotFirst := func(x *ltl.Formula) bool { return x.Op == ltl.OpNot && isFirst(x.X) }
	// chain splits x into the operands of its op-chain, dropping the
	// first leaf that is a marker, and reports whether there was one.
	chain := func(x *ltl.Formula, op ltl.Op, marker func(*ltl.Formula) bool) ([]*ltl.Formula, bool) {
		var parts []*ltl.Formula
		found := false
		var walk func(y *ltl.Formula)
		walk = func(y *ltl.Formula) {
			switch {
			case y.Op == op:
				walk(y.X)
				walk(y.Y)
			case !found && marker(y):
				found = true
			default:
				parts = append(parts, y)
			}
		}
		walk(x)
		return parts, found
	}
	switch g.Op {
	case ltl.OpOnce:
		if parts, ok := chain(g.X, ltl.OpAnd, isFirst); ok {
			return anchor{parts: parts}, true
		}
	case ltl.OpHistorically:
		if x := g.X; x.Op == ltl.OpImplies && isFirst(x.X) {
			return anchor{parts: []*ltl.Formula{x.Y}}, true
		}
		if parts, ok := chain(g.X, ltl.OpOr, isNotFirst); ok {
			return anchor{parts: parts, or: true}, true
		}
	}
	return anchor{}, false
}

// futureAnchor reports whether the anchor's ψ has a future operator.
func (t *translator) futureAnchor(a anchor) bool {
	for _, p := range a.parts {
		if t.future[p.ID()] {
			return true
		}
	}
	return false
}

// atStart is the anchor's ψ translated at the first position.
func (t *translator) atStart(a anchor) (int32, error) {
	out := t.constant(!a.or)
	for _, p := range a.parts {
		x, err := t.top(p, atFirst)
		if err != nil {
			return 0, err
		}
		if a.or {
			out = t.or(out, x)
		} else {
			out = t.and(out, x)
		}
	}
	return out, nil
}
