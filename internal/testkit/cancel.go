package testkit

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/brasp-dev/brasp/budget"
)

// CancelAtLook returns a context that is done from its n-th look on (a call
// of Done, which is how a budget looks at its context), calling atCancel at
// that look: a cancellation at a chosen point of a construction, without
// clocks. A test records the construction's work in atCancel and checks how
// much more it did before it stopped.
func CancelAtLook(n int, atCancel func()) context.Context {
	return &cancelAtLook{Context: context.Background(), n: int64(n), atCancel: atCancel}
}

type cancelAtLook struct {
	context.Context
	n        int64
	looks    atomic.Int64
	atCancel func()
}

var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (c *cancelAtLook) Done() <-chan struct{} {
	l := c.looks.Add(1)
	if l == c.n && c.atCancel != nil {
		c.atCancel()
	}
	if l >= c.n {
		return closed
	}
	return nil
}

func (c *cancelAtLook) Err() error {
	if c.looks.Load() >= c.n {
		return context.Canceled
	}
	return nil
}

// MaxStep is the most work StopsSoonAfterCancel lets one budget.Step
// charge: two looks' worth.
const MaxStep = 2 * 4096

// StopsSoonAfterCancel runs a construction with its budget's context
// cancelled at the 1st, 2nd, 4th, … look until it finishes before the
// cancel, and fails the test unless each cancelled run stops with
// budget.ErrStopped, looking at the context at most twice more after the
// look that saw the cancel (a construction that drops the error and goes on
// looks again at its next few thousand units of work), at least min runs
// were cancelled, and the run that finished charged its work in steps of at
// most MaxStep (a larger step is work done without looking).
func StopsSoonAfterCancel(t testing.TB, min int, run func(*budget.Budget) error) {
	t.Helper()
	stopped := 0
	for n := 1; ; n *= 2 {
		ctx := &cancelAtLook{Context: context.Background(), n: int64(n)}
		b := budget.New(ctx, nil)
		err := run(b)
		looks := ctx.looks.Load()
		if looks < int64(n) {
			if err != nil {
				t.Fatal(err)
			}
			if b.LargestStep() > MaxStep {
				t.Errorf("a step of %d units of work (more than %d between two looks at the context)", b.LargestStep(), MaxStep)
			}
			break
		}
		if !errors.Is(err, budget.ErrStopped) {
			t.Fatalf("cancelled at look %d: %v", n, err)
		}
		if after := looks - int64(n); after > 2 {
			t.Errorf("cancelled at look %d: %d more looks before it stopped", n, after)
		}
		stopped++
	}
	if stopped < min {
		t.Fatalf("only %d cancelled runs (want %d): the construction is too small for the test", stopped, min)
	}
}
