// Package budget bounds brasp's long constructions.
//
// Determinisation, minimisation, Krohn–Rhodes, normal forms, compilation,
// decompilation, exact semantics and forward passes in exact arithmetic can
// all grow exponentially, or run for a long time on hostile input. Each of
// them takes a *Budget, which carries
//
//   - a context.Context, so a caller (the CLI on Ctrl-C, the playground at a
//     request's deadline) can stop the work and free what it holds, and
//   - the user's settings for named limits, so a construction can refuse to
//     grow past them.
//
// A Limit is declared once, next to the construction it bounds, with Define:
//
//	var maxStates = budget.Define("dfa-states", 1<<16, "states",
//		"states of a determinised or minimised automaton")
//
// and its name is what a user writes to raise it: --limit dfa-states=200000.
// Limits measure what grows: bytes (or a faithful proxy such as cells of a
// table), units of work, or items whose size is bounded. A construction
// charges a Meter as it grows and calls Step in its inner loops; both return
// an *Error naming the limit (matching ErrLimit under errors.Is) or the
// context's error (matching ErrStopped), and the construction returns it
// unchanged.
//
// A nil *Budget is valid: it never stops and uses every limit's default.
// Budgets are not safe for concurrent use; give each goroutine its own
// (Budget.Fork).
package budget
