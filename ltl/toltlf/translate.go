package toltlf

import (
	"errors"
	"fmt"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/ltl"
	"github.com/brasp-dev/brasp/ltlf"
)

// ErrUnsupported: the formula uses something the translation does not
// express in LTLf (a MOD, Mid or PERIODIC predicate, or more
// first-anchored subformulas under temporal operators than the case
// analysis takes); package exact then builds its automaton with the
// bimachine of its B-RASP translation.
var ErrUnsupported = errors.New("not translatable to LTLf")

// maxAnchors bounds the first-anchored subformulas one formula conditions
// on (2^maxAnchors cases).
const maxAnchors = 6

// maxSetBytes bounds the letter sets of the translation.
var maxSetBytes = budget.Define("ltl-letter-set-bytes", 1<<28, "bytes",
	"bytes of the letter sets of the Boolean subformulas of an LTL formula translated to LTLf (subformulas × letters / 8)")

// Translate returns an LTLf formula over the propositions of Encoding(f's
// alphabet) that holds at the first step of the encoding of a non-empty
// word exactly when f holds at the word's last position (the package
// documentation gives the rules). It returns an error wrapping
// ErrUnsupported for formulas outside its reach, and budget errors.
func Translate(b *budget.Budget, f *ltl.Formula) (*ltlf.Formula, error) {
	alpha := f.Alphabet()
	t := &translator{
		b:       b,
		letters: len(alpha),
		bits:    Bits(len(alpha)),
		first:   map[*ltl.Formula]int32{},
		meter:   b.Meter(maxSetBytes, "letter sets of the LTL formula"),
	}
	t.g = ltlf.NewFormula(Props(len(alpha)))
	t.tru = t.g.Mk(ltlf.True, 0, 0)
	t.fls = t.g.Mk(ltlf.False, 0, 0)
	nodes := f.Nodes()
	n := f.Pool().Len()
	t.sets = make([][]uint64, n)
	t.future = make([]bool, n)
	t.diag = make([]int32, n)
	for i := range t.diag {
		t.diag[i] = -1
	}
	for _, g := range nodes {
		if g.Op == ltl.OpPredicate && g.Pred.Kind != brasp.First && g.Pred.Kind != brasp.Last {
			return nil, fmt.Errorf("%w: predicate %s", ErrUnsupported, g.Pred.Name())
		}
	}
	if err := t.letterSets(nodes); err != nil {
		return nil, err
	}
	root, err := t.top(f, atLast)
	if err != nil {
		return nil, err
	}
	t.g.Root = root
	return t.g, nil
}

// mode says where the translated formula is read: at the last position of
// the word, or at the first.
type mode uint8

const (
	atLast mode = iota
	atFirst
)

type translator struct {
	b        *budget.Budget
	letters  int
	bits     int
	g        *ltlf.Formula
	tru, fls int32
	meter    *budget.Meter
	// sets holds, by ID, the letter set of each pure subformula (symbols,
	// constants and Boolean connectives only; nil for the others): bit a
	// of the set says whether the subformula holds on letter a.
	sets [][]uint64
	// diag holds, by ID, the LTLf formula over the code bits of each pure
	// subformula translated so far (-1: not yet).
	diag []int32
	// future says, by ID, which subformulas contain a future temporal
	// operator.
	future []bool
	// first holds the translations at the first position made by top.
	first map[*ltl.Formula]int32
}

// context is one translation of a formula under one assignment of truth
// values to first-anchored subformulas.
type context struct {
	assume map[*ltl.Formula]bool
	memo   map[*ltl.Formula]int32 // tr
	atMemo map[*ltl.Formula]int32 // at, in the context's one mode
	// need collects the anchored subformulas met under a temporal
	// operator with no assumed value.
	need []*ltl.Formula
}

// errNeed stops a translation that met an anchored subformula it must
// condition on.
var errNeed = errors.New("anchored subformula needs a case analysis")

// top translates f read in mode m, conditioning on the first-anchored
// subformulas that occur under temporal operators: with c_1 … c_k their
// values at the first position (each itself translated at the first
// position), f is the disjunction over the assignments β of
// (∧_j c_j ↔ β_j) ∧ f[c := β], since a first-anchored subformula has the
// same value at every position.
func (t *translator) top(f *ltl.Formula, m mode) (int32, error) {
	if x, ok := t.first[f]; ok && m == atFirst {
		return x, nil
	}
	x, err := t.cases(f, m)
	if err == nil && m == atFirst {
		t.first[f] = x
	}
	return x, err
}

func (t *translator) cases(f *ltl.Formula, m mode) (int32, error) {
	var anchors []*ltl.Formula
	for {
		if len(anchors) > maxAnchors {
			return 0, fmt.Errorf("%w: more than %d subformulas O(first & φ) with future φ under temporal operators",
				ErrUnsupported, maxAnchors)
		}
		// The anchors' own translations at the first position.
		vals := make([]int32, len(anchors))
		for j, a := range anchors {
			an, _ := anchored(a)
			v, err := t.atStart(an)
			if err != nil {
				return 0, err
			}
			vals[j] = v
		}
		out := t.fls
		var need []*ltl.Formula
		for beta := 0; beta < 1<<len(anchors); beta++ {
			c := &context{assume: map[*ltl.Formula]bool{}, memo: map[*ltl.Formula]int32{}, atMemo: map[*ltl.Formula]int32{}}
			cond := t.tru
			for j, a := range anchors {
				val := beta>>j&1 == 1
				c.assume[a] = val
				if val {
					cond = t.and(cond, vals[j])
				} else {
					cond = t.and(cond, t.not(vals[j]))
				}
			}
			x, err := t.at(c, f, m)
			if errors.Is(err, errNeed) {
				need = c.need
				break
			}
			if err != nil {
				return 0, err
			}
			out = t.or(out, t.and(cond, x))
			if err := t.b.Step(1); err != nil {
				return 0, err
			}
		}
		if need == nil {
			return out, nil
		}
		anchors = append(anchors, need...)
	}
}

// at translates g read at the last (or first) position into a formula
// read at the first step. At those positions the temporal operators that
// look past the end (or before the start) are decided, and Boolean
// connectives commute with "at the last position" because there is exactly
// one; what is left is F(last ∧ T(g)) (or T(g)).
func (t *translator) at(c *context, g *ltl.Formula, m mode) (int32, error) {
	if x, ok := c.atMemo[g]; ok {
		return x, nil
	}
	x, err := t.at1(c, g, m)
	if err == nil {
		c.atMemo[g] = x
	}
	return x, err
}

func (t *translator) at1(c *context, g *ltl.Formula, m mode) (int32, error) {
	if v, ok := c.assume[g]; ok {
		return t.constant(v), nil
	}
	if an, ok := anchored(g); ok {
		return t.atStart(an)
	}
	if t.sets[g.ID()] != nil {
		if m == atFirst {
			return t.letterFormula(g), nil
		}
		return t.wrapLast(t.letterFormula(g)), nil
	}
	bin := func(op func(x, y int32) int32) (int32, error) {
		x, err := t.at(c, g.X, m)
		if err != nil {
			return 0, err
		}
		y, err := t.at(c, g.Y, m)
		if err != nil {
			return 0, err
		}
		return op(x, y), nil
	}
	switch g.Op {
	case ltl.OpTrue:
		return t.tru, nil
	case ltl.OpFalse:
		return t.fls, nil
	case ltl.OpNot:
		x, err := t.at(c, g.X, m)
		return t.not(x), err
	case ltl.OpAnd:
		return bin(t.and)
	case ltl.OpOr:
		return bin(t.or)
	case ltl.OpImplies:
		return bin(t.implies)
	case ltl.OpIff:
		return bin(t.iff)
	case ltl.OpPredicate:
		if (m == atLast) == (g.Pred.Kind == brasp.Last) {
			return t.tru, nil
		}
	}
	switch atEdge[m][g.Op] {
	case edgeFalse:
		return t.fls, nil
	case edgeTrue:
		return t.tru, nil
	case edgeX:
		return t.at(c, g.X, m)
	case edgeY:
		return t.at(c, g.Y, m)
	}
	x, err := t.tr(c, g)
	if err != nil || m == atFirst {
		return x, err
	}
	return t.wrapLast(x), nil
}

// edgeValue is what an operator that looks past the edge of the word is
// worth at that edge.
type edgeValue uint8

const (
	edgeBeyond edgeValue = iota // not such an operator: translated as usual
	edgeFalse                   // strict: there is no position past the edge
	edgeTrue                    // weak
	edgeX                       // reflexive: the operand X at the edge
	edgeY                       // non-strict until or since: Y at the edge
)

// atEdge: the future operators at the last position, the past ones at
// the first.
var atEdge = [...]map[ltl.Op]edgeValue{
	atLast: {ltl.OpNext: edgeFalse, ltl.OpUntil: edgeFalse, ltl.OpWeakNext: edgeTrue,
		ltl.OpEventually: edgeX, ltl.OpGlobally: edgeX, ltl.OpUntilNS: edgeY},
	atFirst: {ltl.OpYesterday: edgeFalse, ltl.OpSince: edgeFalse, ltl.OpWeakYesterday: edgeTrue,
		ltl.OpOnce: edgeX, ltl.OpHistorically: edgeX, ltl.OpSinceNS: edgeY},
}

// tr is T(g), the LTLf formula that holds at step i-1 of the encoded trace
// exactly when g holds at position i of the word:
//
//	letters, Boolean connectives   their code formulas, the same connectives
//	first, last                    Z false, X false (weak next: the last step)
//	φ since ψ, φ until ψ           Y(φ S ψ), X[!](φ U ψ)   (strict → non-strict)
//	S U X N Y Z F G O H            S U X[!] X Y Z F G O H
func (t *translator) tr(c *context, g *ltl.Formula) (int32, error) {
	if x, ok := c.memo[g]; ok {
		return x, nil
	}
	if v, ok := c.assume[g]; ok {
		return t.constant(v), nil
	}
	if an, ok := anchored(g); ok && t.futureAnchor(an) {
		c.need = append(c.need, g)
		return 0, errNeed
	}
	if t.sets[g.ID()] != nil {
		return t.letterFormula(g), nil
	}
	if err := t.b.Step(1); err != nil {
		return 0, err
	}
	var x, y int32
	var err error
	if g.X != nil {
		if x, err = t.tr(c, g.X); err != nil {
			return 0, err
		}
	}
	if g.Y != nil {
		if y, err = t.tr(c, g.Y); err != nil {
			return 0, err
		}
	}
	var r int32
	switch g.Op {
	case ltl.OpPredicate:
		if g.Pred.Kind == brasp.First {
			r = t.g.Mk(ltlf.WeakYesterday, t.fls, 0)
		} else {
			r = t.g.Mk(ltlf.WeakNext, t.fls, 0)
		}
	case ltl.OpNot:
		r = t.not(x)
	case ltl.OpAnd:
		r = t.and(x, y)
	case ltl.OpOr:
		r = t.or(x, y)
	case ltl.OpImplies:
		r = t.implies(x, y)
	case ltl.OpIff:
		r = t.iff(x, y)
	case ltl.OpSince:
		r = t.unary(ltlf.Yesterday, t.binary(ltlf.Since, x, y))
	case ltl.OpUntil:
		r = t.unary(ltlf.Next, t.binary(ltlf.Until, x, y))
	case ltl.OpSinceNS:
		r = t.binary(ltlf.Since, x, y)
	case ltl.OpUntilNS:
		r = t.binary(ltlf.Until, x, y)
	default:
		op, ok := unaryOps[g.Op]
		if !ok {
			return 0, fmt.Errorf("%w: operator %s", ErrUnsupported, g.Op)
		}
		r = t.unary(op, x)
	}
	c.memo[g] = r
	return r, nil
}

// unaryOps are the unary LTL operators that are one LTLf operator.
var unaryOps = map[ltl.Op]ltlf.Op{
	ltl.OpNext: ltlf.Next, ltl.OpWeakNext: ltlf.WeakNext,
	ltl.OpYesterday: ltlf.Yesterday, ltl.OpWeakYesterday: ltlf.WeakYesterday,
	ltl.OpEventually: ltlf.Finally, ltl.OpGlobally: ltlf.Globally,
	ltl.OpOnce: ltlf.Once, ltl.OpHistorically: ltlf.Historically,
}
