package exact

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/examples"
	"github.com/brasp-dev/brasp/internal/cputime"
	"github.com/brasp-dev/brasp/ltl"
	"github.com/brasp-dev/brasp/ltl/toltlf"
	"github.com/brasp-dev/brasp/ltlf"
)

// go test ./exact -run '^$' -bench . -benchtime 3x
func BenchmarkDyck(b *testing.B) {
	for _, c := range [][2]int{{1, 2}, {1, 4}, {1, 6}, {2, 2}, {2, 3}, {3, 2}} {
		p, err := examples.DyckProgram(c[0], c[1])
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("k%d_D%d", c[0], c[1]), func(b *testing.B) {
			for b.Loop() {
				d, err := ProgramDFA(nil, p)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(d.NumStates()), "states")
			}
		})
	}
}

// BenchmarkStair: STAIR_k's program → minimal DFA (ProgramDFA), for the
// growth in k; cpu-ns/op is the thread's CPU time (read it on a loaded
// machine).
//
//	go test ./exact -run '^$' -bench 'Stair$' -benchtime 20x
func BenchmarkStair(b *testing.B) {
	for _, k := range []int{1, 2, 3, 4, 5, 6, 7, 8, 16, 32, 64, 128} {
		p, _ := examples.StairProgram(k)
		b.Run(fmt.Sprint(k), func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cpu0, ok := cputime.Thread()
			for b.Loop() {
				if _, err := ProgramDFA(nil, p); err != nil {
					b.Fatal(err)
				}
			}
			if cpu1, ok1 := cputime.Thread(); ok && ok1 {
				b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
			}
		})
	}
}

func BenchmarkRandom(b *testing.B) {
	for _, ops := range []int{6, 12, 20} {
		rng := rand.New(rand.NewPCG(1, uint64(ops)))
		ps := make([]*brasp.Program, 50)
		for i := range ps {
			ps[i] = brasptest.RandomProgram(rng, brasptest.Options{Alphabet: 2, Ops: ops, Predicates: true})
		}
		b.Run(fmt.Sprint(ops), func(b *testing.B) {
			for b.Loop() {
				for _, p := range ps {
					if _, err := ProgramDFA(nil, p); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkPropositions: the exact semantics of programs over k
// propositions compiled from LTLf (ltlf.ToBRASP), symbolically
// (SymbolicProgramDFA) and, up to 10 propositions, by the letter
// construction on the program over the 2^k valuations.
//
//	go test ./exact -run '^$' -bench Propositions -benchtime 3x
func BenchmarkPropositions(b *testing.B) {
	anyAll := func(k int) string {
		var as, bs []string
		for i := 1; i <= k/2; i++ {
			as = append(as, fmt.Sprintf("a%d", i))
			bs = append(bs, fmt.Sprintf("b%d", i))
		}
		return "G((" + strings.Join(as, " | ") + ") -> F(" + strings.Join(bs, " & ") + "))"
	}
	cases := []struct {
		name, src string
	}{
		{"declare_8", "(F act1 -> F act2) & G(act3 -> X[!](!act3 U act4)) & (!act5 W act6) & G(act7 -> F act8)"},
		{"responses_4", responses(4)},
		{"responses_6", responses(6)},
		{"anyall_6", anyAll(6)},
		{"anyall_10", anyAll(10)},
		{"anyall_30", anyAll(30)},
		{"anyall_60", anyAll(60)},
	}
	for _, c := range cases {
		f, err := ltlf.ParseString(c.src)
		if err != nil {
			b.Fatal(err)
		}
		p, err := ltlf.ToBRASP(f)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name+"/symbolic", func(b *testing.B) {
			for b.Loop() {
				d, err := SymbolicProgramDFA(nil, p)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(d.NumStates()), "states")
			}
		})
		if k := len(p.Props); k <= 10 {
			lp, err := brasp.ToValuationLetters(p, valuationLetters(k))
			if err != nil {
				b.Fatal(err)
			}
			b.Run(c.name+"/letters", func(b *testing.B) {
				for b.Loop() {
					if _, err := ProgramDFA(nil, lp); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkStairFormula: STAIR_k's formula → minimal DFA by FormulaDFA
// (the route its estimate picks) and by each route alone.
//
//	go test ./exact -run '^$' -bench StairFormula -benchtime 3x
func BenchmarkStairFormula(b *testing.B) {
	for _, k := range []int{4, 16, 64} {
		f, err := ltl.ParseFile("stair.ltl", []byte(stairSource(k)))
		if err != nil {
			b.Fatal(err)
		}
		routes := []struct {
			name string
			run  func() error
		}{
			{"FormulaDFA", func() error { _, err := FormulaDFA(nil, f); return err }},
			{"bimachine", func() error { _, err := BimachineFormulaDFA(nil, f); return err }},
			{"symbolic", func() error { _, err := toltlf.DFA(nil, f); return err }},
		}
		for _, r := range routes {
			b.Run(fmt.Sprintf("k%d/%s", k, r.name), func(b *testing.B) {
				for b.Loop() {
					if err := r.run(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkDecompiledTransducer: the program Thm 4.2 decompiles from
// associative recall's layer-norm model, compared with the source program
// (TransducersEquivalent): attention steps over a machine of many states,
// most of which share their old state.
//
//	go test ./exact -run '^$' -bench DecompiledTransducer -benchtime 3x
func BenchmarkDecompiledTransducer(b *testing.B) {
	src, err := os.ReadFile(filepath.Join("testdata", "associative_recall_layernorm.brasp"))
	if err != nil {
		b.Fatal(err)
	}
	p, err := brasp.Parse("associative_recall_layernorm.brasp", src)
	if err != nil {
		b.Fatal(err)
	}
	q := examples.MustProgram("associative_recall.brasp")
	for b.Loop() {
		diff, err := TransducersEquivalent(nil, p, q)
		if err != nil {
			b.Fatal(err)
		}
		if diff != nil {
			b.Fatalf("not equivalent: %+v", diff)
		}
	}
}
