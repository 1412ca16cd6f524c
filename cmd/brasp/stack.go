package main

// The main goroutine starts with a small stack that the runtime doubles
// when a call needs more, copying it and adjusting every frame on it. The
// parsers are recursive descent (an LTL formula nests about 2.5 KB of stack
// per let or parenthesis), so a small conversion used to grow it three or
// four times, deep in the parser: copying and re-walking up to a few dozen
// frames each time was 5% of the process. growStack grows it once, at the
// start, when only two frames need to move; the new stack's pages are only
// touched (and faulted in) as they are used.

// initialStack is the stack the brasp program starts its command with.
const initialStack = 64 << 10

// growStack makes the calling goroutine's stack at least initialStack bytes
// (the runtime grows the stack before a function with a larger frame runs)
// when called with i < 0, which returns at once: the frame's array is only
// zeroed and used on the other branch.
//
//go:noinline
func growStack(i int) byte {
	if i < 0 {
		return 0
	}
	var frame [initialStack - 8<<10]byte
	frame[i%len(frame)] = 1
	return frame[(i+1)%len(frame)]
}
