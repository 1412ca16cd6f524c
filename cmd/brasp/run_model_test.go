package main

import (
	"bufio"
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/artifact"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/transformer/compile"
)

// TestRunModelBatched: many words read by one artifact, as `brasp run
// --input-file` reads them (runModel, the batch kept across words), give
// Model.Accepts' verdicts (and the dense reference pass's, up to length 6)
// on every word up to length 6 and on random words up to 3000 symbols,
// interleaved, for the
// example programs and random ones compiled sequentially and with
// --multihead.
func TestRunModelBatched(t *testing.T) {
	var progs []*brasp.Program
	for _, name := range []string{"dyck1_depth2.brasp", "ab_plus.brasp", "stair3.brasp", "abc_a_bc_b_a.brasp"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "examples", name))
		if err != nil {
			t.Fatal(err)
		}
		p, err := brasp.Parse(name, data)
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, p)
	}
	rng := rand.New(rand.NewPCG(29, 2))
	for range 6 {
		progs = append(progs, brasptest.RandomProgram(rng, brasptest.Options{Alphabet: 1 + rng.IntN(3), Predicates: true}))
	}
	for pi, p := range progs {
		for _, o := range []compile.Options{{}, {MultiHead: true}} {
			m, err := compile.Compile(nil, p, o)
			if err != nil {
				t.Fatal(err)
			}
			if m.IsTransducer() {
				continue
			}
			a := artifact.NewTransformer(m)
			syms := m.Alphabet
			var words [][]int
			brasptest.AllWords(len(syms), min(6, 12/len(syms)+1), func(w []int) { words = append(words, append([]int(nil), w...)) })
			for range 30 {
				words = append(words, brasptest.RandomWord(rng, len(syms), 1+rng.IntN(2*maxBatchedWord)))
			}
			rng.Shuffle(len(words), func(i, j int) { words[i], words[j] = words[j], words[i] })
			var got bytes.Buffer
			out := bufio.NewWriter(&got)
			for _, w := range words {
				if done, err := runModel(a, []byte(syms.FormatWord(w)), "word", false, out); !done || err != nil {
					t.Fatalf("program %d: %v: done %v, %v", pi, w, done, err)
				}
			}
			out.Flush()
			lines := strings.Split(strings.TrimSuffix(got.String(), "\n"), "\n")
			for k, w := range words {
				want, err := m.Accepts(nil, w)
				if err != nil {
					t.Fatal(err)
				}
				if len(w) <= 6 {
					if dense, err := m.AcceptsDense(nil, w); err != nil || dense != want {
						t.Fatalf("program %d on %v: fast pass %v, dense %v (%v)", pi, w, want, dense, err)
					}
				}
				if lines[k] != map[bool]string{true: "accept", false: "reject"}[want] {
					t.Fatalf("program %d (multihead %v) on %s: %s, Model.Accepts says %v", pi, o.MultiHead, syms.FormatWord(w), lines[k], want)
				}
			}
		}
	}
}
