package decompile

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
)

// agreeTransducer checks that the decompiled transducer q outputs what the
// source program p and the model m output, on all words up to maxLen and
// on random words up to length 100.
func agreeTransducer(t *testing.T, name string, p *brasp.Program, m *transformer.Model, q *brasp.Program, maxLen, random int, rng *rand.Rand) {
	t.Helper()
	if !q.IsTransducer() || !slices.Equal(q.Output.Symbols, p.Output.Symbols) {
		t.Fatalf("%s: decompiled output %v, want a transducer over %v", name, q.Output, p.Output.Symbols)
	}
	rp, rq := brasp.NewRunner(p), brasp.NewRunner(q)
	rm, err := transformer.NewRunner(m) // Model.Transduce's runner, built once
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	// The output vectors are compared position by position, so that words
	// outside the transducer's domain (no output vector or two of them 1)
	// are compared too.
	check := func(w []int) {
		tp, tq := rp.Run(w), rq.Run(w)
		for g := range p.Output.Symbols {
			vp, vq := p.Output.Vectors[g], q.Output.Vectors[g]
			for i := range w {
				if tp.Value(vp, i) != tq.Value(vq, i) {
					t.Fatalf("%s: on %q at position %d, output %s is %v in the source, %v in the decompiled program\n%s",
						name, p.Alphabet.FormatWord(w), i+1, p.Output.Symbols[g], tp.Value(vp, i), tq.Value(vq, i), brasp.Format(q))
				}
			}
		}
		want, err := tp.Transduce()
		if err != nil || len(w) > 8 {
			return
		}
		if mo, err := rm.Transduce(w); err != nil || !slices.Equal(mo, want) {
			t.Fatalf("%s: on %q the source outputs %v, the model %v (%v)", name, p.Alphabet.FormatWord(w), want, mo, err)
		}
	}
	brasptest.AllWords(len(p.Alphabet), maxLen, check)
	for range random {
		check(brasptest.RandomWord(rng, len(p.Alphabet), 1+rng.IntN(100)))
	}
}

// TestRoundTripTransducers: every example transducer (associative recall)
// compiles, sequentially (with and without layer norm), to a model that decompiles,
// under both translations, to a transducer with the same output at every
// position of every word up to length 4 and of random long words.
func TestRoundTripTransducers(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	progs := examplePrograms(t)
	seen := 0
	for _, name := range sortedKeys(progs) {
		p := progs[name]
		if !p.IsTransducer() {
			continue
		}
		seen++
		for _, co := range compile.Variants {
			if co.MultiHead {
				// The multi-head layer's three heads multiply the
				// reachable combinations past the default limits.
				continue
			}
			m, err := compile.Compile(nil, p, co)
			if err != nil {
				t.Fatalf("%s: compile: %v", name, err)
			}
			for _, smaller := range []bool{false, true} {
				q, err := Decompile(nil, m, Options{Smaller: smaller})
				if err != nil {
					t.Fatalf("%s %s: %v", name, optName(co, smaller), err)
				}
				agreeTransducer(t, name+" "+optName(co, smaller), p, m, q, 4, 30, rng)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no example transducer")
	}
}

// randomTransducer turns a random acceptor into a transducer with three
// output symbols chosen by its last two operations A and B: x where A and
// B, y where A and not B, z where not A.
func randomTransducer(t *testing.T, rng *rand.Rand, opts brasptest.Options) *brasp.Program {
	t.Helper()
	src := brasp.Format(brasptest.RandomProgram(rng, opts))
	p, err := brasp.Parse("random", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	n := len(p.Vectors)
	a, b := p.Vectors[n-1].Name, p.Vectors[n-2].Name
	src = stripOutput(src) + fmt.Sprintf("Out_x(i) := %s(i) & %s(i)\nOut_y(i) := %s(i) & !%s(i)\nOut_z(i) := !%s(i)\noutput x:Out_x y:Out_y z:Out_z\n", a, b, a, b, a)
	q, err := brasp.Parse("random", []byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return q
}

// stripOutput drops an output line from a formatted program.
func stripOutput(src string) string {
	var out []byte
	for _, line := range splitLines(src) {
		if len(line) >= 7 && line[:7] == "output " {
			continue
		}
		out = append(out, line...)
		out = append(out, '\n')
	}
	return string(out)
}

func splitLines(s string) []string {
	var lines []string
	for len(s) > 0 {
		k := 0
		for k < len(s) && s[k] != '\n' {
			k++
		}
		lines = append(lines, s[:k])
		if k < len(s) {
			k++
		}
		s = s[k:]
	}
	return lines
}

// TestRoundTripRandomTransducers: random transducers compile and decompile
// to transducers with the same output everywhere.
func TestRoundTripRandomTransducers(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 19))
	n := 60
	if testing.Short() {
		n = 20
	}
	for k := range n {
		p := randomTransducer(t, rng, brasptest.Options{Alphabet: 2 + k%2, Ops: 3 + k%3, Predicates: k%3 == 0})
		co := compile.Variants[k%len(compile.Variants)]
		m, err := compile.Compile(nil, p, co)
		if err != nil {
			t.Fatalf("transducer %d: compile: %v\n%s", k, err, brasp.Format(p))
		}
		smaller := k/len(compile.Variants)%2 == 1
		q, err := Decompile(nil, m, Options{Smaller: smaller})
		if err != nil {
			t.Fatalf("transducer %d (%s): %v\n%s", k, optName(co, smaller), err, brasp.Format(p))
		}
		agreeTransducer(t, fmt.Sprintf("random transducer %d (%s)", k, optName(co, smaller)), p, m, q, 5, 10, rng)
	}
}
