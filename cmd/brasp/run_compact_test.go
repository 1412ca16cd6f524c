package main

import (
	"bufio"
	"bytes"
	"fmt"
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

// TestRunCompact checks that the compact run path prints exactly what the
// general one (runWord) prints, verdicts, output words, --json objects and
// --table tables,
// on the example acceptors and transducer and on random programs, as
// programs and compiled to transformers (also over 300 symbols), for
// random words of many lengths, including words with a symbol outside the
// alphabet.
func TestRunCompact(t *testing.T) {
	var arts []artifact.Artifact
	for _, name := range []string{"dyck1_depth2.brasp", "associative_recall.brasp", "ab_plus.brasp", "stair3.brasp"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "examples", name))
		if err != nil {
			t.Fatal(err)
		}
		a, err := artifact.Load(nil, name, data, "")
		if err != nil {
			t.Fatal(err)
		}
		arts = append(arts, a)
	}
	for _, name := range []string{"dyck1_depth2.dfa", "a3.dfa", "parity.dfa", "ab_plus.re", "a_plus_b_plus_plus.re", "phi1.ltl", "phi4.ltl", "stair3.ltl", "mid.ltl"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "examples", name))
		if err != nil {
			t.Fatal(err)
		}
		a, err := artifact.Load(nil, name, data, "")
		if err != nil {
			t.Fatal(err)
		}
		arts = append(arts, a)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20 {
		arts = append(arts, artifact.NewProgram(brasptest.RandomProgram(rng, brasptest.Options{Alphabet: 1 + rng.IntN(5), Predicates: true})))
	}
	// The programs as transformers (compiled sequentially and depth
	// preserving), and a transformer over 300 symbols, whose words are
	// stored two bytes per symbol.
	for _, a := range arts[:4] {
		for _, o := range []compile.Options{{}, {MultiHead: true}} {
			m, err := compile.Compile(nil, a.(*artifact.Program).Prog, o)
			if err != nil {
				t.Fatal(err)
			}
			arts = append(arts, artifact.NewTransformer(m))
		}
	}
	for _, a := range arts[len(arts)-20:][:6] {
		m, err := compile.Compile(nil, a.(*artifact.Program).Prog, compile.Options{})
		if err != nil {
			t.Fatal(err)
		}
		arts = append(arts, artifact.NewTransformer(m))
	}
	var wide strings.Builder
	for k := range 300 {
		fmt.Fprintf(&wide, "Q_s%d(i)\n", k)
	}
	wide.WriteString("P(i) := rightmost [j<i, 1] Q_s1(j) : 0\nY(i) := P(i) | Q_s299(i)\n")
	wp, err := brasp.Parse("wide.brasp", []byte(wide.String()))
	if err != nil {
		t.Fatal(err)
	}
	wm, err := compile.Compile(nil, wp, compile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	arts = append(arts, artifact.NewTransformer(wm))
	for _, a := range arts {
		syms := a.Alphabet()
		for _, n := range []int{1, 2, 5, 63, 64, 65, 200} {
			w := make([]int, n)
			for i := range w {
				w[i] = rng.IntN(len(syms))
			}
			word := syms.FormatWord(w)
			if n == 2 && syms.SingleChar() { // the separated form, also for one-character symbols
				word = syms[w[0]] + " " + syms[w[1]]
			}
			if n == 5 {
				word += "?" // not a symbol: both paths must give the same error
			}
			for _, mode := range []struct{ table, asJSON bool }{{false, false}, {false, true}, {true, false}} {
				table, asJSON := mode.table, mode.asJSON
				if _, ok := a.(automaton); ok && table {
					continue // an automaton has no table: runWord says so
				}
				if _, ok := a.(*artifact.Formula); ok && (table || asJSON) {
					continue // the vectors of a formula's run: runWord's
				}
				if _, ok := a.(*artifact.Transformer); ok && table {
					continue // a model has no table: runWord says so
				}
				var want, got bytes.Buffer
				wout, gout := bufio.NewWriter(&want), bufio.NewWriter(&got)
				wantErr := runWord(a, word, "word 1", table, asJSON, nil, wout)
				done, gotErr := runCompact(a, []byte(word), "word 1", table, asJSON, gout)
				wout.Flush()
				gout.Flush()
				if !done {
					t.Fatalf("%q: the compact path did not apply", word)
				}
				if (wantErr == nil) != (gotErr == nil) || wantErr != nil && wantErr.Error() != gotErr.Error() {
					t.Fatalf("%q (json %v): error %v, want %v", word, asJSON, gotErr, wantErr)
				}
				if got.String() != want.String() {
					t.Fatalf("%q (json %v):\n got %s\nwant %s", word, asJSON, got.String(), want.String())
				}
			}
		}
	}
}
