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

// FuzzSymbolicProgramDFA: any program over propositions that parses either
// gets a symbolic DFA that agrees with the reference interpreter on every
// trace of up to three steps over its first three propositions (the others
// false), or a clear error; never a panic.
//
//	go test ./exact -run '^$' -fuzz FuzzSymbolicProgramDFA -fuzztime 1m
func FuzzSymbolicProgramDFA(f *testing.F) {
	f.Add([]byte("propositions p q\nY(i) := rightmost [j<i, P_p(j)] P_q(j) : 0\n"))
	f.Add([]byte("propositions req grant\nfirst(i)\nlast(i)\nMOD_1_2(i)\nA(i) := leftmost [1, P_grant(j) | last(i)] MOD_1_2(j) : P_req(i)\nB(i) := rightmost [j>=i, A(j) & P_req(i)] first(j) : !A(i)\n"))
	f.Add([]byte("propositions a b c d e f g h i j k l m n o p q r s t u v w x y z\nY(i) := leftmost [j>i, P_z(j)] P_a(j) | P_m(i) : P_b(i)\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := brasp.Parse("fuzz.brasp", src)
		if err != nil || p.Props == nil {
			return
		}
		d, err := SymbolicProgramDFA(budget.New(context.Background(), budget.Settings{"exact-states": 2000, "exact-bytes": 1 << 20, "bdd-bytes": 1 << 24}), p)
		if errors.Is(err, ErrNotRegular) || errors.Is(err, ErrTransducer) || errors.Is(err, budget.ErrLimit) {
			return
		}
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		k := min(len(p.Props), 3)
		brasptest.AllWords(1<<k, 3, func(w []int) {
			steps := make([][]uint64, len(w))
			trace := make([][]bool, len(w))
			for i, v := range w {
				steps[i] = []uint64{uint64(v)}
				trace[i] = make([]bool, len(p.Props))
				for j := range k {
					trace[i][j] = v>>j&1 == 1
				}
			}
			if d.Accepts(trace) != p.RunStepsReference(steps).Accept() {
				t.Fatalf("DFA and interpreter differ on %v", trace)
			}
		})
	})
}
