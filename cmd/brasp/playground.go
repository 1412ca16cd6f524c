package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"syscall"

	"github.com/brasp-dev/brasp/internal/checkout"
)

// The playground (brasp serve, brasp site) runs in a separate program,
// brasp-playground (cmd/brasp-playground), so that brasp does not link
// net/http, crypto/tls and the C name resolver of package net: linked in,
// they would add about 1.3 ms of process start-up to every command. brasp
// checks the flags, then runs the program, taken from
//
//  1. the directory of the brasp executable (where go install puts both),
//  2. the PATH,
//  3. else built with the Go toolchain into the user's cache directory: from
//     the checkout around the working directory (rebuilt when it changes, as
//     go build does), or, for an installed version of brasp, that version
//     of cmd/brasp-playground (go install PATH@VERSION), as brasp site
//     already needs the toolchain to build its WebAssembly module.
const (
	modulePath     = checkout.ModulePath
	playgroundName = "brasp-playground"
)

// runPlayground runs brasp-playground with args, on brasp's standard
// streams, and returns its exit status as brasp's. SIGINT and SIGTERM reach
// it (from the terminal directly; a signal to brasp alone is passed on),
// and on Linux it gets SIGTERM when brasp dies, even by SIGKILL
// (dieWithParent).
func runPlayground(e *env, args []string) error {
	path, err := findPlayground(e)
	if err != nil {
		return fmt.Errorf("%s: %v", args[0], err)
	}
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = e.stdin, e.stdout, e.stderr
	release := dieWithParent(cmd)
	defer release()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s: %v", args[0], err)
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-e.ctx.Done():
			cmd.Process.Signal(syscall.SIGTERM)
		case <-done:
		}
	}()
	err = cmd.Wait()
	var x *exec.ExitError
	if errors.As(err, &x) {
		code := x.ExitCode()
		if code < 0 { // killed by a signal
			code = 1
		}
		return &exitError{code: code} // brasp-playground has said why
	}
	if err != nil {
		return fmt.Errorf("%s: %v", args[0], err)
	}
	return nil
}

// findPlayground returns the path of brasp-playground (see above).
func findPlayground(e *env) (string, error) {
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), playgroundName)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	if p, err := exec.LookPath(playgroundName); err == nil {
		return p, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	if dir := checkout.Root(); dir != "" {
		out := filepath.Join(cache, "brasp", "devel", playgroundName)
		fmt.Fprintf(e.stderr, "brasp: building %s from %s (go install ./cmd/%s puts it next to brasp)\n", playgroundName, dir, playgroundName)
		cmd := exec.CommandContext(e.ctx, "go", "build", "-o", out, "./cmd/"+playgroundName)
		cmd.Dir = dir
		if msg, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("building %s in %s: %v\n%s", playgroundName, dir, err, msg)
		}
		return out, nil
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Path == modulePath && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		bin := filepath.Join(cache, "brasp", bi.Main.Version)
		out := filepath.Join(bin, playgroundName)
		if _, err := os.Stat(out); err == nil {
			return out, nil
		}
		pkg := modulePath + "/cmd/" + playgroundName + "@" + bi.Main.Version
		fmt.Fprintf(e.stderr, "brasp: installing %s into %s\n", pkg, bin)
		cmd := exec.CommandContext(e.ctx, "go", "install", pkg)
		cmd.Dir = os.TempDir()
		cmd.Env = append(os.Environ(), "GOBIN="+bin)
		if msg, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go install %s: %v\n%s", pkg, err, msg)
		}
		return out, nil
	}
	return "", fmt.Errorf("the playground runs in the program %s, which is neither next to brasp nor on the PATH: install it with go install %s/cmd/%s (or run brasp inside a checkout of brasp)", playgroundName, modulePath, playgroundName)
}
