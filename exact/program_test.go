package exact

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
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
			d, err := ProgramDFA(p)
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
	_, err = ProgramDFA(p)
	if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "Mid is not regular: {#a^m#b^m#} is definable with it") {
		t.Fatalf("got %v", err)
	}
}
