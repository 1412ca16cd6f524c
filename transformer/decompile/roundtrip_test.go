package decompile

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/examples"
	"github.com/brasp-dev/brasp/transformer/compile"
)

// exampleModels compiles every example acceptor of the repository.
func examplePrograms(t testing.TB) map[string]*brasp.Program {
	t.Helper()
	progs, err := examples.Programs()
	if err != nil || len(progs) == 0 {
		t.Fatalf("example programs: %d, %v", len(progs), err)
	}
	return progs
}

func optName(o compile.Options, smaller bool) string {
	s := "seq"
	if o.MultiHead {
		s = "multihead"
	}
	if o.LayerNorm {
		s += "+ln"
	}
	if smaller {
		s += "/smaller"
	} else {
		s += "/shallow"
	}
	return s
}

// agreeProgram checks that q accepts what p accepts on all words up to
// maxLen and on random words up to length 200.
func agreeProgram(t *testing.T, name string, p, q *brasp.Program, maxLen, random int, rng *rand.Rand) {
	t.Helper()
	rp, rq := brasp.NewRunner(p), brasp.NewRunner(q)
	check := func(w []int) {
		if a, b := rp.Run(w).Accept(), rq.Run(w).Accept(); a != b {
			t.Fatalf("%s: on %q the original program says %v, the decompiled one %v\n%s", name, p.Alphabet.FormatWord(w), a, b, brasp.Format(q))
		}
	}
	brasptest.AllWords(len(p.Alphabet), maxLen, check)
	for range random {
		check(brasptest.RandomWord(rng, len(p.Alphabet), 1+rng.IntN(200)))
	}
}

// TestRoundTripExamples: compile → decompile accepts what the example
// accepts, under both compilations (with and without layer norm) and both
// translations; the shallower translation of a multi-head model has
// attention depth = layers. Sizes are logged (go test -v -run
// RoundTripExamples).
func TestRoundTripExamples(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	progs := examplePrograms(t)
	for _, name := range sortedKeys(progs) {
		p := progs[name]
		if p.IsTransducer() {
			continue
		}
		classesOf := map[string]string{}
		for _, co := range compile.Variants {
			m, err := compile.Compile(nil, p, co)
			if err != nil {
				t.Fatalf("%s: compile: %v", name, err)
			}
			for _, smaller := range []bool{false, true} {
				start := time.Now()
				q, info, err := DecompileInfo(nil, m, Options{Smaller: smaller})
				if err != nil {
					t.Errorf("%s %s: %v", name, optName(co, smaller), err)
					continue
				}
				el := time.Since(start)
				// Layer norm must not enlarge the reachable sets: the
				// copies compiled heads leave are frozen (frozenCoords).
				plain := fmt.Sprint(co.MultiHead, smaller)
				if !co.LayerNorm {
					classesOf[plain] = fmt.Sprint(info.Classes)
				} else if got := fmt.Sprint(info.Classes); got != classesOf[plain] {
					t.Errorf("%s %s: reachable sets %s, without layer norm %s", name, optName(co, smaller), got, classesOf[plain])
				}
				maxLen := 6
				if len(p.Alphabet) > 3 {
					maxLen = 4
				}
				agreeProgram(t, name+" "+optName(co, smaller), p, q, maxLen, 100, rng)
				t.Logf("%-24s %-22s layers %2d  classes %v  vectors %3d  depth %2d  (%v)", name, optName(co, smaller),
					m.AttentionLayers(), info.Classes, len(q.Vectors), q.AttentionDepth(), el.Round(time.Millisecond))
				if !smaller && q.AttentionDepth() > m.AttentionLayers() {
					t.Errorf("%s %s: attention depth %d > %d layers", name, optName(co, smaller), q.AttentionDepth(), m.AttentionLayers())
				}
				if !smaller && co.MultiHead && q.AttentionDepth() != m.AttentionLayers() {
					t.Errorf("%s %s: attention depth %d, want the %d layers", name, optName(co, smaller), q.AttentionDepth(), m.AttentionLayers())
				}
			}
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := range ks {
		for j := i + 1; j < len(ks); j++ {
			if ks[j] < ks[i] {
				ks[i], ks[j] = ks[j], ks[i]
			}
		}
	}
	return ks
}

// TestRoundTripRandom: hundreds of random programs (every mask and
// tie-break, scores and values mixing i and j, position predicates)
// compile — sequentially and multi-head — and decompile, under both
// translations, to programs that agree with them on all words up to length
// 6 and random long words; a quarter of them are compiled with layer norm.
func TestRoundTripRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	n := 200
	if testing.Short() {
		n = 50
	}
	for k := range n {
		opts := brasptest.Options{Alphabet: 2 + k%2, Ops: 3 + k%3, Predicates: k%3 == 0}
		p := brasptest.RandomProgram(rng, opts)
		co := compile.Variants[k%len(compile.Variants)]
		m, err := compile.Compile(nil, p, co)
		if err != nil {
			t.Fatalf("program %d: compile: %v\n%s", k, err, brasp.Format(p))
		}
		smaller := k/len(compile.Variants)%2 == 1
		q, err := Decompile(nil, m, Options{Smaller: smaller})
		if err != nil {
			t.Fatalf("program %d (%s): %v\n%s", k, optName(co, smaller), err, brasp.Format(p))
		}
		name := fmt.Sprintf("random program %d (%s)", k, optName(co, smaller))
		agreeProgram(t, name, p, q, 6, 10, rng)
		if !smaller && q.AttentionDepth() > m.AttentionLayers() {
			t.Fatalf("%s: depth %d > %d layers", name, q.AttentionDepth(), m.AttentionLayers())
		}
	}
}

// BenchmarkDecompileDyck times the decompilation of the compiled Dyck-1
// depth-2 model (go test -bench DecompileDyck -run XXX).
func BenchmarkDecompileDyck(b *testing.B) {
	p := examplePrograms(b)["dyck1_depth2.brasp"]
	for _, co := range compile.Variants {
		m, err := compile.Compile(nil, p, co)
		if err != nil {
			b.Fatal(err)
		}
		for _, smaller := range []bool{false, true} {
			b.Run(optName(co, smaller), func(b *testing.B) {
				for b.Loop() {
					if _, err := Decompile(nil, m, Options{Smaller: smaller}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
