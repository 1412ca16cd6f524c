package artifact

import (
	"fmt"
	"strings"

	"github.com/brasp-dev/brasp/brasp"
)

// This file applies the normal forms of App. B of the paper, and the
// clean-up passes, to B-RASP output: Options.NormalForm and Options.Simplify
// (brasp convert --to brasp --normal-form FORM --simplify). Convert applies
// them last, to the B-RASP program any chain of converters produced.

// NormalForm names a normal form of B-RASP programs (App. B of the paper).
// Its string is what users write after --normal-form.
type NormalForm string

// The normal forms. The empty NormalForm leaves the program as it is.
const (
	// UnaryValue: every value predicate reads only (j) (Prop. B.1,
	// brasp.UnaryValue).
	UnaryValue NormalForm = "unary-value"
	// UnaryScore: every score predicate reads only (j) (Lemma B.2,
	// brasp.UnaryScore); exponential in the number of vectors a score
	// reads at (i), so it runs under Options.Limit.
	UnaryScore NormalForm = "unary-score"
	// Unary is both, in the order of the paper's proof of Theorem 3.3 (and
	// of ltl.FromBRASP): UnaryValue, then UnaryScore. UnaryScore copies
	// value predicates unchanged, so the result has both forms.
	Unary NormalForm = "unary"
)

// NormalForms lists the normal forms, in the order help texts show them.
func NormalForms() []NormalForm { return []NormalForm{UnaryValue, UnaryScore, Unary} }

// ParseNormalForm checks a normal form name given by a user; the empty
// string is the empty NormalForm (none).
func ParseNormalForm(s string) (NormalForm, error) {
	if s == "" {
		return "", nil
	}
	var names []string
	for _, f := range NormalForms() {
		if string(f) == s {
			return f, nil
		}
		names = append(names, string(f))
	}
	return "", fmt.Errorf("unknown normal form %q (known: %s)", s, strings.Join(names, ", "))
}

// DefaultScoreCopies is the limit on the attention operations that
// UnaryScore creates when Options.Limit is 0 (the same default as the
// unary-score step of brasp → ltl, ltl.DefaultConvertLimits).
const DefaultScoreCopies = 1 << 12

// normalize applies opts.NormalForm and then, if opts.Simplify, constant
// folding and dead-code removal (brasp.Simplify, which calls
// brasp.DeadCode) to a B-RASP program. UnaryScore's limit is opts.Limit
// (DefaultScoreCopies when 0); hitting it gives an error matching
// brasp.ErrLimit that names the limit.
func normalize(a Artifact, opts Options) (Artifact, error) {
	if opts.NormalForm == "" && !opts.Simplify {
		return a, nil
	}
	p, ok := a.(*Program)
	if !ok {
		return nil, fmt.Errorf("brasp normal form: unexpected artifact %T", a)
	}
	if _, err := ParseNormalForm(string(opts.NormalForm)); err != nil {
		return nil, err
	}
	prog := p.Prog
	if opts.NormalForm == UnaryValue || opts.NormalForm == Unary {
		prog = brasp.UnaryValue(prog)
	}
	if opts.NormalForm == UnaryScore || opts.NormalForm == Unary {
		limit := opts.Limit
		if limit <= 0 {
			limit = DefaultScoreCopies
		}
		q, err := brasp.UnaryScore(prog, limit)
		if err != nil {
			return nil, limitHint(fmt.Errorf("%s normal form: %w", opts.NormalForm, err), brasp.ErrLimit)
		}
		prog = q
	}
	if opts.Simplify {
		prog = brasp.Simplify(prog)
	}
	return NewProgram(prog), nil
}
