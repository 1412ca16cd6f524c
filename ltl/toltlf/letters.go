package toltlf

import (
	"github.com/brasp-dev/brasp/ltl"
	"github.com/brasp-dev/brasp/ltlf"
)

// letterSets computes the letter set of every pure subformula among
// nodes (operands first).
func (t *translator) letterSets(nodes []*ltl.Formula) error {
	words := max(1, (t.letters+63)/64)
	var slab []uint64 // the sets are cut from chunks of 64 sets
	alloc := func() []uint64 {
		if len(slab) < words {
			slab = make([]uint64, 64*words)
		}
		s := slab[:words:words]
		slab = slab[words:]
		return s
	}
	set := func(x *ltl.Formula) ([]uint64, bool) {
		if x == nil {
			return nil, false
		}
		s := t.sets[x.ID()]
		return s, s != nil
	}
	full := make([]uint64, words)
	for a := range t.letters {
		full[a/64] |= 1 << (a % 64)
	}
	for _, g := range nodes {
		switch g.Op {
		case ltl.OpUntil, ltl.OpUntilNS, ltl.OpNext, ltl.OpWeakNext, ltl.OpEventually, ltl.OpGlobally:
			t.future[g.ID()] = true
		default:
			t.future[g.ID()] = (g.X != nil && t.future[g.X.ID()]) || (g.Y != nil && t.future[g.Y.ID()])
		}
		var s []uint64
		x, xok := set(g.X)
		y, yok := set(g.Y)
		switch g.Op {
		case ltl.OpTrue:
			s = full
		case ltl.OpFalse:
			s = alloc()
		case ltl.OpSymbol:
			s = alloc()
			s[g.Symbol/64] |= 1 << (g.Symbol % 64)
		case ltl.OpNot:
			if xok {
				s = alloc()
				for i := range s {
					s[i] = full[i] &^ x[i]
				}
			}
		case ltl.OpAnd, ltl.OpOr, ltl.OpImplies, ltl.OpIff:
			if xok && yok {
				s = alloc()
				for i := range s {
					switch g.Op {
					case ltl.OpAnd:
						s[i] = x[i] & y[i]
					case ltl.OpOr:
						s[i] = x[i] | y[i]
					case ltl.OpImplies:
						s[i] = (^x[i] | y[i]) & full[i]
					case ltl.OpIff:
						s[i] = ^(x[i] ^ y[i]) & full[i]
					}
				}
			}
		}
		if s == nil {
			continue
		}
		t.sets[g.ID()] = s
		if err := t.meter.Add(int64(8 * words)); err != nil {
			return err
		}
		if err := t.b.Step(int64(words)); err != nil {
			return err
		}
	}
	return nil
}

// letterFormula is the LTLf formula over the code bits that holds of
// exactly the codes of the letters in s; codes of no letter are don't-cares.
func (t *translator) letterFormula(g *ltl.Formula) int32 {
	if x := t.diag[g.ID()]; x >= 0 {
		return x
	}
	x, _ := t.decide(t.sets[g.ID()], 0, 0)
	t.diag[g.ID()] = x
	return x
}

// decide builds the decision diagram of s over the codes lo … lo+2^(bits-level)-1
// as a formula; dc reports that no letter has a code in that range.
func (t *translator) decide(s []uint64, level, lo int) (x int32, dc bool) {
	if lo >= t.letters {
		return 0, true
	}
	if level == t.bits {
		if s[lo/64]>>(lo%64)&1 == 1 {
			return t.tru, false
		}
		return t.fls, false
	}
	half := 1 << (t.bits - level - 1)
	l, ldc := t.decide(s, level+1, lo)
	h, hdc := t.decide(s, level+1, lo+half)
	switch {
	case hdc:
		return l, false
	case ldc:
		return h, false
	}
	return t.ite(level, h, l), false
}

// ite is (b_v ∧ h) ∨ (¬b_v ∧ l), with the usual simplifications.
func (t *translator) ite(v int, h, l int32) int32 {
	g := t.g
	if h == l {
		return h
	}
	p := g.Mk(ltlf.Prop, int32(v), 0)
	np := g.Mk(ltlf.Not, p, 0)
	switch {
	case h == t.tru && l == t.fls:
		return p
	case h == t.fls && l == t.tru:
		return np
	case l == t.fls:
		return g.Mk(ltlf.And, p, h)
	case h == t.fls:
		return g.Mk(ltlf.And, np, l)
	case h == t.tru:
		return g.Mk(ltlf.Or, p, l)
	case l == t.tru:
		return g.Mk(ltlf.Or, np, h)
	}
	return g.Mk(ltlf.Or, g.Mk(ltlf.And, p, h), g.Mk(ltlf.And, np, l))
}
