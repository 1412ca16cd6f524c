package artifact

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/guarddfa"
	"github.com/brasp-dev/brasp/automata/monadfa"
	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/ltlf"
)

// KindLTLf is LTLf over atomic propositions in Spot's syntax (package
// ltlf): traces of valuations, read at the first step.
const KindLTLf Kind = "ltlf"

// maxValuationProps bounds the propositions of an LTLf formula whose
// valuations are spelled out as letters (2^k of them) for the letter-based
// kinds; the symbolic constructions have no such bound.
const maxValuationProps = 12

// LTLf is a loaded .ltlf formula. Its letters, for the letter-based kinds,
// are the valuations of its propositions: letter v has proposition i true
// when bit i of v is set, and is named like a trace step, {a,b} or {}.
type LTLf struct {
	F *ltlf.Formula
	// bud bounds the evaluation of traces (the loader's budget).
	bud *budget.Budget
}

func loadLTLf(b *budget.Budget, filename string, data []byte) (Artifact, error) {
	f, err := ltlf.Parse(filename, data)
	if err != nil {
		return nil, err
	}
	return &LTLf{F: f, bud: b}, nil
}

// Kind implements Artifact.
func (f *LTLf) Kind() Kind { return KindLTLf }

// Alphabet implements Artifact: the valuations of the propositions, or nil
// beyond 12 propositions (run traces with RunTrace instead).
func (f *LTLf) Alphabet() alphabet.Alphabet { return valuationAlphabet(f.F.Props) }

// valuationAlphabet names the 2^k valuations of props, or nil beyond
// maxValuationProps propositions.
func valuationAlphabet(props []string) alphabet.Alphabet {
	if len(props) > maxValuationProps {
		return nil
	}
	a := make(alphabet.Alphabet, 1<<len(props))
	for v := range a {
		a[v] = valuationName(props, symbolic.Valuation(len(props), v))
	}
	return a
}

// valuationName names a valuation by its true propositions in sorted
// order, so that inputs listing the same propositions in different orders
// name each valuation alike, each quoted as a trace quotes it
// (ltlf.QuoteProp), so that a word of these letters joined by ';' is a
// trace that brasp run reads back.
func valuationName(props []string, val []bool) string {
	var names []string
	for i, b := range val {
		if b {
			names = append(names, props[i])
		}
	}
	slices.Sort(names)
	for k, n := range names {
		names[k] = ltlf.QuoteProp(n)
	}
	return "{" + strings.Join(names, ",") + "}"
}

// Accepts implements Artifact on a word of valuation letters.
func (f *LTLf) Accepts(w []int) (bool, error) {
	if len(w) == 0 {
		return false, fmt.Errorf("empty trace: LTLf traces are non-empty")
	}
	t := make(ltlf.Trace, len(w))
	for i, v := range w {
		for p := range f.F.Props {
			if v>>p&1 == 1 {
				t[i] = t[i].With(p)
			}
		}
	}
	return f.F.Eval(t), nil
}

// RunTrace implements TraceRunner: s is a trace such as "a,b;;c" (or a
// blank line, the empty trace, under the empty-trace semantics).
func (f *LTLf) RunTrace(s string) (bool, error) { return f.RunTraceBytes([]byte(s)) }

// RunTraceBytes implements TraceBytesRunner: the trace read compactly
// (readTrace) and evaluated a bit per step (ltlf.Formula.EvalCompact)
// within the loader's budget.
func (f *LTLf) RunTraceBytes(line []byte) (bool, error) {
	ct, t, err := readTrace(f.F.Props, line, f.F.EmptyTrace)
	switch {
	case err != nil:
		return false, err
	case ct == nil && t == nil:
		return f.F.Eval(nil), nil // the empty trace, under the empty-trace semantics
	case ct == nil:
		return f.F.Eval(t), nil
	}
	return f.F.EvalCompact(f.bud, ct)
}

// Format implements Artifact: the formula in Spot's syntax after a
// propositions line.
func (f *LTLf) Format() ([]byte, error) { return []byte(f.F.Format()), nil }

// Inspect implements Inspector.
func (f *LTLf) Inspect() string {
	return fmt.Sprintf("ltlf formula over %d propositions (%s), %d distinct subformulas, past operators: %v\n%s\n",
		len(f.F.Props), strings.Join(f.F.Props, " "), f.F.Size(), f.F.HasPast(), f.F)
}

// ReadsTraces implements TraceRunner.
func (f *LTLf) ReadsTraces() bool { return true }

// TraceRunner is implemented by artifacts that may read traces of
// valuations written as steps ("a,b;;c") rather than words of letters:
// those whose ReadsTraces is true.
type TraceRunner interface {
	ReadsTraces() bool
	RunTrace(s string) (bool, error)
}

// TraceTransducer is implemented by transducers that read traces (a
// program or model over propositions with an output symbol per position):
// the output word on the trace s, over the returned output symbols.
type TraceTransducer interface {
	TraceRunner
	Transducer
	TransduceTrace(s string) ([]int, alphabet.Alphabet, error)
}

// ltlfToBRASP is Theorem 3.2 on traces (ltlf.ToBRASP): a program over the
// formula's propositions, one vector per subformula.
func ltlfToBRASP(_ *budget.Budget, f *LTLf, _ NoOptions) (*Program, error) {
	p, err := ltlf.ToBRASP(f.F)
	if err != nil {
		return nil, err
	}
	return NewProgram(p), nil
}

// SymbolicDFA is a DFA over valuations whose transitions are decision
// diagrams over the propositions (package automata/symbolic): what
// ltlf → dfa gives. It is of kind dfa; its letters, where a letter
// automaton is needed, are the valuations as for LTLf.
type SymbolicDFA struct {
	D *symbolic.DFA
	// mona is the automaton D was read from, when it is MONA's -w output,
	// guards the one read from brasp's own guard format, and prog the
	// program over propositions D was built from, to build it again over
	// more propositions or in another order.
	mona   *monadfa.Automaton
	guards *guarddfa.Automaton
	prog   *brasp.Program
	// bud bounds the text Format and Encode write.
	bud *budget.Budget
}

// loadMONA reads MONA's -w output (package automata/monadfa) as a symbolic
// DFA over MONA's free variables.
func loadMONA(b *budget.Budget, filename string, data []byte) (Artifact, error) {
	a, err := monadfa.Parse(filename, data)
	if err != nil {
		return nil, err
	}
	d, err := a.Symbolic(b, a.Vars)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filename, err)
	}
	return &SymbolicDFA{D: d, mona: a, bud: b}, nil
}

// loadGuards reads brasp's guard format for symbolic DFAs (package
// automata/guarddfa, what convert writes for an LTLf formula's DFA).
func loadGuards(b *budget.Budget, filename string, data []byte) (Artifact, error) {
	a, err := guarddfa.Parse(filename, data)
	if err != nil {
		return nil, err
	}
	d, err := a.Symbolic(b, a.Props)
	if err != nil {
		return nil, err
	}
	return &SymbolicDFA{D: d, guards: a, bud: b}, nil
}

// SniffKind recognises a kind from a file's contents, for a file whose
// extension names none: MONA's -w output is a dfa.
func SniffKind(data []byte) (Kind, bool) {
	if monadfa.Looks(data) || guarddfa.Looks(data) {
		return KindDFA, true
	}
	return "", false
}

// symbolicSide is an input that equiv compares symbolically: an LTLf
// formula, or a DFA read from MONA's output. over builds its minimal
// symbolic DFA over props (a superset of its own propositions, in that
// order) and a check of a trace on the input itself.
type symbolicSide interface {
	ownProps() []string
	over(b *budget.Budget, props []string) (*symbolic.DFA, func(ltlf.Trace) bool, error)
}

func (f *LTLf) ownProps() []string { return f.F.Props }

func (f *LTLf) over(b *budget.Budget, props []string) (*symbolic.DFA, func(ltlf.Trace) bool, error) {
	g, err := f.F.WithProps(props)
	if err != nil {
		return nil, nil, err
	}
	d, err := ltlf.ToDFA(b, g)
	return d, g.Eval, err
}

func (s *SymbolicDFA) ownProps() []string { return s.D.Props }

func (s *SymbolicDFA) over(b *budget.Budget, props []string) (*symbolic.DFA, func(ltlf.Trace) bool, error) {
	d := s.D
	if !slices.Equal(props, d.Props) {
		var err error
		switch {
		case s.mona != nil:
			d, err = s.mona.Symbolic(b, props)
		case s.guards != nil:
			d, err = s.guards.Symbolic(b, props)
		case s.prog != nil:
			d, _, err = NewProgram(s.prog).over(b, props)
		default:
			err = fmt.Errorf("the symbolic automaton over %v cannot be read over %v", d.Props, props)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	run := func(t ltlf.Trace) bool {
		q := d.Start
		for _, step := range t {
			q = d.Step(q, step.Has)
		}
		return d.Accept[q]
	}
	return d, run, nil
}

// Kind implements Artifact.
func (s *SymbolicDFA) Kind() Kind { return KindDFA }

// ReadsTraces implements TraceRunner: a symbolic DFA reads traces of
// valuations.
func (s *SymbolicDFA) ReadsTraces() bool { return true }

// RunTrace implements TraceRunner: s is a trace such as "a,b;;c" (or ""
// for the empty trace, which a symbolic DFA may accept).
func (s *SymbolicDFA) RunTrace(text string) (bool, error) { return s.RunTraceBytes([]byte(text)) }

// RunTraceBytes implements TraceBytesRunner: the trace read compactly
// (readTrace) and run state by state.
func (s *SymbolicDFA) RunTraceBytes(line []byte) (bool, error) {
	ct, t, err := readTrace(s.D.Props, line, true)
	if err != nil {
		return false, err
	}
	tr := stepTrace{ct, t}
	q := s.D.Start
	for i := range tr.Len() {
		q = s.D.Step(q, tr.At(i).Has)
	}
	return s.D.Accept[q], nil
}

// Alphabet implements Artifact (nil beyond 12 propositions).
func (s *SymbolicDFA) Alphabet() alphabet.Alphabet { return valuationAlphabet(s.D.Props) }

// Accepts implements Artifact on a word of valuation letters.
func (s *SymbolicDFA) Accepts(w []int) (bool, error) {
	q := s.D.Start
	for _, v := range w {
		q = s.D.Step(q, func(i int) bool { return v>>i&1 == 1 })
	}
	return s.D.Accept[q], nil
}

// Format implements Artifact: symbolic.FormatGuards, one line per edge
// with its guard, within the artifact's budget.
func (s *SymbolicDFA) Format() ([]byte, error) {
	return symbolic.FormatGuards(s.bud, s.D)
}

// Encode implements Encoder: Graphviz for .dot and .gv, the shared
// diagrams (symbolic.FormatDiagram, like MONA's -w) for .bdd, the guard
// format otherwise.
func (s *SymbolicDFA) Encode(filename string) ([]byte, error) {
	switch strings.ToLower(filepath.Ext(filename)) {
	case ".dot", ".gv":
		return symbolic.FormatDOT(s.bud, s.D)
	case ".bdd":
		return []byte(symbolic.FormatDiagram(s.D)), nil
	}
	return s.Format()
}

// Inspect implements Inspector.
func (s *SymbolicDFA) Inspect() string {
	return fmt.Sprintf("symbolic dfa over %d propositions (%s): %d states, %d decision-diagram nodes in the manager\n",
		len(s.D.Props), strings.Join(s.D.Props, " "), s.D.NumStates(), s.D.M.NumNodes())
}

// Letters is the letter automaton of s over the valuations.
func (s *SymbolicDFA) Letters(b *budget.Budget) (*DFA, error) {
	if len(s.D.Props) > maxValuationProps {
		return nil, fmt.Errorf("%d propositions: the letter automaton would have 2^%d letters (at most %d propositions)",
			len(s.D.Props), len(s.D.Props), maxValuationProps)
	}
	d, err := symbolic.ToLetters(b, s.D, func(v []bool) string { return valuationName(s.D.Props, v) })
	if err != nil {
		return nil, err
	}
	m, err := automata.Minimize(b, d)
	if err != nil {
		return nil, err
	}
	return NewDFA(m), nil
}

// LTLfOptions are the options of ltlf → dfa.
type LTLfOptions struct {
	// Unminimized keeps the progression automaton as built, before
	// minimisation (to inspect the construction).
	Unminimized bool
}

// ltlfToDFA is LTLf progression on decision diagrams (ltlf.ToDFA): the
// minimal symbolic DFA.
func ltlfToDFA(b *budget.Budget, f *LTLf, opts LTLfOptions) (*SymbolicDFA, error) {
	var d *symbolic.DFA
	var err error
	if opts.Unminimized {
		d, err = ltlf.ToDFAUnminimized(b, f.F)
		if err == nil && f.F.EmptyTrace {
			d = ltlf.WithEmptyTrace(f.F, d)
		}
	} else {
		d, err = ltlf.ToDFA(b, f.F)
	}
	if err != nil {
		return nil, err
	}
	return &SymbolicDFA{D: d, bud: b}, nil
}

// ltlfToLetterDFA is the minimal DFA over the valuation letters, the
// bridge from LTLf to the letter-based kinds.
func ltlfToLetterDFA(b *budget.Budget, f *LTLf, opts LTLfOptions) (*DFA, error) {
	s, err := ltlfToDFA(b, f, LTLfOptions{})
	if err != nil {
		return nil, err
	}
	return s.Letters(b)
}

// equivSymbolic decides two inputs over propositions (LTLf formulas,
// MONA's DFAs, programs and models) symbolically, over the union of their
// propositions, with a shortest counterexample trace confirmed on both
// inputs. Programs and models read only non-empty traces: when one side is
// one, the empty trace is left out of the comparison.
func equivSymbolic(b *budget.Budget, x, y symbolicSide) (*EquivResult, error) {
	props := union(x.ownProps(), y.ownProps())
	dx, evalX, err := x.over(b, props)
	if err != nil {
		return nil, err
	}
	dy, evalY, err := y.over(b, props)
	if err != nil {
		return nil, err
	}
	if nonEmptyOnly(x) || nonEmptyOnly(y) {
		dx, dy = rejectEmpty(dx), rejectEmpty(dy)
	}
	cex, err := symbolic.Compare(b, dx, dy)
	if err != nil || cex == nil {
		return &EquivResult{Equal: cex == nil}, err
	}
	t := make(ltlf.Trace, len(cex.Trace))
	for i, v := range cex.Trace {
		for p, on := range v {
			if on {
				t[i] = t[i].With(p)
			}
		}
	}
	if evalX(t) != cex.AcceptA || evalY(t) == cex.AcceptA {
		return nil, fmt.Errorf("%w: %s", ErrUnconfirmed, ltlf.FormatTrace(props, t))
	}
	shown := ltlf.FormatTrace(props, t)
	if len(t) == 0 {
		shown = "the empty trace"
	}
	return &EquivResult{Trace: shown, FirstAccepts: cex.AcceptA}, nil
}
