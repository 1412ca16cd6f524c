//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestPlaygroundDiesWithBrasp: brasp serve killed by SIGKILL takes
// brasp-playground with it. A stand-in brasp-playground on the PATH writes
// its process id and sleeps; brasp (this test binary as a child, see
// TestMain) runs it and is killed; the stand-in must then be gone.
func TestPlaygroundDiesWithBrasp(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	script := "#!/bin/sh\necho $$ > " + pidFile + "\nexec sleep 600\n"
	if err := os.WriteFile(filepath.Join(dir, playgroundName), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "serve", "--addr", "127.0.0.1:0")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), hostileChildEnv+"=1", "PATH="+dir+":"+os.Getenv("PATH"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var pid int
	for deadline := time.Now().Add(30 * time.Second); ; {
		data, err := os.ReadFile(pidFile)
		if err == nil && strings.HasSuffix(string(data), "\n") {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(data)))
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the stand-in brasp-playground did not start")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	for deadline := time.Now().Add(10 * time.Second); ; {
		// Signal 0: is the process still there (a zombie counts as gone
		// once reaped by init, which it then is quickly)?
		if err := syscall.Kill(pid, 0); err != nil {
			return
		}
		if data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil && strings.Contains(string(data), ") Z ") {
			return
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("brasp-playground (pid %d) outlived brasp killed by SIGKILL", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
