package main

import (
	"go/build"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/playground"
)

// TestServeDefaults: brasp serve's defaults are the playground's.
func TestServeDefaults(t *testing.T) {
	if serveDefaultTimeout != playground.DefaultTimeout || serveDefaultMaxBody != playground.DefaultMaxBody {
		t.Fatalf("brasp serve defaults %v, %d; playground %v, %d", serveDefaultTimeout, serveDefaultMaxBody, playground.DefaultTimeout, playground.DefaultMaxBody)
	}
}

// TestNoNetwork: brasp itself links neither package net (whose C name
// resolver makes the binary dynamically linked) nor net/http: they cost
// every command its start-up, and only brasp-playground needs them.
func TestNoNetwork(t *testing.T) {
	seen := map[string]bool{}
	var walk func(path string)
	walk = func(path string) {
		if seen[path] {
			return
		}
		seen[path] = true
		p, err := build.Import(path, ".", 0)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, imp := range p.Imports {
			switch imp {
			case "net", "net/http", "crypto/tls", "runtime/cgo", "github.com/brasp-dev/brasp/playground":
				t.Errorf("%s imports %s, which brasp must not link (run it in brasp-playground)", path, imp)
			}
			if imp != "C" {
				walk(imp)
			}
		}
	}
	walk(".")
}

// TestPlaygroundMissing: without brasp-playground next to brasp, on the
// PATH or a checkout to build it from, serve says how to install it.
func TestPlaygroundMissing(t *testing.T) {
	t.Setenv("PATH", "")
	t.Chdir(t.TempDir())
	var out, errb strings.Builder
	code := Main([]string{"serve", "--addr", "127.0.0.1:0"}, strings.NewReader(""), &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "go install github.com/brasp-dev/brasp/cmd/brasp-playground") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
}
