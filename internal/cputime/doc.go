// Package cputime measures the CPU time of the calling OS thread, so that
// benchmarks can report CPU time per operation on a machine shared with
// other work (wall-clock figures there measure the neighbours). Callers lock
// the goroutine to its thread (runtime.LockOSThread) around a measurement.
package cputime
