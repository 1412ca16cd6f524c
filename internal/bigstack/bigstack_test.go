package bigstack

import (
	"testing"

	"github.com/brasp-dev/brasp/internal/testkit"
)

// TestNoImports: the package imports nothing, so that the runtime
// initialises it before the packages whose initialisation grows the stack.
func TestNoImports(t *testing.T) {
	if imports := testkit.Imports(t, "."); len(imports) > 0 {
		t.Errorf("the package imports %v; it must import nothing", imports)
	}
}

// TestFrame: the frame's body, when it runs, reads its zeroed array.
func TestFrame(t *testing.T) {
	for _, i := range []int{0, 1, Size} {
		if b := frame(i); b != 0 {
			t.Errorf("frame(%d) = %d, want 0", i, b)
		}
	}
	Grow()
}

// BenchmarkDeepCalls makes a new goroutine that calls 400 frames of about
// 160 bytes deep, as a recursive-descent parser does: on the runtime's
// small first stack, that grows it five times, each copying the frames so
// far (default); after Grow, never (grown).
func BenchmarkDeepCalls(b *testing.B) {
	for _, grow := range []bool{false, true} {
		name := "default"
		if grow {
			name = "grown"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				OnNewGoroutine(grow, func() { deep(400) })
			}
		})
	}
}

//go:noinline
func deep(n int) int {
	var pad [16]int
	pad[n%16] = n
	if n == 0 {
		return pad[0]
	}
	return deep(n-1) + pad[(n+1)%16]
}
