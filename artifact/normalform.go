package artifact

import (
	"fmt"
	"strings"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/exact"
)

// This file is the last stage of every conversion to B-RASP: Theorem 5.1
// (BRASPOptions.FutureOnly), the normal forms of App. B of the paper
// (BRASPOptions.NormalForm) and the clean-up passes (BRASPOptions.Simplify),
// as in brasp convert --to brasp --future-only --normal-form FORM --simplify.

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
	// reads at (i), so it runs under the budget's unary-score-copies.
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

// finishProgram applies opts.BRASP to a B-RASP result: first Theorem 5.1
// if asked for and the construction that made the program did not already
// give it that form, then the normal
// form, then, if asked for, constant folding and dead-code removal
// (brasp.Simplify, which calls brasp.DeadCode). Hitting the unary-score
// limit gives an error matching brasp.ErrLimit that names the limit.
func finishProgram(b *budget.Budget, p *Program, opts Options) (Artifact, error) {
	o := opts.BRASP
	if _, err := ParseNormalForm(string(o.NormalForm)); err != nil {
		return nil, err
	}
	prog := p.Prog
	if o.FutureOnly && !p.futureOnly {
		letters, err := p.letters()
		if err != nil {
			return nil, err
		}
		q, err := exact.FutureOnly(b, letters)
		if err != nil {
			return nil, err
		}
		prog = q
	}
	if o.NormalForm == UnaryValue || o.NormalForm == Unary {
		prog = brasp.UnaryValue(prog)
	}
	if o.NormalForm == UnaryScore || o.NormalForm == Unary {
		q, err := brasp.UnaryScore(b, prog)
		if err != nil {
			return nil, fmt.Errorf("%s normal form: %w", o.NormalForm, err)
		}
		prog = q
	}
	if o.Simplify {
		prog = brasp.Simplify(prog)
	}
	if prog == p.Prog {
		return p, nil
	}
	return NewProgram(prog), nil
}
