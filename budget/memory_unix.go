//go:build unix

package budget

import (
	"math"
	"syscall"
)

// addressSpaceLimit is the soft limit on the process's address space
// (RLIMIT_AS), 0 when there is none.
func addressSpaceLimit() int64 {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil || r.Cur >= math.MaxInt64 {
		return 0
	}
	return int64(r.Cur)
}
