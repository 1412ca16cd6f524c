package depth

import (
	"fmt"
	"testing"

	"github.com/brasp-dev/brasp/ltl"
)

// BenchmarkStair bounds STAIR_k in each fragment, with the formula's own
// program known (as brasp depth does for .ltl input). Run with
//
//	go test ./depth -run '^$' -bench Stair -benchtime 1x
func BenchmarkStair(b *testing.B) {
	for _, frag := range []Fragment{Since, SinceUntil} {
		for k := 1; k <= 6; k++ {
			lang, f := stairLanguage(b, k)
			p, err := ltl.ToBRASP(f)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%v/STAIR_%d", frag, k), func(b *testing.B) {
				var r *Result
				for b.Loop() {
					r, err = Analyze(nil, lang, []Known{{Program: p}}, Options{Fragment: frag, MaxDepth: 8})
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(r.Lower), "lower")
				b.ReportMetric(float64(r.Upper), "upper")
				b.ReportMetric(float64(len(r.Witness.In)), "witness-len")
			})
		}
	}
}
