package regex

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/internal/cputime"
)

// BenchmarkLongConcatenation reads a 10 MB expression, ab five million
// times, and asks for its DFA, as brasp convert c.re --to dfa does: the
// derivative automaton's 10^7+2 states pass regex-states, which is the
// answer. cpu-ns/op is the thread's CPU time (the figure to read on a
// loaded machine) and alloc-MB/op the bytes allocated.
func BenchmarkLongConcatenation(b *testing.B) {
	src := []byte("alphabet a b\n" + strings.Repeat("ab", 5_000_000) + "\n")
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	alloc0 := ms.TotalAlloc
	cpu0, ok := cputime.Thread()
	for b.Loop() {
		r, err := Parse("c.re", src)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := r.DFA(nil); !errors.Is(err, budget.ErrLimit) || !strings.Contains(err.Error(), "regex-states") {
			b.Fatalf("%v, want the regex-states limit", err)
		}
	}
	if cpu1, ok1 := cputime.Thread(); ok && ok1 {
		b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.TotalAlloc-alloc0)/float64(b.N)/(1<<20), "alloc-MB/op")
}
