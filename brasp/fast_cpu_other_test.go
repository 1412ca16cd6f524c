//go:build !linux

package brasp_test

import "time"

// threadCPU is unavailable on this system.
func threadCPU() (time.Duration, bool) { return 0, false }
