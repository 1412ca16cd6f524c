package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestRelaxGC: the collector starts at GOGC=400 and is back at the
// default once a collection finds more than shortRunHeap bytes live.
func TestRelaxGC(t *testing.T) {
	t.Setenv("GOGC", "")
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	relaxGCForShortRuns()
	if p := debug.SetGCPercent(shortRunGOGC); p != shortRunGOGC {
		t.Fatalf("GOGC %d at the start, want %d", p, shortRunGOGC)
	}
	runtime.GC() // a small heap: the relaxed pace stays
	time.Sleep(10 * time.Millisecond)
	if p := debug.SetGCPercent(shortRunGOGC); p != shortRunGOGC {
		t.Fatalf("GOGC %d after a collection of a small heap, want %d", p, shortRunGOGC)
	}
	live := make([]byte, 2*shortRunHeap)
	for i := range live {
		live[i] = byte(i)
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
		// Reading the setting writes one: the relaxed value, harmless
		// while the finalizer is still armed.
		if p := debug.SetGCPercent(shortRunGOGC); p == 100 {
			runtime.KeepAlive(live)
			return
		}
	}
	t.Fatal("GOGC not back at 100 with a large live heap")
}
