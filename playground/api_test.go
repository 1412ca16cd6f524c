package playground

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/brasp-dev/brasp/budget"
)

// TestClockContext checks the deadline a computation sees by reading the
// clock: Done is closed once the deadline has passed, the error and the
// cause are DeadlineExceeded (also under a cancellable parent, such as a
// request's context), and a budget built on it stops with that cause.
func TestClockContext(t *testing.T) {
	parent, cancelParent := context.WithCancel(context.Background())
	defer cancelParent()
	ctx, cancel := newClockContext(parent, time.Now().Add(20*time.Millisecond))
	defer cancel()
	if ctx.Err() != nil {
		t.Fatal("stopped before its deadline")
	}
	b := budget.New(ctx, nil)
	var err error
	for start := time.Now(); err == nil && time.Since(start) < 5*time.Second; {
		err = b.Step(1)
	}
	if !errors.Is(err, budget.ErrStopped) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("budget after the deadline: %v", err)
	}
	if !errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
		t.Errorf("cause %v", context.Cause(ctx))
	}
	// Cancelling the parent stops a clock context before its deadline.
	ctx2, cancel2 := newClockContext(parent, time.Now().Add(time.Hour))
	defer cancel2()
	cancelParent()
	select {
	case <-ctx2.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the parent's cancellation did not reach the clock context")
	}
	if !errors.Is(ctx2.Err(), context.Canceled) {
		t.Errorf("err %v after the parent's cancellation", ctx2.Err())
	}
}
