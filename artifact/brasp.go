package artifact

import (
	"fmt"
	"strings"
	"sync"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
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

// Alphabet implements Artifact.
func (p *Program) Alphabet() alphabet.Alphabet { return p.Prog.Alphabet }

// Accepts implements Artifact.
func (p *Program) Accepts(w []int) (bool, error) { return p.run(w).Accept(), nil }

// Format implements Artifact.
func (p *Program) Format() ([]byte, error) { return []byte(brasp.Format(p.Prog)), nil }

// IsTransducer implements Transducer.
func (p *Program) IsTransducer() bool { return p.Prog.IsTransducer() }

// Transduce implements Transducer.
func (p *Program) Transduce(w []int) ([]int, alphabet.Alphabet, error) {
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
