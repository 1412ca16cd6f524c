package artifact

import (
	"os"
	"testing"

	"github.com/brasp-dev/brasp/automata/count"
)

// BenchmarkSampleWritten draws balanced labelled words of length 100 and
// writes them as brasp sample does (one op: one word, drawn and written):
// a word of two letters (Dyck-1 of depth 2, counts near 2^100) and a
// trace over three propositions (8 valuations a step, counts near 2^300).
func BenchmarkSampleWritten(b *testing.B) {
	for _, file := range []string{"../examples/dyck1_depth2.brasp", "../ltlf/testdata/response.ltlf"} {
		data, err := os.ReadFile(file)
		if err != nil {
			b.Fatal(err)
		}
		a, err := Load(nil, file, data, "")
		if err != nil {
			b.Fatal(err)
		}
		l, err := LanguageOf(nil, a, Options{})
		if err != nil {
			b.Fatal(err)
		}
		tb, err := l.A.Count(nil, 100)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(file[3:], func(b *testing.B) {
			var line []byte
			b.ReportAllocs()
			b.ResetTimer()
			err := count.Generate(nil, tb, count.Request{Min: 100, Max: 100, Count: b.N, Mode: count.Balanced, Seed: 1},
				func(w []uint64, acc bool) error {
					line = l.AppendWord(line[:0], w)
					return nil
				}, func(string) {})
			if err != nil {
				b.Fatal(err)
			}
		})
	}
}
