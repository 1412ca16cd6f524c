package transformer_test

import (
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/examples"
	"github.com/brasp-dev/brasp/position"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
	"github.com/brasp-dev/brasp/transformer/decompile"
)

// outcome is what a run says on a word: the verdict, or the output word,
// or the output layer's error.
func outcome(m *transformer.Model, a *transformer.Activations, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	if o := m.Outputs(a); o != nil {
		var s []int
		for i := range a.Len() {
			k, err := o.At(i)
			if err != nil {
				return "error: " + err.Error()
			}
			s = append(s, k)
		}
		return fmt.Sprint(s)
	}
	acc, err := m.Verdict(a)
	if err != nil {
		return "error: " + err.Error()
	}
	return strconv.FormatBool(acc)
}

// programOutcome is outcome for a program.
func programOutcome(p *brasp.Program, w []int) string {
	if p.IsTransducer() {
		out, err := p.Transduce(w)
		if err != nil {
			return "error"
		}
		return fmt.Sprint(out)
	}
	return strconv.FormatBool(p.Accepts(w))
}

// compactAgree checks the compact runs (a byte and two bytes per symbol)
// against the dense pass, activation by activation, on every word up to
// maxLen and on random words up to denseLen, and, when p is not nil,
// their verdicts or output words against p's on random words up to
// longLen. RunBytes must leave the word as it was, and its activations
// must not read it (the word is overwritten before they are compared).
func compactAgree(t *testing.T, name string, m *transformer.Model, p *brasp.Program, maxLen, denseLen, longLen int, rng *rand.Rand) {
	t.Helper()
	r, err := transformer.NewRunner(m)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	runs := func(w []int) (*transformer.Activations, *transformer.Activations, error) {
		bw := make([]byte, len(w))
		ww := make([]uint16, len(w))
		for i, s := range w {
			bw[i], ww[i] = byte(s), uint16(s)
		}
		a, err := r.RunBytes(bw)
		if err != nil {
			return nil, nil, err
		}
		for i, s := range w {
			if int(bw[i]) != s {
				t.Fatalf("%s: RunBytes changed the word at position %d (%d → %d)", name, i+1, s, bw[i])
			}
			bw[i] = byte((s + 1) % len(m.Alphabet)) // the activations must not read the word
		}
		b, err := r.RunWide(ww)
		return a, b, err
	}
	dense := func(w []int) {
		a, b, err := runs(w)
		if err != nil {
			t.Fatalf("%s: compact run on %v: %v", name, w, err)
		}
		d, err := r.ForwardDense(w)
		if err != nil {
			t.Fatalf("%s: dense on %v: %v", name, w, err)
		}
		for i := range w {
			if !a.SameAt(i, d, i) || !b.SameAt(i, d, i) {
				t.Fatalf("%s: on %v the compact and dense activations differ at position %d:\n%v\n%v", name, w, i+1, a.At(i), d.At(i))
			}
		}
	}
	k := len(m.Alphabet)
	brasptest.AllWords(k, maxLen, func(w []int) {
		if len(w) > 0 {
			dense(w)
		}
	})
	for range 4 {
		dense(brasptest.RandomWord(rng, k, 1+rng.IntN(denseLen)))
	}
	if p == nil {
		return
	}
	for range 4 {
		w := brasptest.RandomWord(rng, k, 1+rng.IntN(longLen))
		if rng.IntN(2) == 0 && len(p.Alphabet) == 2 {
			// A word of the shape the examples accept often: a block
			// repeated.
			block := brasptest.RandomWord(rng, k, 1+rng.IntN(4))
			w = w[:0]
			for len(w) < longLen {
				w = append(w, block...)
			}
		}
		a, b, err := runs(w)
		got, gotWide := outcome(m, a, err), outcome(m, b, err)
		if want := programOutcome(p, w); got != want && !(p.IsTransducer() && want == "error" && got[:6] == "error:") || gotWide != got {
			t.Fatalf("%s: on a word of length %d the program says %s, the compact run %s (two bytes: %s)", name, len(w), want, got, gotWide)
		}
	}
}

// TestCompactRunExamples checks the compact run of every example program
// compiled by every construction (and with table position terms), and of
// a model compiled from the program its sequential model decompiles to.
func TestCompactRunExamples(t *testing.T) {
	progs, err := examples.Programs()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for name, p := range progs {
		for _, o := range append(compile.Variants, compile.Options{PositionTables: true}) {
			m, err := compile.Compile(nil, p, o)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			maxLen := 4
			if len(p.Alphabet) > 2 {
				maxLen = 3
			}
			compactAgree(t, name+" "+o.String(), m, p, maxLen, 40, 3000, rng)
			if o.MultiHead || o.LayerNorm || o.PositionTables || len(p.Alphabet) > 2 {
				continue
			}
			d, err := decompile.Decompile(nil, m, decompile.Options{})
			if err != nil {
				t.Fatalf("%s: decompile: %v", name, err)
			}
			m2, err := compile.Compile(nil, d, compile.Options{})
			if err != nil {
				t.Fatalf("%s: compile the decompiled program: %v", name, err)
			}
			compactAgree(t, name+" decompiled", m2, p, 3, 30, 2000, rng)
		}
	}
}

// TestCompactRunPositions checks the compact run of random programs with
// first, last and MOD predicates, compiled with sinusoidal and with table
// position terms, and of random models with a sinusoid (against their
// decompiled programs on long words).
func TestCompactRunPositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for k := range 12 {
		p := brasptest.RandomProgram(rng, brasptest.Options{Alphabet: 2, Ops: 4 + k%3, Predicates: true})
		for _, o := range []compile.Options{{}, {MultiHead: true}, {PositionTables: true}} {
			m, err := compile.Compile(nil, p, o)
			if err != nil {
				t.Fatal(err)
			}
			compactAgree(t, fmt.Sprintf("program %d %s", k, o), m, p, 5, 80, 3000, rng)
		}
	}
	for k := range 20 {
		m := randomModel(rng, false)
		p, err := decompile.Decompile(nil, m, decompile.Options{})
		if errors.Is(err, budget.ErrLimit) {
			p = nil // (checked against the dense pass only)
		} else if err != nil {
			t.Fatalf("random model %d: decompile: %v", k, err)
		}
		compactAgree(t, "random model "+strconv.Itoa(k), m, p, 4, 80, 3000, rng)
	}
}

// TestCompactRunManyClasses checks a model with 300 distinct embedded
// vectors (a table position term of period 300), so that the class ids of
// a position no longer fit a byte, against the dense pass, with heads of
// both directions in one layer.
func TestCompactRunManyClasses(t *testing.T) {
	one := big.NewRat(1, 1)
	period := make([]*big.Rat, 300)
	for i := range period {
		period[i] = big.NewRat(int64(i), 1)
	}
	id := func(v ...int64) transformer.Matrix {
		m := transformer.Matrix{}
		for r := range 3 {
			row := transformer.Zeros(3)
			row[r].SetInt64(v[r])
			m = append(m, row)
		}
		return m
	}
	m := &transformer.Model{
		Alphabet: brasptest.Alphabet(2), Width: 3, Labels: []string{"p", "s", "x"},
		Embedding: []transformer.Vec{{big.NewRat(0, 1), big.NewRat(1, 1), big.NewRat(0, 1)}, {big.NewRat(0, 1), big.NewRat(-1, 1), big.NewRat(1, 1)}},
		Position:  []transformer.PositionTerm{{Kind: transformer.PosTable, Coord: 0, Scale: one, Period: period}},
		Layers: []transformer.Layer{{Heads: []transformer.Head{
			{Mask: position.MaskFuture, Tiebreak: position.Rightmost, Score: id(1, 1, 0), Value: id(0, 1, 1)},
			{Mask: position.MaskPast, Tiebreak: position.Leftmost, Score: id(0, 1, 1), Value: id(1, 0, 1)},
			{Mask: position.MaskNone, Tiebreak: position.Leftmost, Score: id(1, 0, 0), Value: id(0, 0, 1)},
		}}},
		Output: transformer.Output{Weight: transformer.Vec{big.NewRat(1, 1), big.NewRat(-1, 1), big.NewRat(1, 1)}, Bias: big.NewRat(0, 1)},
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	compactAgree(t, "300 classes", m, nil, 3, 800, 0, rand.New(rand.NewPCG(1, 1)))
	w := make([]int, 700)
	a, err := m.Forward(nil, w, transformer.FastOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if a.NumClasses() <= 256 {
		t.Fatalf("%d classes at the last layer, want more than 256 (the test must widen the class ids)", a.NumClasses())
	}
}

// TestCompactRunWidensFirstScan checks, against the dense pass, models
// over 200 symbols whose first scan meets more than 256 classes, so that
// it widens the ids from a byte to two in the middle of the scan: a head
// attending to the previous position (left to right) or to the next one
// (right to left) adds that position's symbol to the own one.
func TestCompactRunWidensFirstScan(t *testing.T) {
	const A = 200
	one := func() *big.Rat { return big.NewRat(1, 1) }
	matrix := func(r, c int) transformer.Matrix {
		m := transformer.Matrix{transformer.Zeros(3), transformer.Zeros(3), transformer.Zeros(3)}
		m[r][c] = one()
		return m
	}
	var names alphabet.Alphabet
	for s := range A {
		names = append(names, fmt.Sprintf("s%d", s))
	}
	for _, mask := range []position.Mask{position.MaskFuture, position.MaskPast} {
		m := &transformer.Model{
			Alphabet: names, Width: 3, Labels: []string{"s", "one", "near"},
			Layers: []transformer.Layer{{Heads: []transformer.Head{
				{Mask: mask, Tiebreak: position.Rightmost, Score: matrix(1, 1), Value: matrix(2, 0)},
			}}},
			Output: transformer.Output{Weight: transformer.Vec{one(), big.NewRat(0, 1), big.NewRat(-1, 1)}, Bias: big.NewRat(0, 1)},
		}
		if mask == position.MaskPast {
			m.Layers[0].Heads[0].Tiebreak = position.Leftmost
		}
		for s := range A {
			m.Embedding = append(m.Embedding, transformer.Vec{big.NewRat(int64(s), 1), one(), big.NewRat(0, 1)})
		}
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		compactAgree(t, fmt.Sprintf("200 symbols, mask %v", mask), m, nil, 1, 3000, 0, rand.New(rand.NewPCG(2, uint64(mask))))
		w := brasptest.RandomWord(rand.New(rand.NewPCG(3, 3)), A, 2000)
		a, err := m.Forward(nil, w, transformer.FastOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if a.NumClasses() <= 256 {
			t.Fatalf("%d classes at the last layer, want more than 256 (the test must widen the class ids)", a.NumClasses())
		}
	}
}
