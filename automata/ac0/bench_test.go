package ac0_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/ac0"
	"github.com/brasp-dev/brasp/automata/regex/regextest"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/transformer/compile"
	"github.com/brasp-dev/brasp/transformer/decompile"
)

// BenchmarkRandom times the construction on random DFAs whose minimal DFA
// has about n states (n−4..n) and that classify calls AC0 but not
// star-free (a mod-m counter beside extensive maps), eight DFAs per size, and reports the mean stability index,
// block alphabet and program size of those that stay within the default
// limits (the others are counted as limit hits).
func BenchmarkRandom(b *testing.B) {
	for _, n := range []int{5, 10, 15, 20, 30} {
		rng := rand.New(rand.NewPCG(uint64(n), 7))
		var ds []*automata.DFA
		for len(ds) < 8 {
			d, _ := randomAC0(b, rng, max(2, n-4), n, true)
			ds = append(ds, d)
		}
		b.Run(fmt.Sprintf("states=%d", n), func(b *testing.B) {
			var s, ts, vecs, runs, limited float64
			for b.Loop() {
				for _, d := range ds {
					res, err := ac0.DFAToBRASP(nil, d)
					if errors.Is(err, budget.ErrLimit) {
						limited++
						continue
					}
					if err != nil {
						b.Fatal(err)
					}
					s += float64(res.StabilityIndex)
					ts += float64(res.BlockAlphabet)
					vecs += float64(len(res.Program.Vectors))
					runs++
				}
			}
			b.ReportMetric(limited, "limit-hits")
			b.ReportMetric(s/runs, "s")
			b.ReportMetric(ts/runs, "|T_s|")
			b.ReportMetric(vecs/runs, "vectors")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/(runs+limited)/1e6, "ms/dfa")
		})
	}
}

// BenchmarkDecompile times decompiling the compiled (sequential) models of
// the widest AC0 cases, the step exact.ModelDFA spends its time in, and
// reports the process CPU time per decompilation (the machine is shared:
// wall time mostly measures its load) and the model's layers and width.
//
//	go test ./automata/ac0 -run '^$' -bench Decompile -benchtime 1x
func BenchmarkDecompile(b *testing.B) {
	for _, name := range []string{"blocks_ab_ba_then_any", "len1mod3_contains_ab", "len0mod6_ends_ab"} {
		var alpha, re string
		for _, tc := range ac0Cases {
			if tc.name == name {
				alpha, re = tc.alpha, tc.re
			}
		}
		res, err := ac0.DFAToBRASP(nil, regextest.DFA(b, alpha, re))
		if err != nil {
			b.Fatal(err)
		}
		m, err := compile.Compile(nil, res.Program, compile.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			cpu := processCPU()
			var info *decompile.Info
			for b.Loop() {
				var err error
				if _, info, err = decompile.DecompileInfo(nil, m, decompile.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			combos, classes := 0, 0
			for l := range info.Combos {
				combos += info.Combos[l]
				classes = max(classes, info.Classes[l])
			}
			b.ReportMetric(float64(combos), "combos")
			b.ReportMetric(float64(classes), "max-classes")
			b.ReportMetric(float64((processCPU()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(len(m.Layers)), "layers")
			b.ReportMetric(float64(m.Width), "width")
		})
	}
}
