package brasp_test

import (
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/position"
)

// sameTrace compares two traces bit for bit (every vector, every position,
// and the unused bits of the last word, which must be 0).
func sameTrace(want, got *brasp.Trace) error {
	p := want.Prog
	if len(got.Bits) != len(want.Bits) {
		return fmt.Errorf("%d vectors, want %d", len(got.Bits), len(want.Bits))
	}
	for v := range want.Bits {
		if len(got.Bits[v]) != len(want.Bits[v]) {
			return fmt.Errorf("%s: %d words, want %d", p.Vectors[v].Name, len(got.Bits[v]), len(want.Bits[v]))
		}
		for k := range want.Bits[v] {
			if diff := got.Bits[v][k] ^ want.Bits[v][k]; diff != 0 {
				for i := 64 * k; ; i++ {
					if diff>>(uint(i)&63)&1 != 0 {
						if i >= want.N() {
							return fmt.Errorf("%s: bit %d beyond the word (n = %d) is set", p.Vectors[v].Name, i, want.N())
						}
						return fmt.Errorf("%s at position %d (1-based): got %v, want %v",
							p.Vectors[v].Name, i+1, got.Value(v, i), want.Value(v, i))
					}
				}
			}
		}
	}
	return nil
}

// check runs p on w with the reference and (through r and through
// Program.Run) the fast interpreter and fails on any difference.
func check(t *testing.T, p *brasp.Program, r *brasp.Runner, w []int, reuse **brasp.Trace) bool {
	t.Helper()
	want := p.RunReference(w)
	*reuse = r.RunInto(*reuse, w)
	if err := sameTrace(want, *reuse); err != nil {
		t.Errorf("fast ≠ reference: %v\nword %v (n = %d)\nprogram:\n%s", err, shortWord(w), len(w), brasp.Format(p))
		return false
	}
	return true
}

func shortWord(w []int) string {
	if len(w) > 80 {
		return fmt.Sprint(w[:80]) + "..."
	}
	return fmt.Sprint(w)
}

type propConfig struct {
	name     string
	programs int
	opts     brasptest.Options
}

// TestFastMatchesReference is the property test reference ≡ fast: random
// programs (every mask, both tie-breaks, strict and non-strict masks, scores
// and values mixing (i) and (j), position predicates including Mid) on every
// word up to length 7 over 2 and 3 letters, on random long words (1000, and
// lengths around multiples of 64), with the normal chunk size and with tiny
// chunks (1 to 3 words) so that the scans cross chunk boundaries. Every
// vector is compared at every position. Scale: 2,120 programs on all words
// up to length 7 (254 binary or 3,279 ternary words each), plus 60 programs
// of 8–12 operations on 10 lengths in 63..193 and (10 of them) on n = 1000:
// about 900,000 (program, word) pairs; -short divides the programs by 5.
func TestFastMatchesReference(t *testing.T) {
	scale := 1
	if testing.Short() {
		scale = 5
	}
	configs := []propConfig{
		{"binary", 1200, brasptest.Options{Alphabet: 2, Ops: 6}},
		{"binary-predicates", 400, brasptest.Options{Alphabet: 2, Ops: 6, Predicates: true, Mid: true}},
		{"binary-jonly", 400, brasptest.Options{Alphabet: 2, Ops: 6, JOnly: true, Attention: 0.9}},
		{"ternary", 120, brasptest.Options{Alphabet: 3, Ops: 6, Predicates: true}},
	}
	var programs, runs atomic.Int64
	t.Cleanup(func() { t.Logf("%d programs, %d (program, word) runs compared", programs.Load(), runs.Load()) })
	for ci, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(20241122, uint64(ci)))
			for range c.programs / scale {
				p := brasptest.RandomProgram(rng, c.opts)
				r := brasp.NewRunner(p)
				programs.Add(1)
				var tr *brasp.Trace
				ok := true
				brasptest.AllWords(c.opts.Alphabet, 7, func(w []int) {
					if ok {
						ok = check(t, p, r, w, &tr)
						runs.Add(1)
					}
				})
				if !ok {
					t.FailNow()
				}
			}
		})
	}
	// Long words: 1000 and around multiples of 64, with the normal chunk
	// size and with chunks of 1 to 3 words.
	t.Run("long", func(t *testing.T) {
		t.Parallel()
		rng := rand.New(rand.NewPCG(20241122, 99))
		lengths := []int{1, 63, 64, 65, 127, 128, 129, 191, 192, 193, 1000}
		for k := range 60 / scale {
			opts := brasptest.Options{Alphabet: 2 + k%2, Ops: 8 + k%5, ExprSize: 3 + k%4,
				Predicates: k%3 == 0, Mid: k%5 == 0, JOnly: k%4 == 0}
			p := brasptest.RandomProgram(rng, opts)
			r := brasp.NewRunner(p)
			programs.Add(1)
			var tr *brasp.Trace
			for _, n := range lengths {
				if n == 1000 && k%6 != 0 {
					continue
				}
				w := brasptest.RandomWord(rng, opts.Alphabet, n)
				want := p.RunReference(w)
				runs.Add(1)
				for _, chunk := range []int{1, 2, 3, 0} {
					brasp.SetRunnerChunk(r, chunk)
					tr = r.RunInto(tr, w)
					if err := sameTrace(want, tr); err != nil {
						t.Fatalf("fast (chunk %d) ≠ reference: %v\nword %v (n = %d)\nprogram:\n%s", chunk, err, shortWord(w), n, brasp.Format(p))
					}
				}
			}
		}
	})
}

// TestFastKernels exercises each (tie-break, mask) pair and j-only, mixed
// and constant scores on every word up to length 8 with chunks of one word
// and on long random words, so that each kernel is covered deterministically.
func TestFastKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	maxLen := 8
	if testing.Short() {
		maxLen = 6
	}
	scores := []string{"Q_a(j)", "!Q_a(j)", "1", "0", "Q_a(i) & Q_b(j) | Q_b(i) & Q_a(j)", "P(j) & !Q_a(i)"}
	values := []string{"Q_b(j)", "1", "P(j) | Q_a(i)"}
	for _, tb := range []string{"leftmost", "rightmost"} {
		for _, m := range position.Masks {
			for _, s := range scores {
				for _, v := range values {
					src := fmt.Sprintf("Q_a(i)\nQ_b(i)\nP(i) := leftmost [i<j, 1] Q_a(j) : Q_b(i)\nA(i) := %s [%s, %s] %s : Q_a(i) | P(i)\n", tb, m.Predicate(), s, v)
					p, err := brasp.Parse("kernel", []byte(src))
					if err != nil {
						t.Fatalf("%v\n%s", err, src)
					}
					r := brasp.NewRunner(p)
					var tr *brasp.Trace
					for _, chunk := range []int{0, 1} {
						brasp.SetRunnerChunk(r, chunk)
						brasptest.AllWords(2, maxLen, func(w []int) {
							if !check(t, p, r, w, &tr) {
								t.FailNow()
							}
						})
						for _, n := range []int{64, 130, 700} {
							if !check(t, p, r, brasptest.RandomWord(rng, 2, n), &tr) {
								t.FailNow()
							}
						}
					}
				}
			}
		}
	}
}

// TestFastEdgeCases covers the empty word, symbols outside the alphabet,
// trace reuse across lengths and programs, and predicates with large moduli.
func TestFastEdgeCases(t *testing.T) {
	src := "Q_a(i)\nQ_b(i)\nMOD_3_70(i)\nMOD_0_1(i)\nlast(i)\nMid(i)\nfirst(i)\n" +
		"A(i) := rightmost [j<=i, Q_a(j)] MOD_3_70(j) : last(i)\n" +
		"B(i) := leftmost [i<=j, !Q_a(j)] Mid(j) | first(j) : MOD_0_1(i)\n"
	p, err := brasp.Parse("edge", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r := brasp.NewRunner(p)
	if tr := r.Run(nil); tr.N() != 0 || tr.Accept() {
		t.Errorf("empty word: n = %d, accept = %v", tr.N(), tr.Accept())
	}
	var tr *brasp.Trace
	for _, w := range [][]int{{0, 5, 1, -1, 0}, make([]int, 300), {1}, make([]int, 141), {0, 1, 2}} {
		check(t, p, r, w, &tr)
	}
	// A trace of another program is not reused.
	q, _ := brasp.Parse("q", []byte("Q_a(i)\nQ_b(i)\nA(i) := Q_a(i)\n"))
	other := brasp.NewRunner(q).Run([]int{0, 1})
	if got := r.RunInto(other, []int{0, 1}); got == other || got.Prog != p {
		t.Error("RunInto reused a trace of another program")
	}
	// Program.Run is the fast interpreter.
	w := brasptest.RandomWord(rand.New(rand.NewPCG(1, 1)), 2, 200)
	if err := sameTrace(p.RunReference(w), p.Run(w)); err != nil {
		t.Error(err)
	}
}
