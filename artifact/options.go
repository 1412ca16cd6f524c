package artifact

import (
	"github.com/brasp-dev/brasp/budget"
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
	// LTLf: ltlf → dfa.
	LTLf LTLfOptions
	// BRASP: what every conversion to brasp does last.
	BRASP BRASPOptions
	// Masks, when set, asks conversions to ltl, brasp and transformer for
	// output with only non-strict masks or only the causal mask (Thm 5.2):
	// the edges of maskedEdges (table.go), which read MaskOptions.
	Masks Masks

	// maskInput is the input's acceptance while a conversion with Masks
	// runs (MaskOptions).
	maskInput func([]int) (bool, error)
}

// CompileOptions are the compiler's: multi-head (Thm C.4), layer norm
// (§4.3), and its FFN input limit.
type CompileOptions = compile.Options

// DecompileOptions are the decompiler's: the smaller (bitwise) translation.
// Its enumeration is bounded by the budget's decompile-* limits.
type DecompileOptions = decompile.Options

// NoOptions is the options type of the constructions that have none but
// the budget's named limits: brasp → ltl (unary-score-copies, ltl-nodes),
// the exact semantics brasp → dfa and ltl → dfa (exact-*), re → dfa
// (regex-states), dfa → brasp by Krohn–Rhodes and classification
// (orbit-bytes, monoid-bytes, monoid-work, cascade-bytes).
type NoOptions struct{}

func noOptions(*Options) NoOptions { return NoOptions{} }

// BRASPOptions say what Convert does to every B-RASP result, in this order.
type BRASPOptions struct {
	// FutureOnly asks for an equivalent program with only rightmost strict
	// future-masked attention (Thm 5.1): a past-only formula is compiled so
	// directly (ltl.ToBRASPFutureOnly); any other program that is not
	// already future-only goes through its minimal DFA and Krohn–Rhodes
	// cascade (exact.FutureOnly, under the budget's exact-*, orbit-bytes and cascade-bytes).
	FutureOnly bool
	// NormalForm asks for a normal form of App. B (unary values, unary
	// scores or both); empty for none. See brasp.UnaryValue and
	// brasp.UnaryScore. The unary-score form is bounded by the budget's
	// unary-score-copies.
	NormalForm NormalForm
	// Simplify asks for constants folded and the operations the output does
	// not depend on removed (brasp.Simplify), after any NormalForm.
	Simplify bool
}

// PrincipalLimits are the budget settings a bare --limit N stands for: n
// for the principal limit of every construction bounded by the budget (the
// states of the exact semantics, the copies of the unary-score normal form,
// the size of LTL output, the decompiler's activation classes, scaling its
// combinations and work when n is above their defaults, the states of
// derivative automata and the inputs of a compiled FFN). Limits measured in
// bytes are not among them. Nil for n ≤ 0.
func PrincipalLimits(n int) budget.Settings {
	const maxLimit = 1 << 62
	if n <= 0 {
		return nil
	}
	s := budget.Settings{}
	set := func(name string, v int64) {
		if _, ok := budget.Lookup(name); !ok {
			panic("artifact: no limit " + name)
		}
		s[name] = v
	}
	for _, name := range []string{"exact-states", "unary-score-copies", "ltl-nodes", "decompile-classes", "regex-states", "compile-ffn-inputs"} {
		set(name, int64(n))
	}
	classes, _ := budget.Lookup("decompile-classes")
	if scale := int64(n) / classes.Default; scale > 1 {
		for _, name := range []string{"decompile-combos", "decompile-work"} {
			l, _ := budget.Lookup(name)
			set(name, min(l.Default, maxLimit/scale)*scale) // saturating at maxLimit
		}
	}
	return s
}
