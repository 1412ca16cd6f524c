package nonstrict

import (
	"fmt"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/ltl"
	"github.com/brasp-dev/brasp/position"
	"github.com/brasp-dev/brasp/transformer"
)

// Masks is the form of the output: which attention masks it may use.
type Masks uint8

// The two forms of Theorem 5.2's output.
const (
	// NonStrict: attention masked j<=i or i<=j only (future-or-self and
	// past-or-self heads); LTL with S, U, O, H, F, G.
	NonStrict Masks = iota + 1
	// Causal: rightmost attention masked j<=i only, the standard decoder
	// mask with hard attention; LTL with S, O, H.
	Causal
)

// String is the form's name as the CLI spells it (--masks).
func (m Masks) String() string {
	switch m {
	case NonStrict:
		return "non-strict"
	case Causal:
		return "causal"
	}
	return fmt.Sprintf("Masks(%d)", uint8(m))
}

// ParseMasks is the inverse of String.
func ParseMasks(s string) (Masks, error) {
	switch s {
	case "non-strict", "nonstrict":
		return NonStrict, nil
	case "causal":
		return Causal, nil
	}
	return 0, fmt.Errorf("unknown masks %q (want non-strict or causal)", s)
}

// allowed reports whether the temporal operator op may appear in a formula
// of form m.
func (m Masks) allowed(op ltl.Op) bool {
	switch op {
	case ltl.OpSinceNS, ltl.OpOnce, ltl.OpHistorically:
		return true
	case ltl.OpUntilNS, ltl.OpEventually, ltl.OpGlobally:
		return m == NonStrict
	}
	return !op.IsTemporal()
}

// CheckFormula returns an error naming the first subformula of f whose
// operator form m does not allow, or a position predicate (an output of
// Theorem 5.2 reads no positions).
func CheckFormula(f *ltl.Formula, m Masks) error {
	for _, g := range f.Nodes() {
		if g.Op == ltl.OpPredicate {
			return fmt.Errorf("the formula uses the position predicate %s", g.Pred.Name())
		}
		if !m.allowed(g.Op) {
			return fmt.Errorf("the formula uses %s, which %s output does not allow", g.Op, m)
		}
	}
	return nil
}

// CheckProgram returns an error naming the first attention operation of p
// whose mask (or tie-break, for Causal) form m does not allow, or the first
// position predicate p reads.
func CheckProgram(p *brasp.Program, m Masks) error {
	for _, v := range p.Vectors {
		switch v.Kind {
		case brasp.PredicateVector:
			return fmt.Errorf("vector %s is the position predicate %s", v.Name, v.Pred.Name())
		case brasp.AttentionVector:
			a := v.Att
			ok := a.Mask == position.MaskFutureOrSelf || (m == NonStrict && a.Mask == position.MaskPastOrSelf)
			if m == Causal && a.Tiebreak != position.Rightmost {
				ok = false
			}
			if !ok {
				return fmt.Errorf("operation %s is %s [%s, ...], which %s output does not allow", v.Name, a.Tiebreak, a.Mask.Predicate(), m)
			}
		}
	}
	return nil
}

// CheckModel returns an error naming the first head of model whose mask (or
// tie-break, for Causal) form m does not allow, or its first position
// embedding.
func CheckModel(model *transformer.Model, m Masks) error {
	if len(model.Position) > 0 {
		return fmt.Errorf("the model has a %s position embedding", model.Position[0].Kind)
	}
	for l := range model.Layers {
		for h, hd := range model.Layers[l].Heads {
			ok := hd.Mask == position.MaskFutureOrSelf || (m == NonStrict && hd.Mask == position.MaskPastOrSelf)
			if m == Causal && hd.Tiebreak != position.Rightmost {
				ok = false
			}
			if !ok {
				return fmt.Errorf("head %d.%d is [%s, %s], which %s output does not allow", l+1, h+1, hd.Mask, hd.Tiebreak, m)
			}
		}
	}
	return nil
}
