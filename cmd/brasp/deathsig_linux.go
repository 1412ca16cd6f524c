//go:build linux

package main

import (
	"os/exec"
	"runtime"
	"syscall"
)

// dieWithParent makes cmd's process receive SIGTERM when brasp dies, even
// by SIGKILL, so that brasp-playground does not outlive brasp serve and go
// on listening (Linux's parent-death signal). The signal follows the thread
// that started the process, so the calling goroutine stays on its thread
// until release is called, after the process has been waited for.
func dieWithParent(cmd *exec.Cmd) (release func()) {
	runtime.LockOSThread()
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGTERM
	return runtime.UnlockOSThread
}
