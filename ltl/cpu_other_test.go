//go:build !linux

package ltl

import "time"

// threadCPU is unavailable on this system.
func threadCPU() (time.Duration, bool) { return 0, false }
