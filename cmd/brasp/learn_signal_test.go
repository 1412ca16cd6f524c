//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/brasp-dev/brasp/automata"
)

// TestInterruptLearn: SIGINT during a black-box learn (a teacher that is
// not regular, so learning never ends by itself) writes the last
// hypothesis, says it stopped, and exits 130 with "brasp: interrupted".
// The teacher touches a file once it has answered a few hundred words,
// so the signal comes after the first hypothesis.
func TestInterruptLearn(t *testing.T) {
	dir := t.TempDir()
	ready := filepath.Join(dir, "ready")
	script := filepath.Join(dir, "anbn.sh")
	// a^n b^n; after 300 words it touches ready.
	src := `n=0
while read w; do
  n=$((n+1)); if [ $n -eq 300 ]; then touch ` + ready + `; fi
  x=${w%%b*}; y=${w#"$x"}
  case "$y" in *a*) echo reject; continue;; esac
  if [ ${#x} -eq ${#y} ]; then echo accept; else echo reject; fi
done
`
	if err := os.WriteFile(script, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "last.dfa")
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- Main([]string{"learn", "--command", "sh " + script, "--alphabet", "a b", "-o", out}, strings.NewReader(""), &stdout, &stderr)
	}()
	deadline := time.Now().Add(time.Minute)
	for {
		if _, err := os.Stat(ready); err == nil {
			break
		}
		select {
		case code := <-done:
			t.Fatalf("learn ended before the signal: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("the teacher never answered 300 words")
		}
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != 130 || !strings.Contains(stderr.String(), "brasp: interrupted") {
			t.Errorf("after SIGINT: exit %d, stderr %q; want 130 and brasp: interrupted", code, stderr.String())
		}
		if !strings.Contains(stdout.String(), "stopped: wrote the last hypothesis") {
			t.Errorf("stdout %q does not say the last hypothesis was written", stdout.String())
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		d, err := automata.Parse(out, data)
		if err != nil {
			t.Fatalf("the last hypothesis does not parse: %v", err)
		}
		if d.NumStates() < 2 {
			t.Errorf("the last hypothesis has %d states", d.NumStates())
		}
	case <-time.After(time.Minute):
		t.Fatal("brasp learn did not stop after SIGINT")
	}
}
