package artifact

import (
	"fmt"
	"slices"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/exact"
	"github.com/brasp-dev/brasp/ltlf"
)

// This file gives programs and models over propositions their exact
// semantics as symbolic DFAs (exact.SymbolicProgramDFA), with no bound on
// the number of propositions, and lets equiv compare them with LTLf
// formulas, MONA's automata and each other symbolically.

// symbolicDFA is the minimal symbolic DFA of a program over propositions.
func (p *Program) symbolicDFA(b *budget.Budget) (*SymbolicDFA, error) {
	d, err := exact.SymbolicProgramDFA(b, p.Prog)
	if err != nil {
		return nil, err
	}
	return &SymbolicDFA{D: d, prog: p.Prog, bud: b}, nil
}

func (p *Program) ownProps() []string { return p.Prog.Props }

// over implements symbolicSide: the program read over props (a superset of
// its propositions, in any order), its symbolic DFA, and its interpreter
// on traces over props.
func (p *Program) over(b *budget.Budget, props []string) (*symbolic.DFA, func(ltlf.Trace) bool, error) {
	q, err := programOver(p.Prog, props)
	if err != nil {
		return nil, nil, err
	}
	d, err := exact.SymbolicProgramDFA(b, q)
	if err != nil {
		return nil, nil, err
	}
	return d, func(t ltlf.Trace) bool { return len(t) > 0 && q.AcceptsSteps(t.Steps()) }, nil
}

// programOver returns p, a program over propositions, reading traces over
// props, which must contain p's propositions: each proposition vector P_p
// reads p's new index; propositions p does not mention are ignored.
func programOver(p *brasp.Program, props []string) (*brasp.Program, error) {
	if slices.Equal(p.Props, props) {
		return p, nil
	}
	q := *p
	q.Props = props
	q.Vectors = slices.Clone(p.Vectors)
	for k, v := range q.Vectors {
		if v.Kind != brasp.PropositionVector {
			continue
		}
		i := slices.Index(props, p.Props[v.Prop])
		if i < 0 {
			return nil, fmt.Errorf("the program's proposition %s is not among %v", p.Props[v.Prop], props)
		}
		nv := *v
		nv.Prop = i
		q.Vectors[k] = &nv
	}
	return &q, nil
}

// modelSide is a model over propositions as equiv compares it: through
// its decompiled program (Theorem 4.2).
type modelSide struct {
	t    *Transformer
	opts DecompileOptions
}

func (s *modelSide) ownProps() []string { return s.t.M.Props }

func (s *modelSide) over(b *budget.Budget, props []string) (*symbolic.DFA, func(ltlf.Trace) bool, error) {
	p, err := decompileModel(b, s.t, s.opts)
	if err != nil {
		return nil, nil, err
	}
	d, _, err := p.over(b, props)
	if err != nil {
		return nil, nil, err
	}
	own := s.t.M.Props
	run := func(t ltlf.Trace) bool {
		if len(t) == 0 {
			return false
		}
		// The model reads its own propositions: renumber the steps.
		steps := make([][]uint64, len(t))
		for i, st := range t {
			steps[i] = make([]uint64, (len(own)+63)/64)
			for j, name := range own {
				if st.Has(slices.Index(props, name)) {
					steps[i][j/64] |= 1 << (j % 64)
				}
			}
		}
		acc, err := s.t.acceptsSteps(steps)
		return err == nil && acc
	}
	return d, run, nil
}

// nonEmptyOnly reports whether a side reads only non-empty traces (a
// program or a model), so that equiv leaves the empty trace out.
func nonEmptyOnly(s symbolicSide) bool {
	switch s := s.(type) {
	case *Program, *modelSide:
		return true
	case *SymbolicDFA:
		return s.prog != nil
	}
	return false
}

// rejectEmpty returns d with the empty trace rejected and every non-empty
// trace as before: its start made rejecting, or, when a transition enters
// the start, a fresh rejecting start with the start's transitions.
func rejectEmpty(d *symbolic.DFA) *symbolic.DFA {
	if !d.Accept[d.Start] {
		return d
	}
	e := *d
	e.Accept = slices.Clone(d.Accept)
	for q := range d.Next {
		if slices.Contains(d.Successors(q), d.Start) {
			e.Next = append(slices.Clone(d.Next), d.Next[d.Start])
			e.Accept = append(e.Accept, false)
			e.Start = len(e.Next) - 1
			return &e
		}
	}
	e.Accept[e.Start] = false
	return &e
}

// monoidDFA is ToDFA for the questions about a language's transition
// monoid (classify, the Krohn–Rhodes cascade): an input over more
// propositions than the valuation letters allow is written over its letter
// classes instead (symbolic.LetterClasses), which have the same monoid,
// each class named by one of its valuations.
func monoidDFA(b *budget.Budget, a Artifact, opts Options) (*automata.DFA, error) {
	if props, ok := propsOf(a); !ok || len(props) <= maxValuationProps {
		return ToDFA(b, a, opts)
	}
	c, err := Convert(b, a, KindDFA, opts)
	if err != nil {
		return nil, err
	}
	s, ok := c.(*SymbolicDFA)
	if !ok {
		return ToDFA(b, a, opts)
	}
	d, _, err := symbolic.LetterClasses(b, s.D, func(v []bool) string { return valuationName(s.D.Props, v) })
	if err != nil {
		return nil, err
	}
	return automata.Minimize(b, d)
}
