package artifact

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/brasp-dev/brasp/automata/count"
	"github.com/brasp-dev/brasp/budget"
)

// FuzzSampleLabels reads arbitrary text as an expression, automaton,
// formula or LTLf formula and, when it loads and its language is built
// within small limits, draws words of lengths 1 to 5 (balanced) and lists
// those of lengths 1 and 2: every word must be readable by the input as
// brasp run reads it, and labelled as the input decides; and the counts of
// lengths 1 and 2 must be what the listing found. The seeds are the
// example expressions, automata and formulas and the LTLf test formulas.
func FuzzSampleLabels(f *testing.F) {
	for _, pat := range []string{"../examples/*.re", "../examples/*.dfa", "../examples/*.ltl", "../ltlf/testdata/*.ltlf"} {
		files, err := filepath.Glob(pat)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(filepath.Ext(file), data)
		}
	}
	f.Fuzz(func(t *testing.T, ext string, data []byte) {
		k, err := KindOf("fuzz" + ext)
		if err != nil || k == KindTransformer || k == KindBRASP {
			return
		}
		b := budget.New(context.Background(), budget.Settings{budget.Work.Name: 1 << 22, count.TableBytes.Name: 1 << 20})
		a, err := Load(b, "fuzz"+ext, data, k)
		if err != nil {
			return
		}
		l, err := LanguageOf(b, a, Options{})
		if err != nil {
			return
		}
		tb, err := l.A.Count(b, 5)
		if err != nil {
			return
		}
		check := func(w []uint64, acc bool) error {
			got, err := l.Run(a, w)
			if errors.Is(err, budget.ErrLimit) {
				return err // the input's own run is bounded by the same budget
			}
			if err != nil || got != acc {
				t.Fatalf("%s labelled %v, the input says %v (%v)", l.AppendWord(nil, w), acc, got, err)
			}
			return nil
		}
		err = count.Generate(b, tb, count.Request{Min: 1, Max: 5, Count: 4, Mode: count.Balanced, Seed: 1}, check, func(string) {})
		if err != nil {
			return
		}
		var listed [3]int64
		err = l.A.Enumerate(b, 1, 2, func(w []uint64, acc bool) error {
			if acc {
				listed[len(w)]++
			}
			return check(w, acc)
		})
		if err != nil {
			return
		}
		for n := 1; n <= 2; n++ {
			if got := tb.Words(count.Accept, n); !got.IsInt64() || got.Int64() != listed[n] {
				t.Fatalf("length %d: %s counted, %d listed", n, got, listed[n])
			}
		}
	})
}
