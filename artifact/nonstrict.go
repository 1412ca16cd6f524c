package artifact

import (
	"fmt"

	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/ltl"
	"github.com/brasp-dev/brasp/ltl/nonstrict"
)

// This file is Theorem 5.2 as a conversion option: with Options.Masks set,
// converting any input to ltl, brasp or transformer gives the output with
// only non-strict masks (or only the causal mask), or refuses an input whose
// language is not stutter-invariant and star-free with classify's witness.
// Package ltl/nonstrict is the construction; this file only picks the
// route for each input kind.

// Masks is the form Theorem 5.2 builds: nonstrict.NonStrict or
// nonstrict.Causal; zero for the paper's strict masking (no rewriting).
type Masks = nonstrict.Masks

// convertMasked is Convert with opts.Masks set and to one of ltl, brasp,
// transformer: the input → a formula of the asked form (package
// ltl/nonstrict) → the kind asked for (Thm 3.2 with non-strict masks, then
// the compiler), each result checked for its masks.
func convertMasked(b *budget.Budget, a Artifact, to Kind, opts Options) (Artifact, error) {
	m := opts.Masks
	if opts.BRASP.FutureOnly || opts.BRASP.NormalForm != "" {
		return nil, fmt.Errorf("--masks %s does not combine with --future-only or a normal form", m)
	}
	f, err := maskedFormula(b, a, opts)
	if err != nil {
		return nil, err
	}
	if to == KindLTL {
		note := fmt.Sprintf("Thm 5.2, --masks %s: temporal depth %d, DAG size %d, tree size %d.", m, f.Depth(), f.DAGSize(), f.TreeSize())
		return &Formula{F: f, Note: note}, nil
	}
	p, err := nonstrict.ToProgram(f, m)
	if err != nil {
		return nil, err
	}
	plain := opts
	plain.Masks = 0
	prog, err := finishProgram(b, NewProgram(p), plain)
	if err != nil || to == KindBRASP {
		return prog, err
	}
	t, err := compileEdge.run(b, prog, &plain)
	if err != nil {
		return nil, err
	}
	if err := nonstrict.CheckModel(t.(*Transformer).M, m); err != nil {
		return nil, fmt.Errorf("internal error: the compiled model: %w", err)
	}
	return t, nil
}

// maskedFormula is the formula of form opts.Masks for a's language: a
// formula or program is rewritten directly when it can be, anything else
// goes from its minimal DFA (nonstrict.FromDFA). A refusal's witness is
// checked on a itself.
func maskedFormula(b *budget.Budget, a Artifact, opts Options) (*ltl.Formula, error) {
	o := nonstrict.Options{
		Masks:   opts.Masks,
		Accepts: a.Accepts,
	}
	plain := opts
	plain.Masks = 0
	if t, ok := a.(*Transformer); ok {
		if t.M.IsTransducer() {
			return nil, fmt.Errorf("the model is a transducer; --masks is for acceptors")
		}
		p, err := decompileEdge.run(b, t, &plain)
		if err != nil {
			return nil, err
		}
		a = p
	}
	switch x := a.(type) {
	case *Formula:
		return nonstrict.FromFormula(b, x.F, o)
	case *Program:
		return nonstrict.FromProgram(b, x.Prog, o)
	}
	d, err := ToDFA(b, a, plain)
	if err != nil {
		return nil, err
	}
	return nonstrict.FromDFA(b, d, o)
}
