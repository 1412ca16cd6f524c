package brasp_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/internal/cputime"
	"github.com/brasp-dev/brasp/internal/testkit"
	"github.com/brasp-dev/brasp/position"
)

// Benchmarks of the fast interpreter. Each reports ns/pos·op: nanoseconds
// per input position per (non-initial) operation; the target for attention
// with j-only scores is at most 1 (10⁹ position·operations per second).
//
//	go test ./brasp/ -run '^$' -bench 'Fast|Reference' -benchtime 2x

// dyckWord returns a random word over {l, r} (symbols 0 and 1) of length n
// whose bracket depth stays within 0..3, so that Dyck-1 depth-2 programs see
// both matched and unmatched structure.
func dyckWord(rng *rand.Rand, n int) []int {
	w := make([]int, n)
	depth := 0
	for i := range w {
		open := depth == 0 || depth < 3 && rng.IntN(2) == 0
		if open {
			w[i], depth = 0, depth+1
		} else {
			w[i], depth = 1, depth-1
		}
	}
	return w
}

func dyckProgram(b *testing.B) *brasp.Program {
	return testkit.Load(b, "../examples/dyck1_depth2.brasp", brasp.Parse)
}

func countOps(p *brasp.Program) int {
	n := 0
	for _, v := range p.Vectors {
		if !v.IsInitial() {
			n++
		}
	}
	return n
}

func benchFast(b *testing.B, p *brasp.Program, w []int) {
	r := brasp.NewRunner(p)
	tr := r.Run(w) // allocate the trace once; runs reuse it
	b.ReportAllocs()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0, ok := cputime.Thread()
	for b.Loop() {
		tr = r.RunInto(tr, w)
	}
	reportPerPosOp(b, p, len(w), cpu0, ok)
}

// reportPerPosOp reports wall-clock and (where the system tells) CPU
// nanoseconds per position per operation. The CPU figure is the one to read
// on a loaded machine: it excludes time the benchmark was not scheduled. It
// is omitted when the benchmark used under 50 ms of CPU, below which the
// kernel's accounting granularity dominates (use -benchtime 1s or more).
func reportPerPosOp(b *testing.B, p *brasp.Program, n int, cpu0 time.Duration, ok bool) {
	per := float64(b.N) * float64(n) * float64(countOps(p))
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/per, "ns/pos·op")
	if cpu1, ok1 := cputime.Thread(); ok && ok1 && cpu1-cpu0 >= 50*time.Millisecond {
		b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/per, "cpu-ns/pos·op")
		b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

var benchSizes = []int{1e3, 1e4, 1e5, 1e6, 1e7}

// BenchmarkFastDyck runs the paper's Dyck-1 depth-2 program (7 operations,
// 5 of them attention) on Dyck-like words of n = 10³ … 10⁷.
func BenchmarkFastDyck(b *testing.B) {
	p := dyckProgram(b)
	for _, n := range benchSizes {
		w := dyckWord(rand.New(rand.NewPCG(1, uint64(n))), n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchFast(b, p, w) })
	}
}

// BenchmarkFastRandom50 runs a random 50-operation program (60% attention,
// scores and values mixing (i) and (j), every mask and tie-break).
func BenchmarkFastRandom50(b *testing.B) {
	p := brasptest.RandomProgram(rand.New(rand.NewPCG(50, 50)), brasptest.Options{Alphabet: 3, Ops: 50})
	for _, n := range benchSizes {
		w := brasptest.RandomWord(rand.New(rand.NewPCG(2, uint64(n))), 3, n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchFast(b, p, w) })
	}
}

// BenchmarkFastJOnlyAttention runs 50 attention operations whose scores and
// values read only at j (every mask and tie-break), the case with the
// 10⁹ position·ops/s target.
func BenchmarkFastJOnlyAttention(b *testing.B) {
	p := brasptest.RandomProgram(rand.New(rand.NewPCG(51, 51)),
		brasptest.Options{Alphabet: 2, Ops: 50, Attention: 1, JOnly: true})
	for _, n := range benchSizes {
		w := brasptest.RandomWord(rand.New(rand.NewPCG(3, uint64(n))), 2, n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchFast(b, p, w) })
	}
}

// BenchmarkReferenceDyck is the O(n²) reference interpreter on the Dyck
// program, for the fast-vs-reference speed-up (compare with
// BenchmarkFastDyck/n=10000).
func BenchmarkReferenceDyck(b *testing.B) {
	p := dyckProgram(b)
	for _, n := range []int{1e3, 1e4} {
		w := dyckWord(rand.New(rand.NewPCG(1, uint64(n))), n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cpu0, ok := cputime.Thread()
			for b.Loop() {
				p.RunReference(w)
			}
			reportPerPosOp(b, p, len(w), cpu0, ok)
		})
	}
}

// kernelProgram is a chain of ops attention operations of one kind, each
// reading the previous one at j, over {a, b}.
func kernelProgram(b *testing.B, tb position.Tiebreak, m position.Mask, ops int, score, value string) *brasp.Program {
	src := "Q_a(i)\nQ_b(i)\nP0(i) := Q_a(i)\n"
	for k := 1; k <= ops; k++ {
		prev := fmt.Sprintf("P%d", k-1)
		s := strings.ReplaceAll(score, "PREV", prev)
		v := strings.ReplaceAll(value, "PREV", prev)
		src += fmt.Sprintf("P%d(i) := %s [%s, %s] %s : !%s(i)\n", k, tb, m.Predicate(), s, v, prev)
	}
	p, err := brasp.Parse("kernel", []byte(src))
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkFastKernel measures each (tie-break, mask) pair on its own: 20
// chained attention operations with the j-only score Q_b(j) | PREV(j), on a
// random word of n = 10⁶.
func BenchmarkFastKernel(b *testing.B) {
	w := brasptest.RandomWord(rand.New(rand.NewPCG(4, 4)), 2, 1e6)
	for _, tb := range []position.Tiebreak{position.Leftmost, position.Rightmost} {
		for _, m := range position.Masks {
			p := kernelProgram(b, tb, m, 20, "Q_b(j) | PREV(j)", "!PREV(j)")
			b.Run(fmt.Sprintf("%s/%s", tb, m), func(b *testing.B) { benchFast(b, p, w) })
		}
	}
}

// BenchmarkFastMixedScore measures scores that read at i and j: 20 chained
// operations whose score compares the symbols at i and j (two i-atoms, so
// three non-empty groups), on random words of n = 10⁴ and 10⁶.
func BenchmarkFastMixedScore(b *testing.B) {
	p := kernelProgram(b, position.Rightmost, position.MaskFuture, 20,
		"Q_a(i) & Q_a(j) | Q_b(i) & Q_b(j)", "PREV(j)")
	for _, n := range []int{1e4, 1e6} {
		w := brasptest.RandomWord(rand.New(rand.NewPCG(5, uint64(n))), 2, n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) { benchFast(b, p, w) })
	}
}

// BenchmarkFastShortWord shows the fixed cost on a 10-symbol Dyck word:
// Program.Run compiles the program on every call; a Runner compiles once, and
// RunInto also reuses the trace. Callers that run one program on many words
// (the CLI's --input-file, tests) should keep a Runner.
func BenchmarkFastShortWord(b *testing.B) {
	p := dyckProgram(b)
	w := []int{0, 0, 1, 1, 0, 1, 0, 0, 1, 1}
	b.Run("Program.Run", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p.Run(w)
		}
	})
	r := brasp.NewRunner(p)
	b.Run("Runner.Run", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r.Run(w)
		}
	})
	var tr *brasp.Trace
	b.Run("Runner.RunInto", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			tr = r.RunInto(tr, w)
		}
	})
}

// BenchmarkBuilderFreshNames adds 10⁴ operations under one name, as
// LTL → B-RASP does for a long conjunction: each takes a fresh name, in
// constant time.
func BenchmarkBuilderFreshNames(b *testing.B) {
	for b.Loop() {
		bl := brasp.NewBuilder(alphabet.Alphabet{"a"})
		x := bl.SymbolVec(0)
		for range 10000 {
			x = bl.Positionwise("P", brasp.And(bl.I(x), bl.I(0)))
		}
		if _, err := bl.Program(); err != nil {
			b.Fatal(err)
		}
	}
}
