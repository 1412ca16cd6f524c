package main

import (
	"os"
	"runtime"
	"runtime/debug"
)

// Most commands finish in milliseconds with a heap of a few megabytes,
// where the collector's default pacing (a cycle each time the heap doubles,
// from 4 MB) is a quarter of a mid-size conversion's CPU time (an LTLf
// Declare model: 14 ms at GOGC=100, 11 ms at 400). So the collector starts
// at GOGC=400 and returns to the default as soon as a collection finds more
// than shortRunHeap bytes live: a long construction's heap then grows as
// usual, after at most 5 × shortRunHeap at the relaxed pace. A GOGC set in
// the environment is left alone.
//
// The live heap is read off the next collection's goal (MemStats.NextGC,
// (1 + GOGC/100) × the live heap) rather than from runtime/metrics, whose
// package initialisation alone costs a small conversion 3% of its time.
const (
	shortRunGOGC = 400
	shortRunHeap = 16 << 20
)

func relaxGCForShortRuns() {
	if os.Getenv("GOGC") != "" {
		return
	}
	debug.SetGCPercent(shortRunGOGC)
	var arm func()
	arm = func() {
		// A finalizer runs after each collection that finds its object dead.
		runtime.SetFinalizer(new([16]byte), func(*[16]byte) {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.NextGC > shortRunHeap*(100+shortRunGOGC)/100 {
				debug.SetGCPercent(100)
				return
			}
			arm()
		})
	}
	arm()
}
