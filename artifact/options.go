package artifact

import (
	"errors"
	"fmt"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/exact"
	"github.com/brasp-dev/brasp/ltl"
	"github.com/brasp-dev/brasp/transformer/compile"
	"github.com/brasp-dev/brasp/transformer/decompile"
)

// Options holds the options of every construction, one field per
// construction; an edge of the table reads only its own field. The zero
// value is every construction's default.
type Options struct {
	// Compile: brasp → transformer (Thm 4.1, Thm C.4).
	Compile CompileOptions
	// Decompile: transformer → brasp (Thm 4.2).
	Decompile DecompileOptions
	// LTL: brasp → ltl (Thm 3.3).
	LTL LTLOptions
	// Exact: brasp → dfa and ltl → dfa, the exact semantics, and the DFA
	// step of Theorem 5.1.
	Exact ExactOptions
	// Regex: re → dfa.
	Regex RegexOptions
	// LTLf: ltlf → dfa.
	LTLf LTLfOptions
	// Cascade: dfa → brasp (Krohn–Rhodes), Classify, Cascade, and the
	// cascade step of Theorem 5.1.
	Cascade CascadeOptions
	// BRASP: what every conversion to brasp does last.
	BRASP BRASPOptions
	// Masks, when set, asks conversions to ltl, brasp and transformer for
	// output with only non-strict masks or only the causal mask (Thm 5.2):
	// see nonstrict.go.
	Masks Masks
}

// CompileOptions are the compiler's: multi-head (Thm C.4), layer norm
// (§4.3), and its FFN input limit.
type CompileOptions = compile.Options

// DecompileOptions are the decompiler's: the smaller (bitwise) translation,
// and the limits of its enumeration of reachable activation vectors.
type DecompileOptions = decompile.Options

// LTLOptions are the limits of B-RASP → LTL (a zero field is its default,
// ltl.DefaultConvertLimits).
type LTLOptions = ltl.ConvertLimits

// ExactOptions are the limits of the exact semantics (package exact).
type ExactOptions = exact.Limits

// CascadeOptions are the limits of classification and of the Krohn–Rhodes
// decomposition (package automata).
type CascadeOptions = automata.Limits

// RegexOptions are the limits of re → dfa.
type RegexOptions struct {
	// MaxStates bounds the states of the derivative automaton
	// (automata.DefaultMaxStates if 0).
	MaxStates int
}

// BRASPOptions say what Convert does to every B-RASP result, in this order.
type BRASPOptions struct {
	// FutureOnly asks for an equivalent program with only rightmost strict
	// future-masked attention (Thm 5.1): a past-only formula is compiled so
	// directly (ltl.ToBRASPFutureOnly); any other program that is not
	// already future-only goes through its minimal DFA and Krohn–Rhodes
	// cascade (exact.FutureOnly, under the Exact and Cascade limits).
	FutureOnly bool
	// NormalForm asks for a normal form of App. B (unary values, unary
	// scores or both); empty for none. See normalform.go.
	NormalForm NormalForm
	// MaxScoreCopies bounds the attention operations the unary-score normal
	// form creates (DefaultScoreCopies if 0).
	MaxScoreCopies int
	// Simplify asks for constants folded and the operations the output does
	// not depend on removed (brasp.Simplify), after any NormalForm.
	Simplify bool
}

// SetLimit sets the principal limit of every construction to n (n ≤ 0
// leaves the defaults): the states of the exact semantics, of derivative
// automata and of cascades, the copies of the unary-score normal form, the
// size of LTL output, the compiler's FFN inputs and the decompiler's
// activation classes (scaling its other enumeration limits when n is above
// their default). It is what the CLI's bare --limit N means; named limits
// (--limit NAME=N) are budget settings instead.
func (o *Options) SetLimit(n int) {
	if n <= 0 {
		return
	}
	o.Compile.MaxFFNInputs = n
	o.Decompile.MaxClasses = n
	if n > decompile.DefaultMaxClasses {
		scale := n / decompile.DefaultMaxClasses
		o.Decompile.MaxCombos = decompile.DefaultMaxCombos * scale
		o.Decompile.MaxWork = decompile.DefaultMaxWork * int64(scale)
	}
	o.LTL = LTLOptions{MaxScoreCopies: n, MaxNodes: n}
	o.Exact.MaxStates = n
	o.Regex.MaxStates = n
	o.Cascade = CascadeOptions{MaxImages: n, MaxMonoid: n, MaxCascade: n}
	o.BRASP.MaxScoreCopies = n
}

// limitHint adds how to raise the limit to err when err is one of the limits
// Options.SetLimit sets (named by the sentinel errors of limits), and
// returns err unchanged otherwise.
func limitHint(err error, limits ...error) error {
	for _, l := range limits {
		if errors.Is(err, l) {
			return fmt.Errorf("%w (raise it with --limit N)", err)
		}
	}
	return err
}
