//go:build !linux

package cputime

import "time"

// Thread is unavailable on this system: it reports false.
func Thread() (time.Duration, bool) { return 0, false }
