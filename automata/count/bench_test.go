package count

import (
	"math/big"
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/internal/cputime"
	"github.com/brasp-dev/brasp/internal/testkit"
)

// benchAutomaton is a random minimal DFA over four letters: its counts of
// length 100 are about 2^200, so every draw goes through the big counts.
func benchAutomaton(b *testing.B, states int) *Automaton {
	d := automata.RandomDFA(rand.New(rand.NewPCG(100, 4)), testkit.Letters(4), states)
	m, err := automata.Minimize(nil, d)
	if err != nil {
		b.Fatal(err)
	}
	return fromDFA(b, m)
}

// BenchmarkGenerate100 draws labelled words of length 100 over four
// letters, balanced (half accepted, half rejected), with Generate: one op
// is one word. cpu-ns/op is the thread's CPU time, the figure to read on a
// loaded machine.
func BenchmarkGenerate100(b *testing.B) {
	for _, states := range []int{5, 50} {
		a := benchAutomaton(b, states)
		b.Run("states="+itoa(a.NumStates()), func(b *testing.B) {
			tb := table(b, a, 100)
			b.ReportAllocs()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cpu0, ok := cputime.Thread()
			b.ResetTimer()
			err := Generate(nil, tb, Request{Min: 100, Max: 100, Count: b.N, Mode: Balanced, Seed: 1},
				func([]uint64, bool) error { return nil }, func(string) {})
			if err != nil {
				b.Fatal(err)
			}
			if cpu1, ok1 := cputime.Thread(); ok && ok1 {
				b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
			}
		})
	}
}

// BenchmarkCount100 builds the count table of lengths up to 100 (big
// counts from length 32 on).
func BenchmarkCount100(b *testing.B) {
	a := benchAutomaton(b, 50)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.Count(nil, 100); err != nil {
			b.Fatal(err)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// BenchmarkCountsLength counts the words of one long length as brasp
// count --lengths N does (Counts: one row, reached by matrix powers or
// rolled), on the 2-state parity DFA over a b and a random 4-state DFA
// over four letters. cpu-ns/op is the thread's CPU time.
func BenchmarkCountsLength(b *testing.B) {
	parity, err := automata.Parse("parity.dfa", []byte("alphabet a b\nstart e\naccept o\ne a e\ne b o\no a o\no b e\n"))
	if err != nil {
		b.Fatal(err)
	}
	four := automata.RandomDFA(rand.New(rand.NewPCG(34, 4)), testkit.Letters(4), 4)
	for _, c := range []struct {
		name string
		a    *Automaton
		n    int
	}{
		{"parity/n=100000", fromDFA(b, parity), 100000},
		{"parity/n=1000000", fromDFA(b, parity), 1000000},
		{"random4x4/n=100000", fromDFA(b, four), 100000},
	} {
		b.Run(c.name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cpu0, ok := cputime.Thread()
			for b.Loop() {
				err := c.a.Counts(nil, c.n, c.n, func(_ int, acc, _, _ *big.Int) error {
					if acc.Sign() == 0 {
						b.Fatal("no word accepted")
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			if cpu1, ok1 := cputime.Thread(); ok && ok1 {
				b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/op")
			}
		})
	}
}
