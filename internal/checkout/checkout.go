// Package checkout finds the source of the brasp module around the working
// directory, for the commands that build part of brasp with the Go
// toolchain: brasp site (its WebAssembly module) and brasp serve (the
// playground program, when it is not installed next to brasp).
package checkout

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// ModulePath is the path of the brasp module.
const ModulePath = "github.com/brasp-dev/brasp"

// Root returns the root of the checkout of ModulePath that contains the
// working directory, or "" when there is none.
func Root() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if modulePathOf(filepath.Join(dir, "go.mod")) == ModulePath {
			return dir
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// modulePathOf returns the module path declared by the go.mod file at path,
// or "".
func modulePathOf(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}
