package oneproc

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
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
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if imp.Path.Value != `"runtime"` {
				t.Errorf("%s imports %s; the package may import only runtime", name, imp.Path.Value)
			}
		}
	}
}
