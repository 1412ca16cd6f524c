//go:build linux

package ltl

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time used so far by the calling OS thread
// (RUSAGE_THREAD), so that benchmarks report CPU time per operation on a
// machine shared with other work.
func threadCPU() (time.Duration, bool) {
	const rusageThread = 1 // RUSAGE_THREAD
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
