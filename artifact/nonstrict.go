package artifact

import (
	"fmt"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/ltl"
	"github.com/brasp-dev/brasp/ltl/nonstrict"
)

// This file is Theorem 5.2 as a conversion option: with Options.Masks set,
// converting any input to ltl, brasp or transformer gives the output with
// only non-strict masks (or only the causal mask), or refuses an input whose
// language is not stutter-invariant and star-free with classify's witness.
// Package ltl/nonstrict is the construction; the functions here are the
// edges of maskedEdges (table.go): the input's formula of the asked form
// (rewritten from a formula or program, else built from the minimal DFA),
// Theorem 3.2 with non-strict masks, and the compiler, each result checked
// for its masks.

// Masks is the form Theorem 5.2 builds: nonstrict.NonStrict or
// nonstrict.Causal; zero for the paper's strict masking (no rewriting).
type Masks = nonstrict.Masks

// MaskOptions are what the edges of Theorem 5.2 read: the form asked for,
// what a conversion to brasp does last, and (set by Convert) the input's own acceptance, on
// which a refusal's witness is checked.
type MaskOptions struct {
	Masks   Masks
	BRASP   BRASPOptions
	accepts func([]int) (bool, error)
}

func maskOptions(o *Options) MaskOptions {
	return MaskOptions{Masks: o.Masks, BRASP: o.BRASP, accepts: o.maskInput}
}

// nonstrictOptions are the options of package ltl/nonstrict.
func (o MaskOptions) nonstrictOptions() nonstrict.Options {
	return nonstrict.Options{Masks: o.Masks, Accepts: o.accepts}
}

// MaskedCompileOptions are the compiler's options and the form its model
// must have.
type MaskedCompileOptions struct {
	Compile CompileOptions
	Masks   Masks
}

func maskedCompileOptions(o *Options) MaskedCompileOptions {
	return MaskedCompileOptions{Compile: o.Compile, Masks: o.Masks}
}

// convertMasked is Convert with opts.Masks set and to one of ltl, brasp,
// transformer: the edge of maskedEdges from a's kind.
func convertMasked(b *budget.Budget, a Artifact, to Kind, opts Options) (Artifact, error) {
	if opts.BRASP.FutureOnly || opts.BRASP.NormalForm != "" {
		return nil, fmt.Errorf("--masks %s does not combine with --future-only or a normal form", opts.Masks)
	}
	if t, ok := a.(*Transformer); ok && t.M.IsTransducer() {
		return nil, fmt.Errorf("the model is a transducer; --masks is for acceptors")
	}
	e, ok := maskedEdge(a.Kind(), to)
	if !ok {
		return nil, fmt.Errorf("%w from %s to %s with --masks %s", ErrNoConversion, a.Kind(), to, opts.Masks)
	}
	opts.maskInput = a.Accepts
	return e.run(b, a, &opts)
}

// maskedEdge looks up the route of maskedEdges from one kind to another.
func maskedEdge(from, to Kind) (route, bool) { return lookup(maskedEdges(), from, to) }

// maskedFormula wraps a formula of Theorem 5.2 with its sizes.
func maskedFormula(f *ltl.Formula, m Masks) *Formula {
	note := fmt.Sprintf("Thm 5.2, --masks %s: temporal depth %d, DAG size %d, tree size %d.", m, f.Depth(), f.DAGSize(), f.TreeSize())
	return &Formula{F: f, Note: note}
}

// maskFormula rewrites a formula into the asked form (nonstrict.FromFormula).
func maskFormula(b *budget.Budget, f *Formula, o MaskOptions) (*Formula, error) {
	g, err := nonstrict.FromFormula(b, f.F, o.nonstrictOptions())
	if err != nil {
		return nil, err
	}
	return maskedFormula(g, o.Masks), nil
}

// maskProgram rewrites a program into a formula of the asked form
// (nonstrict.FromProgram); a program over propositions is read over its
// valuation letters, as every construction to ltl reads it.
func maskProgram(b *budget.Budget, p *Program, o MaskOptions) (*Formula, error) {
	prog, err := p.letters()
	if err != nil {
		return nil, err
	}
	g, err := nonstrict.FromProgram(b, prog, o.nonstrictOptions())
	if err != nil {
		return nil, err
	}
	return maskedFormula(g, o.Masks), nil
}

// maskDFA builds a formula of the asked form from the minimal DFA
// (nonstrict.FromDFA).
func maskDFA(b *budget.Budget, d *DFA, o MaskOptions) (*Formula, error) {
	m, err := automata.Minimize(b, d.D)
	if err != nil {
		return nil, err
	}
	g, err := nonstrict.FromDFA(b, m, o.nonstrictOptions())
	if err != nil {
		return nil, err
	}
	return maskedFormula(g, o.Masks), nil
}

// maskedToBRASP is Theorem 3.2 with non-strict (or causal) masks
// (nonstrict.ToProgram), then what every conversion to brasp does last
// (BRASPOptions; --future-only and the normal forms are refused with
// --masks).
func maskedToBRASP(b *budget.Budget, f *Formula, o MaskOptions) (*Program, error) {
	p, err := nonstrict.ToProgram(f.F, o.Masks)
	if err != nil {
		return nil, err
	}
	fin, err := finishProgram(b, NewProgram(p), Options{BRASP: o.BRASP})
	if err != nil {
		return nil, err
	}
	return fin.(*Program), nil
}

// compileMasked is the compiler, with the model checked to have only the
// asked masks.
func compileMasked(b *budget.Budget, p *Program, o MaskedCompileOptions) (*Transformer, error) {
	t, err := compileProgram(b, p, o.Compile)
	if err != nil {
		return nil, err
	}
	if err := nonstrict.CheckModel(t.M, o.Masks); err != nil {
		return nil, fmt.Errorf("internal error: the compiled model: %w", err)
	}
	return t, nil
}
