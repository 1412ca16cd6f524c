//go:build unix

package main

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInterrupt runs brasp run on an endless stream of words, sends the
// process SIGINT once the first verdict is out, and checks that the command
// stops between two words with "interrupted" and exit status 130 instead of
// being killed.
func TestInterrupt(t *testing.T) {
	in, feed := io.Pipe()
	go func() {
		for {
			if _, err := io.WriteString(feed, "lr\n"); err != nil {
				return
			}
		}
	}()
	defer in.Close()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		code := Main([]string{"run", "../../examples/dyck1_depth2.brasp", "--input-file", "-"}, in, outW, &stderr)
		outW.Close()
		done <- code
	}()
	lines := bufio.NewReader(outR)
	if line, err := lines.ReadString('\n'); err != nil || line != "accept\n" {
		t.Fatalf("first verdict %q, %v", line, err)
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, lines)
	select {
	case code := <-done:
		if code != 130 || !strings.Contains(stderr.String(), "brasp: interrupted") {
			t.Errorf("after SIGINT: exit %d, stderr %q; want 130 and brasp: interrupted", code, stderr.String())
		}
	case <-time.After(time.Minute):
		t.Fatal("brasp run did not stop after SIGINT")
	}
}

// TestInterruptDelayed: with the brasp program's delay, a SIGINT after the
// delay still stops a long run, which says so; and stopping before the
// delay cancels the context and catches nothing.
func TestInterruptDelayed(t *testing.T) {
	defer func(d time.Duration) { signalDelay = d }(signalDelay)
	signalDelay = 20 * time.Millisecond
	ctx, stop := catchSignals(signalDelay)
	stop()
	time.Sleep(2 * signalDelay)
	if ctx.Err() == nil {
		t.Fatal("stop did not cancel the context")
	}

	in, feed := io.Pipe()
	go func() {
		for {
			if _, err := io.WriteString(feed, "lr\n"); err != nil {
				return
			}
		}
	}()
	defer in.Close()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		code := Main([]string{"run", "../../examples/dyck1_depth2.brasp", "--input-file", "-"}, in, outW, &stderr)
		outW.Close()
		done <- code
	}()
	lines := bufio.NewReader(outR)
	if line, err := lines.ReadString('\n'); err != nil || line != "accept\n" {
		t.Fatalf("first verdict %q, %v", line, err)
	}
	go io.Copy(io.Discard, lines)
	time.Sleep(10 * signalDelay) // well after the signals are caught
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != 130 || !strings.Contains(stderr.String(), "brasp: interrupted") {
			t.Errorf("after SIGINT: exit %d, stderr %q; want 130 and brasp: interrupted", code, stderr.String())
		}
	case <-time.After(time.Minute):
		t.Fatal("brasp run did not stop after SIGINT")
	}
}

// TestInterruptConvert: SIGINT stops a long conversion, which says it was
// interrupted (the conversion's error keeps budget.ErrStopped).
func TestInterruptConvert(t *testing.T) {
	// "a holds 17 steps before the last": 2^17 states, seconds to build.
	var f strings.Builder
	f.WriteString("F (a & ")
	for range 16 {
		f.WriteString("X[!] ")
	}
	f.WriteString("(!X[!] true))")
	path := filepath.Join(t.TempDir(), "nth.ltlf")
	if err := os.WriteFile(path, []byte(f.String()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- Main([]string{"convert", path, "--to", "dfa"}, strings.NewReader(""), &out, &stderr) }()
	time.Sleep(200 * time.Millisecond)
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != 130 || !strings.Contains(stderr.String(), "brasp: interrupted") {
			t.Errorf("after SIGINT: exit %d, stderr %q; want 130 and brasp: interrupted", code, stderr.String())
		}
	case <-time.After(time.Minute):
		t.Fatal("brasp convert did not stop after SIGINT")
	}
}
