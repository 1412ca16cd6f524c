package artifact

import (
	"fmt"
	"strings"
	"sync"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/ltlf"
)

// Program is a B-RASP program as an artifact. It keeps compiled runners of
// the fast interpreter for reuse, so running many short words costs no
// recompilation.
type Program struct {
	Prog    *brasp.Program
	runners sync.Pool
	// futureOnly is set by the constructions whose output is a B-RASP
	// program, without position predicates, with only rightmost strict
	// future-masked attention (Thm 5.1's form), so that
	// BRASPOptions.FutureOnly has nothing left to do.
	futureOnly bool
}

// NewProgram wraps a program as an artifact.
func NewProgram(p *brasp.Program) *Program { return &Program{Prog: p} }

// run runs the program on w with a pooled runner.
func (p *Program) run(w []int) *brasp.Trace {
	r, _ := p.runners.Get().(*brasp.Runner)
	if r == nil {
		r = brasp.NewRunner(p.Prog)
	}
	t := r.Run(w)
	p.runners.Put(r)
	return t
}

func loadProgram(_ *budget.Budget, filename string, data []byte) (Artifact, error) {
	p, err := brasp.Parse(filename, data)
	if err != nil {
		return nil, err
	}
	return NewProgram(p), nil
}

// Kind implements Artifact.
func (p *Program) Kind() Kind { return KindBRASP }

// Alphabet implements Artifact: the program's symbols or, for a program
// over propositions, their valuations as for LTLf (nil beyond 12
// propositions: run traces with RunTrace instead).
func (p *Program) Alphabet() alphabet.Alphabet {
	if p.Prog.Props != nil {
		return valuationAlphabet(p.Prog.Props)
	}
	return p.Prog.Alphabet
}

// Accepts implements Artifact. A program over propositions reads the
// valuation letters of Alphabet.
func (p *Program) Accepts(w []int) (bool, error) {
	if p.Prog.Props != nil {
		return p.Prog.AcceptsSteps(valuationSteps(w)), nil
	}
	return p.run(w).Accept(), nil
}

// TraceBytes runs the program on a word stored a byte per symbol (see
// alphabet.ParseCompact and brasp.Runner.RunBytes), so that a long word
// costs a byte per position besides the vectors' bits.
func (p *Program) TraceBytes(w []byte) *brasp.Trace {
	r, _ := p.runners.Get().(*brasp.Runner)
	if r == nil {
		r = brasp.NewRunner(p.Prog)
	}
	t := r.RunBytes(nil, w)
	p.runners.Put(r)
	return t
}

// ReadsTraces implements TraceRunner: a program over propositions reads
// traces.
func (p *Program) ReadsTraces() bool { return p.Prog.Props != nil }

// RunTrace implements TraceRunner: s is a trace such as "a,b;;c" over the
// program's propositions.
func (p *Program) RunTrace(s string) (bool, error) { return p.RunTraceBytes([]byte(s)) }

// RunTraceBytes implements TraceBytesRunner: the trace read compactly
// (readTrace) and run by the fast interpreter on its indices.
func (p *Program) RunTraceBytes(line []byte) (bool, error) {
	t, err := p.runTrace(line)
	if err != nil {
		return false, err
	}
	return t.Accept(), nil
}

// runTrace runs the program over propositions on the trace written in
// line.
func (p *Program) runTrace(line []byte) (*brasp.Trace, error) {
	ct, t, err := readTrace(p.Prog.Props, line, false)
	if err != nil {
		return nil, err
	}
	if ct == nil {
		return p.Prog.RunSteps(t.Steps()), nil
	}
	r, _ := p.runners.Get().(*brasp.Runner)
	if r == nil {
		r = brasp.NewRunner(p.Prog)
	}
	tr := r.RunCompact(compactSteps(ct))
	p.runners.Put(r)
	return tr, nil
}

// TransduceTrace implements TraceTransducer: the output word of a
// transducer over propositions on the trace s.
func (p *Program) TransduceTrace(s string) ([]int, alphabet.Alphabet, error) {
	t, err := p.runTrace([]byte(s))
	if err != nil {
		return nil, nil, err
	}
	out, err := t.Transduce()
	return out, p.Prog.Output.Symbols, err
}

// TraceTabler is implemented by artifacts that print the table of their
// vectors on a trace (brasp run --table on a program over propositions).
type TraceTabler interface {
	TraceTable(s string) (string, error)
}

// TraceTable implements TraceTabler: the program's vectors on the trace s,
// in the layout of the paper's Figure 2.
func (p *Program) TraceTable(s string) (string, error) {
	t, err := ltlf.ParseTrace(p.Prog.Props, s)
	if err != nil {
		return "", err
	}
	return brasp.FormatTable(p.Prog.RunSteps(t.Steps())), nil
}

// letters returns the program itself or, over propositions, the
// equivalent program over their valuation letters (at most 12
// propositions), for the constructions that read letters.
func (p *Program) letters() (*brasp.Program, error) {
	if p.Prog.Props == nil {
		return p.Prog, nil
	}
	return brasp.ToValuationLetters(p.Prog, valuationAlphabet(p.Prog.Props))
}

// valuationSteps turns a word of valuation letters (bit i of letter v: the
// i-th proposition) into a trace of steps.
func valuationSteps(w []int) [][]uint64 {
	steps := make([][]uint64, len(w))
	for i, v := range w {
		steps[i] = []uint64{uint64(v)}
	}
	return steps
}

// Format implements Artifact.
func (p *Program) Format() ([]byte, error) { return []byte(brasp.Format(p.Prog)), nil }

// IsTransducer implements Transducer.
func (p *Program) IsTransducer() bool { return p.Prog.IsTransducer() }

// Transduce implements Transducer.
func (p *Program) Transduce(w []int) ([]int, alphabet.Alphabet, error) {
	if p.Prog.Props != nil {
		out, err := p.Prog.RunSteps(valuationSteps(w)).Transduce()
		return out, p.Prog.Output.Symbols, err
	}
	out, err := p.run(w).Transduce()
	return out, p.Prog.Output.Symbols, err
}

// Table implements Tracer.
func (p *Program) Table(w []int) (string, error) { return brasp.FormatTable(p.run(w)), nil }

// Vectors implements Tracer.
func (p *Program) Vectors(w []int) ([]string, [][]bool, error) {
	t := p.run(w)
	names := make([]string, len(p.Prog.Vectors))
	values := make([][]bool, len(p.Prog.Vectors))
	for k, v := range p.Prog.Vectors {
		names[k] = v.Name
		values[k] = t.Vector(k)
	}
	return names, values, nil
}

// Inspect implements Inspector: every vector with its kind, attention depth
// and whether the output depends on it.
func (p *Program) Inspect() string {
	prog := p.Prog
	live := prog.Live()
	depths := prog.Depths()
	var b strings.Builder
	fmt.Fprintf(&b, "B-RASP program: alphabet {%s}, %d vectors, attention depth %d (program depth %d)\n",
		prog.Alphabet, len(prog.Vectors), prog.AttentionDepth(), prog.ProgramDepth())
	for k, v := range prog.Vectors {
		mark := ""
		if !live[k] {
			mark = "  (unused by the output)"
		}
		fmt.Fprintf(&b, "  %3d  %-13s depth %d  %s%s\n", k, v.Kind, depths[k], brasp.FormatVector(v), mark)
	}
	if prog.IsTransducer() {
		fmt.Fprintf(&b, "transducer over output symbols {%s}\n", prog.Output.Symbols)
	} else {
		fmt.Fprintf(&b, "accepts iff %s is 1 at the last position\n", brasp.QuoteName(prog.Vectors[prog.Output.Accept].Name))
	}
	return b.String()
}
