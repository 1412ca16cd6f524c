package exact

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
)

// valuationLetters names the 2^k valuations v0, v1, ... (bit i of v:
// proposition i), the letters both constructions are compared over.
func valuationLetters(k int) alphabet.Alphabet {
	a := make(alphabet.Alphabet, 1<<k)
	for v := range a {
		a[v] = fmt.Sprintf("v%d", v)
	}
	return a
}

// checkSymbolic compares the symbolic construction on p, a program over
// propositions, with the letter construction on the same program over the
// valuations (exact equivalence of the minimal DFAs, which must also have
// the same number of states), and with the interpreter on random traces.
func checkSymbolic(t *testing.T, name string, rng *rand.Rand, p *brasp.Program) {
	t.Helper()
	k := len(p.Props)
	sd, err := SymbolicProgramDFA(nil, p)
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, brasp.Format(p))
	}
	if err := sd.Validate(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if sd.Accept[sd.Start] {
		t.Fatalf("%s: the symbolic DFA accepts the empty trace", name)
	}
	alpha := valuationLetters(k)
	lp, err := brasp.ToValuationLetters(p, alpha)
	if err != nil {
		t.Fatal(err)
	}
	ld, err := ProgramDFA(nil, lp)
	if err != nil {
		t.Fatalf("%s: letters: %v", name, err)
	}
	sl, err := symbolic.ToLetters(nil, sd, func(v []bool) string {
		x := 0
		for i, b := range v {
			if b {
				x |= 1 << i
			}
		}
		return alpha[x]
	})
	if err != nil {
		t.Fatal(err)
	}
	if sl, err = automata.Minimize(nil, sl); err != nil {
		t.Fatal(err)
	}
	eq, w, _, err := Equivalent(sl, ld)
	if err != nil {
		t.Fatal(err)
	}
	if !eq {
		t.Fatalf("%s: the constructions differ on %s\n%s", name, automata.ShowWord(alpha, w), brasp.Format(p))
	}
	if sd.NumStates() != len(ld.States) {
		t.Errorf("%s: %d symbolic states, %d letter states (both minimal)", name, sd.NumStates(), len(ld.States))
	}
	for range 20 {
		steps := brasptest.RandomSteps(rng, k, 1+rng.IntN(12))
		trace := make([][]bool, len(steps))
		for i, s := range steps {
			trace[i] = make([]bool, k)
			for j := range k {
				trace[i][j] = brasp.StepHas(s, j)
			}
		}
		if got, want := sd.Accepts(trace), p.RunStepsReference(steps).Accept(); got != want {
			t.Fatalf("%s: on %v the DFA says %v, the interpreter %v\n%s", name, trace, got, want, brasp.Format(p))
		}
	}
}

func TestSymbolicRandomPrograms(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 30))
	configs := []struct {
		name string
		opts brasptest.Options
		n    int
	}{
		{"one", brasptest.Options{Propositions: 1, Ops: 6}, 150},
		{"two", brasptest.Options{Propositions: 2, Ops: 6}, 200},
		{"three", brasptest.Options{Propositions: 3, Ops: 6}, 150},
		{"predicates", brasptest.Options{Propositions: 2, Ops: 6, Predicates: true}, 150},
		{"jonly", brasptest.Options{Propositions: 3, Ops: 8, JOnly: true}, 100},
		{"long", brasptest.Options{Propositions: 4, Ops: 10, Attention: 0.8}, 60},
		{"six", brasptest.Options{Propositions: 6, Ops: 8, ExprSize: 6}, 40},
	}
	for _, cfg := range configs {
		for n := range cfg.n {
			p := brasptest.RandomProgram(rng, cfg.opts)
			checkSymbolic(t, fmt.Sprintf("%s %d", cfg.name, n), rng, p)
		}
	}
}
