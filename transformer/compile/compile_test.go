package compile

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/examples"
	"github.com/brasp-dev/brasp/internal/testkit"
	"github.com/brasp-dev/brasp/transformer"
)

// exampleprograms loads every example program of the repository.
func examplePrograms(t testing.TB) map[string]*brasp.Program {
	t.Helper()
	progs, err := examples.Programs()
	if err != nil || len(progs) == 0 {
		t.Fatalf("example programs: %d, %v", len(progs), err)
	}
	return progs
}

// checkAgreement compares program and model on all words up to maxLen and
// on random words up to length 200, and the fast pass with the dense pass
// (on every word up to denseLen, and on a sample of the random words).
func checkAgreement(t *testing.T, name string, p *brasp.Program, m *transformer.Model, maxLen, random int, rng *rand.Rand) {
	t.Helper()
	r, err := transformer.NewRunner(m)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	rp := brasp.NewRunner(p) // Program.Accepts's runner, built once
	check := func(w []int, dense bool) {
		if p.IsTransducer() {
			want, errP := rp.Run(w).Transduce()
			got, errM := r.Transduce(w)
			if (errP != nil) != (errM != nil) || fmt.Sprint(want) != fmt.Sprint(got) {
				t.Fatalf("%s: on %q the program outputs %v (%v), the model %v (%v)", name, p.Alphabet.FormatWord(w), want, errP, got, errM)
			}
			return
		}
		want := rp.Run(w).Accept()
		a, err := r.Forward(w, transformer.FastOptions{})
		if err != nil {
			t.Fatalf("%s: fast forward on %s: %v", name, p.Alphabet.FormatWord(w), err)
		}
		got := m.OutputScore(a).Sign() >= 0 // the acceptor's decision
		if got != want {
			t.Fatalf("%s: on %q the program says %v, the compiled model (fast) says %v", name, p.Alphabet.FormatWord(w), want, got)
		}
		if score := m.OutputScore(a); score.Cmp(big.NewRat(1, 2)) != 0 && score.Cmp(big.NewRat(-1, 2)) != 0 {
			t.Fatalf("%s: on %q the output is %s, want ±1/2", name, p.Alphabet.FormatWord(w), score.RatString())
		}
		if dense {
			d, err := r.ForwardDense(w)
			if err != nil {
				t.Fatal(err)
			}
			for i := range w {
				if !d.SameAt(i, a, i) {
					t.Fatalf("%s: on %q fast and dense activations differ at position %d", name, p.Alphabet.FormatWord(w), i+1)
				}
			}
		}
	}
	brasptest.AllWords(len(p.Alphabet), maxLen, func(w []int) { check(w, len(w) <= 4) })
	for k := range random {
		n := 1 + rng.IntN(200)
		check(brasptest.RandomWord(rng, len(p.Alphabet), n), k%8 == 0)
	}
}

func TestCompileExamples(t *testing.T) {
	testkit.EachParallel(t, 1, examplePrograms(t), func(t *testing.T, rng *rand.Rand, name string, p *brasp.Program) {
		for _, o := range Variants {
			m, err := Compile(nil, p, o)
			if err != nil {
				t.Fatalf("%s %s: %v", name, o.String(), err)
			}
			if err := m.Validate(); err != nil {
				t.Fatalf("%s %s: invalid model: %v", name, o.String(), err)
			}
			if o.MultiHead && m.AttentionLayers() != p.AttentionDepth() {
				t.Errorf("%s %s: %d attention layers, want the attention depth %d", name, o.String(), m.AttentionLayers(), p.AttentionDepth())
			}
			checkAgreement(t, name+" "+o.String(), p, m, exhaustiveLen(len(p.Alphabet), 6, 1500), 25, rng)
		}
	})
}

func TestCompileRandomPrograms(t *testing.T) {
	count := 200
	if testing.Short() {
		count = 40
	}
	for chunk := 0; chunk < count; chunk += 25 {
		t.Run(fmt.Sprintf("programs%d-%d", chunk, chunk+24), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(3, uint64(chunk)))
			for k := chunk; k < chunk+25; k++ {
				opts := brasptest.Options{Alphabet: 2 + k%4/3, Ops: 3 + k%5, Predicates: k%3 == 0}
				p := brasptest.RandomProgram(rng, opts)
				maxLen := 6
				if len(p.Alphabet) > 2 {
					maxLen = 4
				}
				for _, o := range Variants {
					name := fmt.Sprintf("program %d %s", k, o.String())
					m, err := Compile(nil, p, o)
					if err != nil {
						t.Fatalf("%s: %v\n%s", name, err, brasp.Format(p))
					}
					if o.MultiHead && m.AttentionLayers() != p.AttentionDepth() {
						t.Fatalf("%s: %d attention layers, want the attention depth %d\n%s", name, m.AttentionLayers(), p.AttentionDepth(), brasp.Format(p))
					}
					checkAgreement(t, name, p, m, maxLen, 3, rng)
				}
			}
		})
	}
}

// exhaustiveLen returns the largest length L ≤ maxLen such that there are at
// most budget words of length 1..L over k symbols (at least 1).
func exhaustiveLen(k, maxLen, budget int) int {
	total, pow := 0, 1
	for L := 1; L <= maxLen; L++ {
		pow *= k
		total += pow
		if total > budget {
			return max(L-1, 1)
		}
	}
	return maxLen
}
