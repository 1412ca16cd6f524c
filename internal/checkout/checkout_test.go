package checkout

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRoot: inside this repository Root is the directory of its go.mod,
// from any subdirectory; elsewhere it is "".
func TestRoot(t *testing.T) {
	root := Root()
	want, err := filepath.Abs("../..")
	if err != nil || root != want {
		t.Fatalf("Root() = %q, want %q", root, want)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if got := Root(); got != "" {
		t.Errorf("outside a brasp checkout Root() = %q, want \"\"", got)
	}
}
