package exact

import (
	"context"
	"errors"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/examples"
)

// FuzzProgramDFA: any program that parses either gets a DFA that agrees with
// the reference interpreter on all short words, or a clear error (a limit,
// Mid, a transducer); never a panic.
//
//	go test ./exact -run '^$' -fuzz FuzzProgramDFA -fuzztime 1m
func FuzzProgramDFA(f *testing.F) {
	for _, name := range examples.Names() {
		src, err := examples.Source(name)
		if err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("Q_a(i)\nfirst(i)\nlast(i)\nMOD_1_3(i)\nY(i) := leftmost [1, first(j) | last(i)] MOD_1_3(j) : Q_a(i)\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := brasp.Parse("fuzz.brasp", src)
		if err != nil || len(p.Alphabet) > 3 {
			return
		}
		d, err := ProgramDFA(budget.New(context.Background(), budget.Settings{"exact-states": 2000, "exact-bytes": 1 << 20}), p)
		if errors.Is(err, ErrNotRegular) || errors.Is(err, ErrTransducer) || errors.Is(err, budget.ErrLimit) {
			return
		}
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		brasptest.AllWords(len(p.Alphabet), 4, func(w []int) {
			if d.Accepts(w) != p.RunReference(w).Accept() {
				t.Fatalf("DFA and interpreter differ on %v", w)
			}
		})
	})
}
