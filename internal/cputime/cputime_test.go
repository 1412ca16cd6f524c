package cputime

import (
	"runtime"
	"testing"
)

func TestThreadAdvances(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, ok := Thread()
	if !ok {
		if runtime.GOOS == "linux" {
			t.Fatal("no thread CPU time on linux")
		}
		t.Skip("no thread CPU time on " + runtime.GOOS)
	}
	x := 0
	for i := range 100_000_000 {
		x ^= i
	}
	t1, _ := Thread()
	if t1 <= t0 {
		t.Errorf("thread CPU time did not advance: %v then %v (x=%d)", t0, t1, x)
	}
}
