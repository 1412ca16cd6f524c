//go:build !js

package playground

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/brasp-dev/brasp/internal/checkout"
)

// ModulePath is the Go module the WebAssembly build is compiled from.
const ModulePath = checkout.ModulePath

// wasmPackage is the WebAssembly entry point, relative to the module root.
const wasmPackage = "./playground/wasm"

// Site is what `brasp site` writes: the page, the WebAssembly build of the
// API and the Go runtime's JavaScript support for it.
type Site struct {
	// Wasm is brasp.wasm, built from package playground/wasm.
	Wasm []byte
	// WasmExec is wasm_exec.js of the Go toolchain that built Wasm.
	WasmExec []byte
}

// BuildSite compiles the WebAssembly build of the playground from the
// module source in dir (GOOS=js GOARCH=wasm, -trimpath, -ldflags=-s -w)
// with the go command on PATH, and takes wasm_exec.js from the same
// toolchain.
func BuildSite(ctx context.Context, dir string) (*Site, error) {
	gocmd, err := exec.LookPath("go")
	if err != nil {
		return nil, errors.New("the go command is not on PATH: brasp site builds the playground's WebAssembly module with the Go toolchain (https://go.dev/dl/)")
	}
	tmp, err := os.MkdirTemp("", "brasp-site-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	out := filepath.Join(tmp, "brasp.wasm")
	build := exec.CommandContext(ctx, gocmd, "build", "-trimpath", "-ldflags=-s -w", "-o", out, wasmPackage)
	build.Dir = dir
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	if msg, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building the WebAssembly module in %s: %v\n%s", dir, err, bytes.TrimSpace(msg))
	}
	wasm, err := os.ReadFile(out)
	if err != nil {
		return nil, err
	}
	env := exec.CommandContext(ctx, gocmd, "env", "GOROOT")
	env.Dir = dir
	root, err := env.Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOROOT: %v", err)
	}
	goroot := strings.TrimSpace(string(root))
	var exe []byte
	for _, p := range []string{"lib/wasm/wasm_exec.js", "misc/wasm/wasm_exec.js"} {
		if exe, err = os.ReadFile(filepath.Join(goroot, p)); err == nil {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("wasm_exec.js is not in the Go toolchain at %s: %v", goroot, err)
	}
	return &Site{Wasm: wasm, WasmExec: exe}, nil
}

// charsetMeta is the line of index.html after which Write says that the
// page is the static build (staticMeta): the page then runs the
// WebAssembly build without asking a server it does not have for
// /api/features.
const (
	charsetMeta = `<meta charset="utf-8">`
	staticMeta  = `<meta name="brasp-runtime" content="wasm">`
)

// Write writes the static site into dir (created if missing): index.html,
// app.js, style.css, worker.js, wasm_exec.js and brasp.wasm. Any static
// file server can serve it; the page finds no API there and answers its
// requests with the WebAssembly build, which its index.html names.
func (s *Site) Write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	static, _ := fs.Sub(staticFiles, "static")
	files := map[string][]byte{"brasp.wasm": s.Wasm, "wasm_exec.js": s.WasmExec}
	err := fs.WalkDir(static, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(static, path)
		files[path] = data
		return err
	})
	if err != nil {
		return err
	}
	page := files["index.html"]
	if !bytes.Contains(page, []byte(charsetMeta)) {
		return errors.New("index.html has no <meta charset> to put the runtime after")
	}
	files["index.html"] = bytes.Replace(page, []byte(charsetMeta), []byte(charsetMeta+"\n"+staticMeta), 1)
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// ModuleSource finds the source of module github.com/brasp-dev/brasp to
// build the WebAssembly module from: the checkout around the working
// directory, or else the module cache's copy of the version this program
// was built from (go mod download).
func ModuleSource(ctx context.Context) (string, error) {
	if dir := checkout.Root(); dir != "" {
		return dir, nil
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Path == ModulePath && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", ModulePath+"@"+bi.Main.Version)
		cmd.Dir = os.TempDir()
		if out, err := cmd.Output(); err == nil {
			var m struct{ Dir string }
			if json.Unmarshal(out, &m) == nil && m.Dir != "" {
				return m.Dir, nil
			}
		}
	}
	return "", fmt.Errorf("cannot find the source of %s to build the WebAssembly module: run brasp site inside a checkout of it, or give the checkout with --src DIR", ModulePath)
}
