//go:build linux

package cputime

import (
	"syscall"
	"time"
)

// Thread returns the CPU time used so far by the calling OS thread
// (RUSAGE_THREAD), and false where that is not available.
func Thread() (time.Duration, bool) {
	const rusageThread = 1 // RUSAGE_THREAD
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
