package transformer_test

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/internal/cputime"
	"github.com/brasp-dev/brasp/position"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
)

// dyckBenchModel compiles the paper's Dyck-1 depth-2 program with the
// depth-preserving construction and returns a runner and the program.
func dyckBenchModel(b *testing.B) (*transformer.Runner, *brasp.Program) {
	return dyckBenchModelWith(b, compile.Options{MultiHead: true})
}

// dyckBenchModelWith is dyckBenchModel compiled with opts.
func dyckBenchModelWith(b *testing.B, opts compile.Options) (*transformer.Runner, *brasp.Program) {
	src, err := os.ReadFile(filepath.Join("..", "examples", "dyck1_depth2.brasp"))
	if err != nil {
		b.Fatal(err)
	}
	p, err := brasp.Parse("dyck1_depth2.brasp", src)
	if err != nil {
		b.Fatal(err)
	}
	m, err := compile.Compile(nil, p, opts)
	if err != nil {
		b.Fatal(err)
	}
	r, err := transformer.NewRunner(m)
	if err != nil {
		b.Fatal(err)
	}
	return r, p
}

// dyckWord returns a word of L_{1,2} of length n (n even): repetitions of
// "llrr" and "lr".
func dyckWord(p *brasp.Program, n int) []int {
	l, r := p.Alphabet.Index("l"), p.Alphabet.Index("r")
	w := make([]int, 0, n)
	for len(w)+4 <= n {
		w = append(w, l, l, r, r)
	}
	for len(w) < n {
		w = append(w, l, r)
	}
	return w
}

// BenchmarkDyckForward compares the fast (linear) and dense (quadratic)
// forward passes on the compiled Dyck-1 depth-2 model. Dense runs up to
// n = 10^5 (one iteration takes minutes there; use -benchtime=1x).
func BenchmarkDyckForward(b *testing.B) {
	r, p := dyckBenchModel(b)
	for _, n := range []int{100, 1000, 10000, 100000, 1000000} {
		w := dyckWord(p, n)
		b.Run(fmt.Sprintf("fast/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				ok, err := r.Accepts(w)
				if err != nil || !ok {
					b.Fatalf("accepts = %v, %v", ok, err)
				}
			}
		})
		if n > 100000 {
			continue
		}
		b.Run(fmt.Sprintf("dense/n=%d", n), func(b *testing.B) {
			for b.Loop() {
				ok, err := r.AcceptsDense(w)
				if err != nil || !ok {
					b.Fatalf("accepts = %v, %v", ok, err)
				}
			}
		})
	}
}

// BenchmarkDyckBatch times the batch API on the compiled Dyck-1 depth-2
// model (multi-head): each iteration decides a batch of words of length n
// totalling about 10^6 positions (at least one word), and the reported
// figures are per word (ns/word, allocs/word).
func BenchmarkDyckBatch(b *testing.B) {
	r, p := dyckBenchModel(b)
	for _, n := range []int{100, 1000, 10000, 100000, 1000000} {
		count := max(1, 1000000/n)
		words := make([][]int, count)
		for k := range words {
			words[k] = dyckWord(p, n)
		}
		out := make([]bool, count)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			batch := r.NewBatch(transformer.FastOptions{})
			b.ReportAllocs()
			for b.Loop() {
				if err := batch.Accepts(nil, words, out); err != nil || !out[0] {
					b.Fatalf("accepts = %v, %v", out[0], err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*count), "ns/word")
			b.ReportMetric(float64(testing.AllocsPerRun(1, func() { _ = batch.Accepts(nil, words, out) }))/float64(count), "allocs/word")
		})
	}
}

// BenchmarkDyckRunBytes runs the compiled Dyck-1 depth-2 models (sequential
// and depth-preserving) on a word stored a byte per symbol
// (Runner.RunBytes) and reports the bytes allocated per symbol
// (alloc-B/symbol: the class ids of the positions, layer after layer,
// plus the pass's per-class tables) and the time per symbol.
func BenchmarkDyckRunBytes(b *testing.B) {
	for _, multi := range []bool{false, true} {
		r, p := dyckBenchModel(b)
		if !multi {
			m, err := compile.Compile(nil, p, compile.Options{})
			if err != nil {
				b.Fatal(err)
			}
			if r, err = transformer.NewRunner(m); err != nil {
				b.Fatal(err)
			}
		}
		for _, n := range []int{1000, 1000000} {
			ints := dyckWord(p, n)
			w := make([]byte, n)
			for i, s := range ints {
				w[i] = byte(s)
			}
			b.Run(fmt.Sprintf("multihead=%v/n=%d", multi, n), func(b *testing.B) {
				b.ReportAllocs()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				before := ms.TotalAlloc
				for b.Loop() {
					a, err := r.RunBytes(w)
					if err != nil {
						b.Fatal(err)
					}
					if ok, err := r.Model().Verdict(a); err != nil || !ok {
						b.Fatalf("verdict = %v, %v", ok, err)
					}
				}
				runtime.ReadMemStats(&ms)
				b.ReportMetric(float64(ms.TotalAlloc-before)/float64(b.N*n), "alloc-B/symbol")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/symbol")
			})
		}
	}
}

// randomDyckWord returns a word of L_{1,2} of length n (n even) drawn by
// a random walk on the depths 0, 1, 2 from a fixed seed.
func randomDyckWord(p *brasp.Program, n int) []int {
	l, r := p.Alphabet.Index("l"), p.Alphabet.Index("r")
	rng := rand.New(rand.NewPCG(1, 2))
	w := make([]int, 0, n)
	depth := 0
	for len(w) < n {
		open := depth == 0 || depth == 1 && len(w)+depth < n && rng.IntN(2) == 0
		if open {
			w, depth = append(w, l), depth+1
		} else {
			w, depth = append(w, r), depth-1
		}
	}
	return w
}

// BenchmarkLongWord compares, on one word of n = 10^7 symbols stored a
// byte each, the per-symbol cost of the Dyck-1 depth-2 program (the fast
// B-RASP interpreter, brasp.Runner.RunBytes) with that of its compiled
// transformers (sequential and multi-head, Runner.RunBytes), on a
// periodic word (llrr…) and on a random one. It reports wall-clock and
// thread-CPU nanoseconds per symbol (read the CPU figure on a loaded
// machine) and the bytes allocated per symbol.
//
//	go test ./transformer -run '^$' -bench LongWord -benchtime 3x
func BenchmarkLongWord(b *testing.B) {
	const n = 10_000_000
	_, p := dyckBenchModel(b)
	var models []*transformer.Model
	for _, multi := range []bool{false, true} {
		m, err := compile.Compile(nil, p, compile.Options{MultiHead: multi})
		if err != nil {
			b.Fatal(err)
		}
		models = append(models, m)
	}
	for _, kind := range []string{"periodic", "random"} {
		ints := dyckWord(p, n)
		if kind == "random" {
			ints = randomDyckWord(p, n)
		}
		w := make([]byte, n)
		for i, s := range ints {
			w[i] = byte(s)
		}
		b.Run(kind+"/program", func(b *testing.B) {
			r := brasp.NewRunner(p)
			tr := r.RunBytes(nil, w)
			if !tr.Accept() {
				b.Fatal("the program rejects the word")
			}
			perSymbol(b, n, func() {
				tr = r.RunBytes(tr, w)
			})
		})
		for k, m := range models {
			r, err := transformer.NewRunner(m)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/compiled/multihead=%v", kind, k == 1), func(b *testing.B) {
				perSymbol(b, n, func() {
					a, err := r.RunBytes(w)
					if err != nil {
						b.Fatal(err)
					}
					if ok, err := m.Verdict(a); err != nil || !ok {
						b.Fatalf("verdict = %v, %v", ok, err)
					}
				})
			})
		}
	}
}

// perSymbol runs f b.N times and reports ns/symbol, cpu-ns/symbol (the
// calling thread's CPU time, where the system tells) and alloc-B/symbol
// for a word of n symbols.
func perSymbol(b *testing.B, n int, f func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	cpu0, ok := cputime.Thread()
	for b.Loop() {
		f()
	}
	cpu1, ok1 := cputime.Thread()
	runtime.ReadMemStats(&ms)
	per := float64(b.N) * float64(n)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/per, "ns/symbol")
	if ok && ok1 {
		b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/per, "cpu-ns/symbol")
	}
	b.ReportMetric(float64(ms.TotalAlloc-before)/per, "alloc-B/symbol")
}

// hardenedModel returns a model shaped like a random network of
// brasp.harden's export: width 8 over {a, b}, a period-3 table per
// coordinate, three layers of one future-or-self head whose score and value
// matrices are products of two matrices of float32-like dyadic entries,
// an FFN of 12 units, and layer norms after the attention and after the
// FFN. Its layer norms have irrational σ, so that every word takes the
// exact fallback.
func hardenedModel(rng *rand.Rand) *transformer.Model {
	const d, hidden = 8, 12
	num := ratSource(func() *big.Rat { return big.NewRat(rng.Int64N(1<<24)-1<<23, 1<<(22+rng.IntN(6))) })
	vec, mat := num.vec, num.mat
	product := func() transformer.Matrix {
		a, b := mat(d, d), mat(d, d)
		p := make(transformer.Matrix, d)
		for i := range p {
			p[i] = make(transformer.Vec, d)
			for j := range p[i] {
				s := new(big.Rat)
				for k := range d {
					s.Add(s, new(big.Rat).Mul(a[k][i], b[k][j]))
				}
				p[i][j] = s
			}
		}
		return p
	}
	norm := func() *transformer.LayerNorm {
		return &transformer.LayerNorm{Gamma: vec(d), Beta: vec(d), Eps: big.NewRat(1, 100000)}
	}
	m := &transformer.Model{Alphabet: brasptest.Alphabet(2), Width: d}
	for k := range d {
		m.Labels = append(m.Labels, "x"+strconv.Itoa(k))
		m.Position = append(m.Position, transformer.PositionTerm{Kind: transformer.PosTable, Period: vec(3), Coord: k, Scale: big.NewRat(1, 1)})
	}
	m.Embedding = []transformer.Vec{vec(d), vec(d)}
	for range 3 {
		m.Layers = append(m.Layers, transformer.Layer{
			Heads:         []transformer.Head{{Mask: position.MaskFutureOrSelf, Tiebreak: position.Rightmost, Score: product(), Value: product()}},
			AttentionNorm: norm(),
			FFN:           &transformer.FFN{W1: mat(hidden, d), B1: vec(hidden), W2: mat(d, hidden), B2: vec(d)},
			FFNNorm:       norm(),
		})
	}
	m.Output = transformer.Output{Weight: vec(d), Bias: num()}
	return m
}

// BenchmarkBatchExact decides, with one new Batch per iteration, every
// word up to length 6 and 8 random words of 20 to 150 symbols on a model
// whose every word takes the exact fallback (hardenedModel), as brasp run
// does on a model of brasp.harden.
func BenchmarkBatchExact(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 11))
	m := hardenedModel(rng)
	r, err := transformer.NewRunner(m)
	if err != nil {
		b.Fatal(err)
	}
	var words [][]int
	brasptest.AllWords(2, 6, func(w []int) { words = append(words, append([]int(nil), w...)) })
	for range 8 {
		words = append(words, brasptest.RandomWord(rng, 2, 20+rng.IntN(131)))
	}
	out := make([]bool, len(words))
	for b.Loop() {
		if err := r.AcceptsBatch(nil, words, out); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkShortWordsLayerNorm runs the fast forward pass, as the compiler's
// agreement tests do, on every word of length at most 8 over the compiled
// Dyck-1 depth-2 model with layer norms (multi-head) and reports the cost
// per word (ns/word, allocs/word).
func BenchmarkShortWordsLayerNorm(b *testing.B) {
	r, p := dyckBenchModelWith(b, compile.Options{MultiHead: true, LayerNorm: true})
	var words [][]int
	brasptest.AllWords(len(p.Alphabet), 8, func(w []int) { words = append(words, append([]int(nil), w...)) })
	run := func() {
		for _, w := range words {
			if _, err := r.Forward(w, transformer.FastOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		run()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(words)), "ns/word")
	b.ReportMetric(testing.AllocsPerRun(1, run)/float64(len(words)), "allocs/word")
}
