package exact

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/krohnrhodes"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/examples"
)

// checkFutureOnly converts p and checks the result three ways: only
// rightmost strict future-masked attention; the same minimal DFA; the same
// verdicts of the two reference interpreters on every word up to maxLen.
// It returns the future-only program.
func checkFutureOnly(t *testing.T, name string, p *brasp.Program, maxLen int) *brasp.Program {
	t.Helper()
	q, err := FutureOnly(nil, p)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := CheckFutureOnly(q); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	dp := mustDFA(t)(ProgramDFA(nil, p))
	dq := mustDFA(t)(ProgramDFA(nil, q))
	if eq, w, _, err := Equivalent(dp, dq); err != nil || !eq {
		t.Fatalf("%s: the future-only program differs on %v (%v)\n%s", name, w, err, brasp.Format(q))
	}
	brasptest.AllWords(len(p.Alphabet), maxLen, func(w []int) {
		if p.RunReference(w).Accept() != q.RunReference(w).Accept() {
			t.Fatalf("%s: interpreters differ on %v", name, w)
		}
	})
	return q
}

func TestFutureOnlyExamples(t *testing.T) {
	for _, name := range examples.Names() {
		if !strings.HasSuffix(name, ".brasp") {
			continue
		}
		p := examples.MustProgram(name)
		if p.IsTransducer() {
			continue
		}
		checkFutureOnly(t, name, p, 6)
	}
}

func TestFutureOnlyRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 34))
	for range 150 {
		p := brasptest.RandomProgram(rng, brasptest.Options{Alphabet: 2, Ops: 2 + rng.IntN(5)})
		checkFutureOnly(t, "random", p, 6)
	}
}

// TestA3KrohnRhodes: the automaton A_3 of the paper against its Krohn–Rhodes
// program, and a near miss (the program for A_3 against a one-state change).
func TestA3KrohnRhodes(t *testing.T) {
	a3 := loadDFA(t, filepath.Join("..", "automata", "testdata", "a3.dfa"))
	p, _, err := krohnrhodes.DFAToBRASP(nil, a3)
	if err != nil {
		t.Fatal(err)
	}
	d := mustDFA(t)(ProgramDFA(nil, p))
	if eq, w, _, err := Equivalent(d, a3); err != nil || !eq {
		t.Fatalf("A_3 vs its Krohn–Rhodes program: %v %v", w, err)
	}
	// Removing ε changes nothing on Σ⁺.
	if eq, _, _, _ := Equivalent(d, automata.RestrictNonEmpty(a3)); !eq {
		t.Fatal("a change on ε alone is visible on Σ⁺")
	}
	miss := a3.Clone()
	for q := range miss.Accept {
		if q != miss.Start {
			miss.Accept[q] = !miss.Accept[q]
			break
		}
	}
	eq, w, pAcc, err := Equivalent(d, miss)
	if err != nil || eq {
		t.Fatalf("near miss not found: %v", err)
	}
	checkCounterexample(t, "A_3 near miss", len(a3.Alphabet), p.Accepts, miss.Accepts, w, pAcc)
}

// TestFutureOnlyLargeDyck runs Thm 5.1 on Dyck-2 programs whose DFAs have
// 65 and 513 states: the Krohn–Rhodes program (1,561 vectors for depth 8)
// is turned back into a minimal DFA and must be exactly the original
// language. This exercises the context-form cascade and the bimachine's
// minimisation on programs far larger than the examples.
func TestFutureOnlyLargeDyck(t *testing.T) {
	if testing.Short() {
		t.Skip("a 1,561-vector program")
	}
	for _, depth := range []int{5, 8} {
		p, err := examples.DyckProgram(2, depth)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("Dyck-2 depth %d", depth)
		q := checkFutureOnly(t, name, p, 4)
		rng := rand.New(rand.NewPCG(uint64(depth), 9))
		for range 200 {
			w := brasptest.RandomWord(rng, len(p.Alphabet), 1+rng.IntN(300))
			if p.Accepts(w) != q.Accepts(w) {
				t.Fatalf("%s: the programs differ on %v", name, w)
			}
		}
		t.Logf("%s: future-only program of %d vectors", name, len(q.Vectors))
	}
}
