package nonstrict

import (
	"errors"
	"fmt"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/krohnrhodes"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/exact"
	"github.com/brasp-dev/brasp/ltl"
)

// Options configure the converters. The zero value asks for NonStrict output
// under every default limit.
type Options struct {
	Masks   Masks                     // NonStrict (default) or Causal
	Accepts func([]int) (bool, error) // the input itself, to check a refusal's witness on; nil: its DFA
	// NoSweep leaves out Sweep, which merges equal subformulas of the
	// formulas rewritten and produced (for measuring what it saves).
	NoSweep bool
}

// sweep is Sweep unless opts.NoSweep or f cannot be swept.
func (o Options) sweep(b *budget.Budget, f *ltl.Formula) (*ltl.Formula, error) {
	if o.NoSweep || !sweepable(f) {
		return f, nil
	}
	return Sweep(b, f)
}

func (o Options) masks() Masks {
	if o.Masks == 0 {
		return NonStrict
	}
	return o.Masks
}

// NotApplicableError is the refusal: the language is not star-free or not
// stutter-invariant, so no formula, program or transformer of the asked
// form recognises it (Theorem 5.2). It carries the classification, whose
// witness was checked on the input.
type NotApplicableError struct {
	Masks Masks
	Class *automata.Classification
}

func (e *NotApplicableError) Error() string {
	alpha := e.Class.Minimal.Alphabet
	what := fmt.Sprintf("no %s program recognises it (Thm 5.2: only the stutter-invariant star-free languages have one)", e.Masks)
	if w := e.Class.NotStarFreeBy; w != nil {
		return fmt.Sprintf("not star-free: %s; %s", w.Describe(alpha), what)
	}
	return fmt.Sprintf("not stutter-invariant: %s; %s", e.Class.NotStutterBy.Describe(alpha), what)
}

// Refuse classifies d and returns a *NotApplicableError when its language is
// not stutter-invariant star-free, after checking the witness on accepts
// (d's own run when nil); otherwise the classification. The classification
// runs under b (automata.Classify).
func Refuse(b *budget.Budget, d *automata.DFA, opts Options) (*automata.Classification, error) {
	c, err := automata.Classify(b, d)
	if err != nil {
		return nil, err
	}
	if c.StarFree && c.StutterInvariant {
		return c, nil
	}
	accepts := opts.Accepts
	if accepts == nil {
		accepts = func(w []int) (bool, error) { return d.Accepts(w), nil }
	}
	var yes, no []int
	if w := c.NotStarFreeBy; w != nil {
		yes, no = w.Words()
		if !w.AcceptedAtZero {
			yes, no = no, yes
		}
	} else {
		yes, no = c.NotStutterBy.Words()
	}
	if err := checkWitness(accepts, d.Alphabet, yes, no); err != nil {
		return nil, err
	}
	return nil, &NotApplicableError{Masks: opts.masks(), Class: c}
}

func checkWitness(accepts func([]int) (bool, error), alpha alphabet.Alphabet, yes, no []int) error {
	a, err := accepts(yes)
	if err != nil {
		return err
	}
	r, err := accepts(no)
	if err != nil {
		return err
	}
	if !a || r {
		return fmt.Errorf("internal error: the classification's witness fails on the input: %s accepted %v, %s accepted %v",
			automata.ShowWord(alpha, yes), a, automata.ShowWord(alpha, no), r)
	}
	return nil
}

// FromDFA returns a formula of form opts.Masks for the language of d over
// non-empty words, or a *NotApplicableError. The route is Theorem 5.1's
// then Rewrite: the minimal DFA → its Krohn–Rhodes cascade → the
// future-only program (rightmost [j<i] attention only) → a past-only
// formula (Theorem 3.3) → T. The result is causal whatever opts.Masks says.
func FromDFA(b *budget.Budget, d *automata.DFA, opts Options) (*ltl.Formula, error) {
	c, err := Refuse(b, d, opts)
	if err != nil {
		return nil, err
	}
	return fromMinimal(b, c.Minimal, opts)
}

// fromMinimal is FromDFA after classification.
func fromMinimal(b *budget.Budget, m *automata.DFA, opts Options) (*ltl.Formula, error) {
	if err := b.Err(); err != nil {
		return nil, err
	}
	p, _, err := krohnrhodes.DFAToBRASP(b, m)
	if err != nil {
		return nil, fmt.Errorf("Krohn–Rhodes: %w", err)
	}
	f, err := ltl.FromBRASP(b, p)
	if err != nil {
		return nil, fmt.Errorf("the Krohn–Rhodes program to LTL: %w", err)
	}
	if f, err = opts.sweep(b, f); err != nil {
		return nil, err
	}
	g, err := Rewrite(b, f)
	if err != nil {
		return nil, err
	}
	if g, err = opts.sweep(b, g); err != nil {
		return nil, err
	}
	if err := CheckFormula(g, Causal); err != nil {
		return nil, fmt.Errorf("internal error: the Krohn–Rhodes route gave a formula that is not causal: %w", err)
	}
	return g, nil
}

// FromFormula returns a formula of form opts.Masks for f's language, or a
// *NotApplicableError. f is rewritten directly when it can be (no MOD or Mid
// predicate, and for Causal no future operator): T(f) is linear in f. When
// it cannot, or when the minimal DFA is small, the route is also FromDFA's
// and the smaller result is kept.
func FromFormula(b *budget.Budget, f *ltl.Formula, opts Options) (*ltl.Formula, error) {
	d, err := exact.FormulaDFA(b, f)
	if err != nil {
		return nil, err
	}
	if opts.Accepts == nil {
		ev := ltl.NewEvaluator(f)
		opts.Accepts = func(w []int) (bool, error) { return ev.Accepts(w), nil }
	}
	c, err := Refuse(b, d, opts)
	if err != nil {
		return nil, err
	}
	return rewriteOr(b, f, c.Minimal, opts)
}

// compareStates bounds the minimal DFAs for which rewriteOr also tries
// the Krohn–Rhodes route when f can be rewritten directly, to keep the
// smaller result: the cascade is cheap on small automata and, after
// sweeping, sometimes much smaller than the rewritten input.
const compareStates = 32

// rewriteOr rewrites f when it can and, for a small minimal DFA m, also
// goes the Krohn–Rhodes route, keeping the smaller formula (fewer temporal
// operators, then less depth, then fewer subformulas); otherwise it goes
// from m alone.
func rewriteOr(b *budget.Budget, f *ltl.Formula, m *automata.DFA, opts Options) (*ltl.Formula, error) {
	var best *ltl.Formula
	if direct(f, opts.masks()) {
		g, err := Rewrite(b, f)
		switch {
		case err == nil:
			if best, err = opts.sweep(b, g); err != nil {
				return nil, err
			}
		case !errors.Is(err, ErrPredicate):
			return nil, err
		}
	}
	if best != nil && m.NumStates() > compareStates {
		return best, nil
	}
	k, err := fromMinimal(b.Fork(), m, opts)
	if err != nil {
		if best != nil && b.Err() == nil {
			return best, nil // the cascade route failed (a limit): keep the rewriting
		}
		return nil, err
	}
	if best == nil || smaller(k, best) {
		return k, nil
	}
	return best, nil
}

// smaller orders formulas by the size of their programs: attention
// operations (as ToProgram writes them, case splits over letters merged),
// then temporal depth (attention depth), then distinct subformulas.
func smaller(x, y *ltl.Formula) bool {
	tx, ty := attentionOps(x), attentionOps(y)
	if tx != ty {
		return tx < ty
	}
	if x.Depth() != y.Depth() {
		return x.Depth() < y.Depth()
	}
	return x.DAGSize() < y.DAGSize()
}

// attentionOps is the number of attention operations of ToProgram(f), or
// of temporal operators of f if f has operators ToProgram does not take.
func attentionOps(f *ltl.Formula) int {
	n := 0
	if p, err := ToProgram(f, NonStrict); err == nil {
		for _, v := range p.Vectors {
			if v.Kind == brasp.AttentionVector {
				n++
			}
		}
		return n
	}
	for _, g := range f.Nodes() {
		if g.Op.IsTemporal() {
			n++
		}
	}
	return n
}

// direct reports whether Rewrite of f gives a formula of form m: f reads no
// MOD or Mid predicate, and for Causal it has no future operator and no
// last.
func direct(f *ltl.Formula, m Masks) bool {
	for _, g := range f.Nodes() {
		switch g.Op {
		case ltl.OpPredicate:
			if g.Pred.Kind == brasp.Mod || g.Pred.Kind == brasp.Mid || (m == Causal && g.Pred.Kind == brasp.Last) {
				return false
			}
		case ltl.OpUntil, ltl.OpUntilNS, ltl.OpNext, ltl.OpWeakNext, ltl.OpEventually, ltl.OpGlobally:
			if m == Causal {
				return false
			}
		}
	}
	return true
}

// FromProgram returns a formula of form opts.Masks for the language of the
// acceptor p, or a *NotApplicableError. The program is first turned into a
// formula (Theorem 3.3) and rewritten directly when that works within
// opts.Convert and gives a formula FromFormula would rewrite; otherwise the
// route is FromDFA's, from p's minimal DFA.
func FromProgram(b *budget.Budget, p *brasp.Program, opts Options) (*ltl.Formula, error) {
	if p.IsTransducer() {
		return nil, fmt.Errorf("the program is a transducer; Theorem 5.2 is about languages (acceptors)")
	}
	d, err := exact.ProgramDFA(b, p)
	if err != nil {
		return nil, err
	}
	if opts.Accepts == nil {
		r := brasp.NewRunner(p)
		opts.Accepts = func(w []int) (bool, error) { return r.Run(w).Accept(), nil }
	}
	c, err := Refuse(b, d, opts)
	if err != nil {
		return nil, err
	}
	f, err := ltl.FromBRASP(b, p)
	if err != nil {
		return fromMinimal(b, c.Minimal, opts)
	}
	return rewriteOr(b, f, c.Minimal, opts)
}
