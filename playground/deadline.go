package playground

import (
	"context"
	"sync"
	"time"
)

// clockContext is a context whose deadline is seen by reading the clock
// whenever Done or Err is called, rather than by a timer goroutine. In
// WebAssembly a computation runs on the one thread without preemption,
// so a timer cannot fire while it runs; the budget's periodic look at the
// context must then find the deadline itself.
type clockContext struct {
	context.Context
	deadline time.Time
	once     sync.Once
	mu       sync.Mutex
	done     chan struct{}
	err      error
}

func newClockContext(parent context.Context, deadline time.Time) (*clockContext, context.CancelFunc) {
	// The values of parent, without its cancellation: context.Cause then
	// reports this context's own error.
	c := &clockContext{Context: context.WithoutCancel(parent), deadline: deadline, done: make(chan struct{})}
	stop := context.AfterFunc(parent, func() { c.stop(parent.Err()) })
	t := time.AfterFunc(time.Until(deadline), func() { c.stop(context.DeadlineExceeded) })
	return c, func() { stop(); t.Stop(); c.stop(context.Canceled) }
}

func (c *clockContext) stop(err error) {
	c.once.Do(func() {
		c.mu.Lock()
		c.err = err
		c.mu.Unlock()
		close(c.done)
	})
}

func (c *clockContext) Deadline() (time.Time, bool) { return c.deadline, true }

func (c *clockContext) Done() <-chan struct{} {
	if !time.Now().Before(c.deadline) {
		c.stop(context.DeadlineExceeded)
	}
	return c.done
}

func (c *clockContext) Err() error {
	select {
	case <-c.Done():
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.err
	default:
		return nil
	}
}

// withDeadline is context.WithDeadline, except that a computation sees the
// deadline by reading the clock (see clockContext), on every platform, so
// that the server and the WebAssembly build stop at the same points.
func withDeadline(parent context.Context, d time.Time) (context.Context, context.CancelFunc) {
	return newClockContext(parent, d)
}
