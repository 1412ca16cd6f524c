package exact

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/examples"
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

func BenchmarkStair(b *testing.B) {
	for _, k := range []int{4, 16, 64} {
		p, _ := examples.StairProgram(k)
		b.Run(fmt.Sprint(k), func(b *testing.B) {
			for b.Loop() {
				if _, err := ProgramDFA(nil, p); err != nil {
					b.Fatal(err)
				}
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
