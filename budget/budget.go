package budget

import (
	"context"
	"fmt"
)

// Work is the limit on the units of work of one construction, counted by
// Step. A unit is a constant amount of work, about a nanosecond to a
// microsecond; the default lets a construction run for minutes, so that
// deadlines, not this limit, are what usually stops long work.
var Work = Define("work", 1<<40, "steps", "units of work of one construction (Step)")

// checkEvery is how many units of work pass between two looks at the
// context: fine enough to stop within microseconds, coarse enough to cost
// nothing in inner loops.
const checkEvery = 1 << 12

// Budget carries a context and the user's limit settings through a
// construction. The zero value and nil are valid: no cancellation, every
// limit at its default.
type Budget struct {
	ctx      context.Context
	settings Settings
	work     int64 // units charged by Step
	sinceCtx int64 // units since the context was last looked at
	largest  int64 // the most units one Step charged
	memMax   int64 // the Memory ceiling in force, once looked up (0 before)
}

// New returns a budget stopped by ctx, with the given settings (nil for
// every default).
func New(ctx context.Context, settings Settings) *Budget {
	if ctx == nil {
		ctx = context.Background()
	}
	return &Budget{ctx: ctx, settings: settings}
}

// Fork returns a budget with the same context and settings and its own
// counters, for another goroutine or an independent sub-construction.
func (b *Budget) Fork() *Budget {
	if b == nil {
		return nil
	}
	return &Budget{ctx: b.ctx, settings: b.settings}
}

// WithContext returns a copy of b stopped by ctx instead.
func (b *Budget) WithContext(ctx context.Context) *Budget {
	if b == nil {
		return New(ctx, nil)
	}
	return &Budget{ctx: ctx, settings: b.settings}
}

// Context is the budget's context (context.Background for nil).
func (b *Budget) Context() context.Context {
	if b == nil || b.ctx == nil {
		return context.Background()
	}
	return b.ctx
}

// Settings are the user's settings (nil for none).
func (b *Budget) Settings() Settings {
	if b == nil {
		return nil
	}
	return b.settings
}

// Max is the value of l in force.
func (b *Budget) Max(l *Limit) int64 {
	if b != nil {
		if v, ok := b.settings[l.Name]; ok {
			return v
		}
	}
	return l.Default
}

// Check returns an *Error if need exceeds l, and the context's error if the
// budget is stopped; what names the construction for the message.
func (b *Budget) Check(l *Limit, need int64, what string) error {
	if max := b.Max(l); need > max {
		return &Error{Limit: l, Value: max, Need: need, What: what}
	}
	return b.Err()
}

// Err is nil while the budget's context is live, and otherwise an error
// matching ErrStopped and the context's own error.
func (b *Budget) Err() error {
	if b == nil || b.ctx == nil {
		return nil
	}
	select {
	case <-b.ctx.Done():
		return &stopError{cause: context.Cause(b.ctx)}
	default:
		return nil
	}
}

// Step charges n units of work against the Work limit and looks at the
// context (and the live heap, see Memory) every few thousand units. Call it in the inner loops of long
// constructions.
func (b *Budget) Step(n int64) error {
	if b == nil {
		return nil
	}
	b.largest = max(b.largest, n)
	return b.charge(n)
}

// charge counts n units of work and looks at the context, and at the live
// heap against the Memory backstop, every checkEvery units.
func (b *Budget) charge(n int64) error {
	if b == nil {
		return nil
	}
	b.work += n
	b.sinceCtx += n
	if b.sinceCtx < checkEvery {
		return nil
	}
	b.sinceCtx = 0
	if max := b.Max(Work); b.work > max {
		return &Error{Limit: Work, Value: max, Need: b.work, What: "construction"}
	}
	if err := b.checkMemory(); err != nil {
		return err
	}
	return b.Err()
}

// LargestStep is the most work one call of Step has charged so far (not
// counting what a Meter's Add charges). A construction that charges
// its work as it goes keeps it small; tests check it, as a large step is
// work done between two looks at the context.
func (b *Budget) LargestStep() int64 {
	if b == nil {
		return 0
	}
	return b.largest
}

// Used is the work charged so far by Step.
func (b *Budget) Used() int64 {
	if b == nil {
		return 0
	}
	return b.work
}

type stopError struct{ cause error }

func (e *stopError) Error() string { return fmt.Sprintf("stopped: %v", e.cause) }

func (e *stopError) Is(target error) bool { return target == ErrStopped }

func (e *stopError) Unwrap() error { return e.cause }

// A Meter counts what one construction holds under one limit: bytes, cells,
// states. Charge it as the construction grows (Add) and give back what it
// frees (Release).
type Meter struct {
	b     *Budget
	limit *Limit
	max   int64
	used  int64
	what  string
}

// Meter starts counting toward l for the construction named what.
func (b *Budget) Meter(l *Limit, what string) *Meter {
	return &Meter{b: b, limit: l, max: b.Max(l), what: what}
}

// Add charges n more units and fails with an *Error once the total exceeds
// the limit, or with the context's error when the budget is stopped. It
// counts n as work too.
func (m *Meter) Add(n int64) error {
	m.used += n
	if m.used > m.max {
		return &Error{Limit: m.limit, Value: m.max, Need: m.used, What: m.what}
	}
	return m.b.charge(n)
}

// Release gives back n units.
func (m *Meter) Release(n int64) { m.used -= n }

// Used is the current total.
func (m *Meter) Used() int64 { return m.used }

// Max is the limit in force.
func (m *Meter) Max() int64 { return m.max }
