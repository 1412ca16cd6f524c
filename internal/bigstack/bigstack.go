// Package bigstack grows the stack of the goroutine that initialises it, the
// main goroutine, to Size bytes, once, before any other package of the
// program runs its initialisation. A program imports it for that effect:
//
//	import _ "github.com/brasp-dev/brasp/internal/bigstack"
//
// # Why
//
// Every goroutine starts on a 2 KB stack that the runtime doubles when a
// call needs more: it allocates the larger stack, copies the old one and
// adjusts every frame on it, walking them with the function tables. A short
// brasp command grew its main goroutine's stack three or four times: twice
// in package initialisation (each first stack of a size class also carves a
// fresh 32 KB span of the runtime's stack pool, writing to each of its
// pages), then deep in the recursive-descent parsers (an LTL formula nests
// about 2.5 KB of frames per let or parenthesis), where a copy walks dozens
// of frames. Together that was 5–6% of the process's CPU time on a small
// conversion. Grown once here, with two frames to move, the stack never
// grows again in a short run; its pages are only touched (and faulted in)
// as they are used, and the collector shrinks it as usual when a long run
// no longer needs it.
//
// # How
//
// The package imports nothing, so the runtime initialises it among the very
// first packages (Go initialises, in import-path order, each package whose
// imports are initialised). Its init calls Grow, whose frame is Size bytes:
// the runtime grows the stack before the function's body runs, and the
// body returns at once without touching the frame.
package bigstack

// Size is the stack the main goroutine has after initialisation.
const Size = 64 << 10

func init() { Grow() }

// OnNewGoroutine calls f on a new goroutine, whose stack is grown first
// when grow is set, and waits for it to return: the two situations the
// tests and benchmarks of a deep computation compare.
func OnNewGoroutine(grow bool, f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		if grow {
			Grow()
		}
		f()
	}()
	<-done
}

// Grow makes the calling goroutine's stack at least Size bytes.
func Grow() { frame(-1) }

// frame has a frame of nearly Size bytes (the runtime adds a guard and
// rounds the stack to a power of two). Called with i < 0 it returns before
// its array is zeroed or used.
//
//go:noinline
func frame(i int) byte {
	if i < 0 {
		return 0
	}
	var a [Size - 8<<10]byte
	a[i%len(a)] = 1
	return a[(i+1)%len(a)]
}
