package oneproc

import (
	"os"
	"runtime"
	"testing"

	"github.com/brasp-dev/brasp/internal/testkit"
)

// TestRestore checks that the program started on one processor (this test
// binary imports the package, so its initialisation ran) and that Restore
// gives back what the runtime chose.
func TestRestore(t *testing.T) {
	if got := runtime.GOMAXPROCS(0); got != 1 && os.Getenv("GOMAXPROCS") == "" {
		t.Fatalf("GOMAXPROCS after initialisation = %d, want 1", got)
	}
	Restore()
	if got := runtime.GOMAXPROCS(0); got != initial || got < 1 {
		t.Fatalf("GOMAXPROCS after Restore = %d, want %d", got, initial)
	}
}

// TestImportsOnlyRuntime keeps the package initialised before the standard
// library's packages: it may import runtime and nothing else.
func TestImportsOnlyRuntime(t *testing.T) {
	for _, imp := range testkit.Imports(t, ".") {
		if imp != "runtime" {
			t.Errorf("the package imports %s; it may import only runtime", imp)
		}
	}
}
