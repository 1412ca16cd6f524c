package ltl

import (
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/examples"
	"github.com/brasp-dev/brasp/internal/cputime"
)

// benchFormulas are evaluated on random words of length 10⁶.
var benchFormulas = []struct{ name, file string }{
	{"phi4", "phi4.ltl"},
	{"mid", "mid.ltl"},
	{"stair6", "stair6.ltl"},
}

const benchN = 1_000_000

// BenchmarkEvaluate measures the linear evaluator at n = 10⁶: each
// iteration evaluates every subformula at every position. Throughput is in
// input symbols per second (MB/s with one "byte" per symbol).
func BenchmarkEvaluate(b *testing.B) {
	for _, bf := range benchFormulas {
		f := loadTestdata(b, bf.file)
		w := randomWord(rand.New(rand.NewPCG(1, 1)), len(f.Alphabet()), benchN)
		b.Run(bf.name, func(b *testing.B) {
			benchEval(b, f, w)
		})
	}
	// A random formula with every operator, DAG size about 60.
	p := NewPool(mustAlphabet("a", "b", "c"))
	f := randomFormula(rand.New(rand.NewPCG(2, 2)), p, 60, genOptions{ops: allOps, predicates: true})
	w := randomWord(rand.New(rand.NewPCG(1, 1)), 3, benchN)
	b.Run("random60", func(b *testing.B) { benchEval(b, f, w) })
}

func benchEval(b *testing.B, f *Formula, w []int) {
	ev := NewEvaluator(f)
	b.SetBytes(int64(len(w)))
	b.ReportAllocs()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0, ok := cputime.Thread()
	for b.Loop() {
		ev.Accepts(w)
	}
	b.ReportMetric(float64(f.DAGSize()), "nodes")
	reportCPU(b, len(w), cpu0, ok)
}

// reportCPU reports, where the system tells, CPU nanoseconds per evaluation
// and per position: the figures to read on a loaded machine, as they exclude
// time the benchmark was not scheduled.
func reportCPU(b *testing.B, n int, cpu0 time.Duration, ok bool) {
	if cpu1, ok1 := cputime.Thread(); ok && ok1 {
		ns := float64((cpu1 - cpu0).Nanoseconds())
		b.ReportMetric(ns/float64(b.N), "cpu-ns/op")
		b.ReportMetric(ns/float64(b.N)/float64(n), "cpu-ns/pos")
	}
}

// BenchmarkToBRASPRun runs the program ToBRASP makes from STAIR_6 on the
// same word with brasp's fast interpreter, for comparison.
func BenchmarkToBRASPRun(b *testing.B) {
	f := loadTestdata(b, "stair6.ltl")
	prog, err := ToBRASP(f)
	if err != nil {
		b.Fatal(err)
	}
	w := randomWord(rand.New(rand.NewPCG(1, 1)), 3, benchN)
	run := brasp.NewRunner(prog)
	tr := run.Run(w)
	b.SetBytes(benchN)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0, ok := cputime.Thread()
	for b.Loop() {
		tr = run.RunInto(tr, w)
	}
	reportCPU(b, benchN, cpu0, ok)
}

// BenchmarkFromBRASP converts the Dyck-1 depth-2 program of Figure 2.
func BenchmarkFromBRASP(b *testing.B) {
	prog := examples.MustProgram(examples.Dyck)
	for b.Loop() {
		if _, err := FromBRASP(nil, prog); err != nil {
			b.Fatal(err)
		}
	}
}
