package ltl

import (
	"errors"
	"fmt"

	"github.com/brasp-dev/brasp/brasp"
)

// ErrFutureOperator reports that a formula needs a future operator where
// only past operators can be used.
var ErrFutureOperator = errors.New("formula uses a future operator")

// StrictPast rewrites the non-strict past operators of f into the paper's
// strict since, at the same temporal depth:
//
//	φ S ψ = ψ | (φ & (φ since ψ))
//	O φ   = φ | (true since φ)
//	H φ   = φ & !(true since !φ)
//
// Since, Y and Z are kept. A future operator (until, U, X, N, F, G) gives an
// error wrapping ErrFutureOperator: turning it into past operators needs
// Gabbay's separation theorem, which this package does not implement.
func StrictPast(f *Formula) (*Formula, error) {
	p := f.pool
	return rebuild(f, func(g, x, y *Formula) (*Formula, error) {
		switch g.Op {
		case OpUntil, OpUntilNS, OpNext, OpWeakNext, OpEventually, OpGlobally:
			return nil, fmt.Errorf("%w: %s in %s", ErrFutureOperator, g.Op, abbreviated(g))
		case OpSinceNS:
			return p.Binary(OpOr, y, p.Binary(OpAnd, x, p.Binary(OpSince, x, y))), nil
		case OpOnce:
			return p.Binary(OpOr, x, p.Binary(OpSince, p.True(), x)), nil
		case OpHistorically:
			return p.Binary(OpAnd, x, p.Unary(OpNot, p.Binary(OpSince, p.True(), p.Unary(OpNot, x)))), nil
		}
		switch g.Op.Arity() {
		case 0:
			return g, nil
		case 1:
			return p.Unary(g.Op, x), nil
		}
		return p.Binary(g.Op, x, y), nil
	})
}

// abbreviated prints f for an error message, cut to a readable length.
func abbreviated(f *Formula) string {
	if f.TreeSize() > 40 {
		return fmt.Sprintf("a subformula with operator %s", f.Op)
	}
	return Format(f)
}

// ToBRASPFutureOnly converts a past-only formula into a program that uses
// only rightmost strict future-masked attention (Thm 5.1): StrictPast, then
// ToBRASP. The attention depth still equals the temporal depth of f.
func ToBRASPFutureOnly(f *Formula) (*brasp.Program, error) {
	g, err := StrictPast(f)
	if err != nil {
		return nil, err
	}
	return ToBRASP(g)
}
