package artifact

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/ltl"
)

// Formula is an LTL formula (package ltl) as an artifact.
type Formula struct {
	F *ltl.Formula
	// Note, if set, is written as a comment above the formula by Format (a
	// converter says where the formula came from and how large it is).
	Note string

	once sync.Once
	ev   *ltl.Evaluator
}

// NewFormula wraps a formula as an artifact.
func NewFormula(f *ltl.Formula) *Formula { return &Formula{F: f} }

func loadFormula(_ *budget.Budget, filename string, data []byte) (Artifact, error) {
	f, err := ltl.ParseFile(filename, data)
	if err != nil {
		return nil, err
	}
	return &Formula{F: f}, nil
}

// Kind implements Artifact.
func (f *Formula) Kind() Kind { return KindLTL }

// Alphabet implements Artifact.
func (f *Formula) Alphabet() alphabet.Alphabet { return f.F.Alphabet() }

// Accepts implements Artifact with the linear-time evaluator: w is accepted
// iff w, n ⊨ φ.
func (f *Formula) Accepts(w []int) (bool, error) {
	return f.evaluator().Accepts(w), nil
}

// AcceptsBytes is Accepts for a word stored a byte per symbol.
func (f *Formula) AcceptsBytes(w []byte) bool { return f.evaluator().AcceptsBytes(w) }

func (f *Formula) evaluator() *ltl.Evaluator {
	f.once.Do(func() { f.ev = ltl.NewEvaluator(f.F) })
	return f.ev
}

// Format implements Artifact: the .ltl file, with the note as comments.
func (f *Formula) Format() ([]byte, error) {
	var b strings.Builder
	if f.Note != "" {
		for _, line := range strings.Split(strings.TrimRight(f.Note, "\n"), "\n") {
			b.WriteString("# " + line + "\n")
		}
	}
	b.WriteString(ltl.FormatFile(f.F))
	return []byte(b.String()), nil
}

// Table implements Tracer: one row per subformula.
func (f *Formula) Table(w []int) (string, error) { return ltl.FormatTable(f.F, w), nil }

// Vectors implements Tracer: every subformula's truth values, labelled as
// in Table.
func (f *Formula) Vectors(w []int) ([]string, [][]bool, error) {
	labels, values := ltl.Rows(f.F, w)
	return labels, values, nil
}

// Inspect implements Inspector.
func (f *Formula) Inspect() string {
	return fmt.Sprintf("LTL formula: alphabet {%s}, temporal depth %d, DAG size %d, tree size %d\n%s\n",
		f.F.Alphabet(), f.F.Depth(), f.F.DAGSize(), f.F.TreeSize(), ltl.Format(f.F))
}

// ltlToBRASP is Theorem 3.2. With opts.FutureOnly, a past-only formula is
// compiled with rightmost strict future-masked attention alone, at the same
// depth (ltl.ToBRASPFutureOnly); a formula with future operators is
// compiled as usual, and Convert's last stage (finishProgram) takes the
// program through Theorem 5.1's route: minimal DFA → Krohn–Rhodes cascade →
// B-RASP.
func ltlToBRASP(_ *budget.Budget, f *Formula, opts BRASPOptions) (*Program, error) {
	if opts.FutureOnly {
		p, err := ltl.ToBRASPFutureOnly(f.F)
		if err == nil {
			return &Program{Prog: p, futureOnly: true}, nil
		}
		if !errors.Is(err, ltl.ErrFutureOperator) {
			return nil, fmt.Errorf("--future-only: %w", err)
		}
	}
	p, err := ltl.ToBRASP(f.F)
	if err != nil {
		return nil, err
	}
	return NewProgram(p), nil
}

// braspToLTL is Theorem 3.3, within the budget (unary-score-copies,
// ltl-nodes).
func braspToLTL(b *budget.Budget, p *Program, _ NoOptions) (*Formula, error) {
	prog, err := p.letters()
	if err != nil {
		return nil, err
	}
	f, err := ltl.FromBRASP(b, prog)
	if err != nil {
		return nil, err
	}
	note := fmt.Sprintf("Converted from B-RASP (Theorem 3.3): attention depth %d, temporal depth %d,\nDAG size %d, tree size %d.",
		prog.AttentionDepth(), f.Depth(), f.DAGSize(), f.TreeSize())
	return &Formula{F: f, Note: note}, nil
}
