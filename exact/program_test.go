package exact

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/examples"
)

// checkProgram compares the DFA of p with the reference interpreter on every
// word of length 1..maxLen, and checks that ε is rejected.
func checkProgram(t *testing.T, name string, p *brasp.Program, d *automata.DFA, maxLen int) {
	t.Helper()
	if d.Accept[d.Start] {
		t.Fatalf("%s: the DFA accepts the empty word", name)
	}
	bad := 0
	brasptest.AllWords(len(p.Alphabet), maxLen, func(w []int) {
		if bad > 0 {
			return
		}
		want := p.RunReference(w).Accept()
		if got := d.Accepts(w); got != want {
			bad++
			t.Errorf("%s on %q: DFA %v, interpreter %v\n%s", name, p.Alphabet.FormatWord(w), got, want, brasp.Format(p))
		}
	})
}

func TestRandomPrograms(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	configs := []struct {
		name string
		opts brasptest.Options
		n    int
	}{
		{"mixed", brasptest.Options{Alphabet: 2, Ops: 6}, 300},
		{"mixed3", brasptest.Options{Alphabet: 3, Ops: 5}, 150},
		{"predicates", brasptest.Options{Alphabet: 2, Ops: 6, Predicates: true}, 300},
		{"jonly", brasptest.Options{Alphabet: 2, Ops: 8, JOnly: true}, 200},
		{"long", brasptest.Options{Alphabet: 2, Ops: 10, Attention: 0.8}, 100},
	}
	for _, cfg := range configs {
		for n := range cfg.n {
			p := brasptest.RandomProgram(rng, cfg.opts)
			d, err := ProgramDFA(nil, p)
			if err != nil {
				t.Fatalf("%s %d: %v\n%s", cfg.name, n, err, brasp.Format(p))
			}
			maxLen := 7
			if len(p.Alphabet) > 2 {
				maxLen = 6
			}
			checkProgram(t, cfg.name, p, d, maxLen)
			if t.Failed() {
				return
			}
		}
	}
}

func TestMidRefused(t *testing.T) {
	p, err := brasp.Parse("mid.brasp", []byte("Q_a(i)\nQ_b(i)\nMid(i)\nY(i) := Mid(i) & Q_a(i)\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = ProgramDFA(nil, p)
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "Mid is not regular: {#a^m#b^m#} is definable with it") {
		t.Fatalf("got %v", err)
	}
	// Declared but not read by the output: the language is regular.
	p, err = brasp.Parse("dead.brasp", []byte("Q_a(i)\nQ_b(i)\nMid(i)\nX(i) := Mid(i)\nY(i) := Q_a(i)\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d, err := ProgramDFA(nil, p); err != nil || !d.Accepts([]int{1, 0}) || d.Accepts([]int{0, 1}) {
		t.Fatalf("dead Mid: %v", err)
	}
}

// TestLimits: each limit stops the construction with an error naming it.
func TestLimits(t *testing.T) {
	p, err := examples.StairProgram(8)
	if err != nil {
		t.Fatal(err)
	}
	lim := func(name string, n int64) *budget.Budget {
		return budget.New(context.Background(), budget.Settings{name: n})
	}
	named := func(err error, name string) bool {
		var le *budget.Error
		return errors.As(err, &le) && le.Limit.Name == name && strings.Contains(err.Error(), "--limit "+name+"=N")
	}
	_, err = ProgramDFA(lim("exact-states", 4), p)
	if !named(err, "exact-states") || !strings.Contains(err.Error(), "exact-states=4") {
		t.Fatalf("exact-states: %v", err)
	}
	_, err = ProgramDFA(lim("exact-bytes", 20), p)
	if !named(err, "exact-bytes") {
		t.Fatalf("exact-bytes: %v", err)
	}
	q, err := brasp.Parse("atoms.brasp", []byte("Q_a(i)\nQ_b(i)\nA(i) := Q_a(i)\nB(i) := Q_b(i)\nC(i) := !A(i)\n"+
		"Y(i) := rightmost [j<i, (A(i) & Q_a(j)) | (B(i) & Q_b(j)) | C(i)] Q_a(j) : 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = ProgramDFA(lim("exact-atoms", 2), q)
	if !named(err, "exact-atoms") || !strings.Contains(err.Error(), "Y") {
		t.Fatalf("exact-atoms: %v", err)
	}
	if _, err := ProgramDFA(lim("exact-atoms", 3), q); err != nil {
		t.Fatalf("3 atoms within exact-atoms=3: %v", err)
	}
	m, err := brasp.Parse("mod.brasp", []byte("Q_a(i)\nMOD_0_7(i)\nMOD_0_11(i)\nY(i) := MOD_0_7(i) & MOD_0_11(i)\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = ProgramDFA(lim("exact-modulus", 50), m)
	if !named(err, "exact-modulus") || !strings.Contains(err.Error(), "needs 77") {
		t.Fatalf("exact-modulus: %v", err)
	}
	// A cancelled budget stops the construction.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ProgramDFA(budget.New(ctx, nil), p); !errors.Is(err, budget.ErrStopped) {
		t.Fatalf("cancelled: %v", err)
	}
	d, err := ProgramDFA(nil, m)
	if err != nil || d.NumStates() != 78 {
		t.Fatalf("MOD 77: %v states, %v", d.NumStates(), err)
	}
}
