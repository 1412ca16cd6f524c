package ltlf

import (
	"fmt"
	"strings"
)

// Dialect says how a source reads next operators, precedence and
// run-together operator letters.
type Dialect uint8

const (
	// Spot is Spot's LTL syntax read over finite traces (Spot's ltlf
	// conventions, also SYNTCOMP's TLSF-fin, owl and Declare4Py): X is weak
	// next, X[!] strong; GFa is G F a; precedence loosest first: -> <->
	// (right-associative), |, xor, &, U R W M (right-associative), prefix
	// operators.
	Spot Dialect = iota
	// Syft is Spot's syntax with Syft's and Lisa's next: X strong, WX weak.
	Syft
	// LTLf2DFA is LTLf2DFA's grammar: X strong, WX weak; loosest first
	// <-> (n-ary: all operands equal), -> (left-associative), |, &, U and W
	// (right-nested), R (right-nested), prefix operators; runs of capital
	// operator letters split (XGXFWX is X G X F WX); last is a keyword.
	LTLf2DFA
	// PPLTL is LTLf2DFA's pure-past syntax (Y, WY, O, H, S), read at the
	// last step: the formula φ stands for F(last & φ).
	PPLTL
)

var dialectNames = []string{"spot", "syft", "ltlf2dfa", "ppltl"}

func (d Dialect) String() string {
	if int(d) < len(dialectNames) {
		return dialectNames[d]
	}
	return fmt.Sprintf("Dialect(%d)", uint8(d))
}

// ParseDialect reads a dialect name.
func ParseDialect(s string) (Dialect, error) {
	for i, n := range dialectNames {
		if n == s {
			return Dialect(i), nil
		}
	}
	return 0, fmt.Errorf("unknown LTLf dialect %q (want one of %s)", s, strings.Join(dialectNames, ", "))
}
