package brasp

import (
	"fmt"
	"math/bits"

	"github.com/brasp-dev/brasp/alphabet"
)

// Programs over propositions. A line
//
//	propositions p q r
//
// at the top of a program declares the atomic propositions p, q and r and
// their initial vectors P_p(i), P_q(i) and P_r(i): P_p(i) is 1 when
// proposition p is true at position i. Such a program reads traces, each
// position a set of true propositions (a valuation), as LTLf does, instead
// of words of symbols; it declares no Q_σ. Everything else is unchanged:
// the same operations, the same acceptance (the output vector at the last
// position). Its inputs are sets, so any number of propositions costs one
// vector each, where the letters of the equivalent program over symbols
// would be all 2^k valuations (ToValuationLetters builds that program, for
// the constructions that need letters).

// StepHas reports whether proposition p is in step, a bit set over
// proposition indices (bit p%64 of step[p/64]).
func StepHas(step []uint64, p int) bool {
	return p >= 0 && p/64 < len(step) && step[p/64]>>(uint(p)%64)&1 == 1
}

// RunSteps runs a program over propositions on a trace with the fast
// interpreter: steps[i] is the set of propositions true at position i
// (a bit set over indices of p.Props; propositions beyond them are
// ignored). On a program over symbols every Q_σ is 0.
func (p *Program) RunSteps(steps [][]uint64) *Trace { return NewRunner(p).RunSteps(steps) }

// RunStepsReference is RunSteps by the paper's definition, literally
// (RunReference on a trace of steps).
func (p *Program) RunStepsReference(steps [][]uint64) *Trace {
	return p.runReference(newTrace(p, nil, steps))
}

// AcceptsSteps reports whether p accepts the trace steps.
func (p *Program) AcceptsSteps(steps [][]uint64) bool { return p.RunSteps(steps).Accept() }

// RunSteps runs the program on a trace of steps (see Program.RunSteps),
// reusing the runner's scratch memory.
func (r *Runner) RunSteps(steps [][]uint64) *Trace { return r.runInto(nil, nil, nil, steps) }

// CompactSteps is a trace of steps stored compactly: its distinct steps
// (Set) and, at each position, the index of its step in Set, a byte each
// (Narrow, at most 256 distinct steps) or two bytes each (Wide); the other
// is nil. A long trace then costs a byte or two per position, never a
// slice per position.
type CompactSteps struct {
	Set    [][]uint64
	Narrow []byte
	Wide   []uint16
}

// Len is the number of positions (0 for nil).
func (c *CompactSteps) Len() int {
	if c == nil {
		return 0
	}
	return len(c.Narrow) + len(c.Wide)
}

// Index is the index in Set of the step at position i.
func (c *CompactSteps) Index(i int) int {
	if c.Narrow != nil {
		return int(c.Narrow[i])
	}
	return int(c.Wide[i])
}

// At is the step at position i.
func (c *CompactSteps) At(i int) []uint64 { return c.Set[c.Index(i)] }

// RunCompact runs a program over propositions on a compactly stored trace
// (see CompactSteps) with the fast interpreter: the trace costs its
// indices and the vectors' bits. The returned trace's Compact is c.
func (r *Runner) RunCompact(c *CompactSteps) *Trace {
	r.compact = c
	defer func() { r.compact = nil }()
	return r.runInto(nil, nil, nil, nil)
}

// fillPropositions fills the proposition vectors from the steps (or the
// runner's compact trace): one pass over the set bits of every step.
func (r *Runner) fillPropositions(steps [][]uint64) {
	p := r.prog
	if cap(r.props) < len(p.Props) {
		r.props = make([][]uint64, len(p.Props))
	}
	props := r.props[:len(p.Props)]
	clear(props)
	for k, v := range p.Vectors {
		if v.Kind == PropositionVector && v.Prop >= 0 && v.Prop < len(props) {
			props[v.Prop] = r.bits[k]
			clear(r.bits[k])
		}
	}
	if c := r.compact; c != nil {
		// The true propositions of each distinct step, listed once.
		lists := make([][]int, len(c.Set))
		for k, s := range c.Set {
			for wi, word := range s {
				for word != 0 {
					b := wi*64 + bits.TrailingZeros64(word)
					word &= word - 1
					if b < len(props) && props[b] != nil {
						lists[k] = append(lists[k], b)
					}
				}
			}
		}
		for i := range c.Len() {
			for _, b := range lists[c.Index(i)] {
				props[b][i>>6] |= 1 << (uint(i) & 63)
			}
		}
		clear(props)
		return
	}
	for i, s := range steps {
		for wi, word := range s {
			for word != 0 {
				b := wi*64 + bits.TrailingZeros64(word)
				word &= word - 1
				if b < len(props) && props[b] != nil {
					props[b][i>>6] |= 1 << (uint(i) & 63)
				}
			}
		}
	}
	clear(props)
}

// MaxValuationProps bounds the propositions of a program that
// ToValuationLetters spells out as 2^k letters.
const MaxValuationProps = 12

// ToValuationLetters returns the program over symbols equivalent to a
// program over propositions: its alphabet is alpha, the 2^k valuations of
// the k propositions (letter v makes proposition i true when bit i of v is
// set), and each P_p(i) becomes the position-wise vector that is 1 on the
// letters where p is true. Every other vector keeps its name and its
// definition, so the two programs have the same trace on corresponding
// inputs. A program over symbols is returned unchanged.
func ToValuationLetters(p *Program, alpha alphabet.Alphabet) (*Program, error) {
	if p.Props == nil {
		return p, nil
	}
	k := len(p.Props)
	if k > MaxValuationProps {
		return nil, fmt.Errorf("%d propositions: the program over their valuations would have 2^%d letters (at most %d propositions)",
			k, k, MaxValuationProps)
	}
	if len(alpha) != 1<<k {
		return nil, fmt.Errorf("internal error: %d letters for the valuations of %d propositions", len(alpha), k)
	}
	b := NewBuilder(alpha)
	return rebuildInputs(p, b, func(v *Vector) (*Vector, error) {
		if v.Kind != PropositionVector {
			return nil, fmt.Errorf("internal error: symbol vector %s in a program over propositions", v.Name)
		}
		var e Expr = Bool(false)
		for l := range alpha {
			if l>>uint(v.Prop)&1 == 1 {
				e = Disjoin(e, b.I(b.SymbolVec(l)))
			}
		}
		return &Vector{Name: v.Name, Kind: PositionwiseVector, Expr: e}, nil
	})
}

// rebuildInputs copies p into b, which has declared the new inputs: each
// initial symbol or proposition vector of p becomes what input makes of it
// (a position-wise vector over the new inputs), every other vector is
// copied with its name, and the output follows.
func rebuildInputs(p *Program, b *Builder, input func(*Vector) (*Vector, error)) (*Program, error) {
	remap := make([]int, len(p.Vectors))
	for k, v := range p.Vectors {
		nv := &Vector{Name: v.Name, Kind: v.Kind, Pred: v.Pred}
		move := func(e Expr) Expr {
			return MapRefs(e, func(x *Ref) Expr { return b.At(remap[x.Vec], x.Var) })
		}
		switch v.Kind {
		case SymbolVector, PropositionVector:
			var err error
			if nv, err = input(v); err != nil {
				return nil, err
			}
		case PositionwiseVector:
			nv.Expr = move(v.Expr)
		case AttentionVector:
			a := v.Att
			nv.Att = &Attention{Tiebreak: a.Tiebreak, Mask: a.Mask, Score: move(a.Score), Value: move(a.Value), Default: move(a.Default)}
		}
		remap[k] = b.add(nv)
	}
	b.setOutputOf(p, remap)
	q, err := b.Program()
	if err != nil {
		return nil, fmt.Errorf("internal error: changing the inputs of a program: %w", err)
	}
	q.File = p.File
	return q, nil
}

// FromValuationLetters is the inverse of ToValuationLetters: a program over
// the 2^k valuations of props (letter v makes proposition i true when bit i
// of v is set) becomes a program over the propositions, each Q_v a
// position-wise vector, the conjunction of P_p or !P_p for every p, named
// Valuation_… after the propositions it makes true. The other vectors keep
// their names and definitions.
func FromValuationLetters(p *Program, props []string) (*Program, error) {
	if len(props) > MaxValuationProps || len(p.Alphabet) != 1<<len(props) {
		return nil, fmt.Errorf("internal error: %d letters for the valuations of %d propositions", len(p.Alphabet), len(props))
	}
	b := NewPropositionBuilder(props)
	return rebuildInputs(p, b, func(v *Vector) (*Vector, error) {
		if v.Kind != SymbolVector {
			return nil, fmt.Errorf("internal error: proposition vector %s in a program over letters", v.Name)
		}
		var e Expr = Bool(true)
		name := "Valuation"
		for q := range props {
			if v.Symbol>>uint(q)&1 == 1 {
				e = Conjoin(e, b.I(q))
				name += "_" + props[q]
			} else {
				e = Conjoin(e, Not(b.I(q)))
			}
		}
		return &Vector{Name: b.Fresh(name), Kind: PositionwiseVector, Expr: e}, nil
	})
}
