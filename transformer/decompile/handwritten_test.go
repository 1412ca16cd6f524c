package decompile

import (
	"context"
	"errors"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/position"
	"github.com/brasp-dev/brasp/transformer"
)

// agree checks that p accepts exactly what m accepts (dense forward pass)
// on every word up to maxLen and on random words of length up to 60.
func agree(t *testing.T, name string, m *transformer.Model, p *brasp.Program, maxLen, random int, rng *rand.Rand) {
	t.Helper()
	run := brasp.NewRunner(p)
	check := func(w []int) {
		want, err := m.AcceptsDense(nil, w)
		if err != nil {
			t.Fatalf("%s: dense forward: %v", name, err)
		}
		if got := run.Run(w).Accept(); got != want {
			t.Fatalf("%s: on %q the model says %v, the decompiled program %v\n%s", name, m.Alphabet.FormatWord(w), want, got, brasp.Format(p))
		}
	}
	brasptest.AllWords(len(m.Alphabet), maxLen, check)
	for range random {
		check(brasptest.RandomWord(rng, len(m.Alphabet), 1+rng.IntN(60)))
	}
}

func r(a, b int64) *big.Rat { return big.NewRat(a, b) }

func vec(xs ...int64) transformer.Vec {
	v := make(transformer.Vec, len(xs))
	for k, x := range xs {
		v[k] = r(x, 1)
	}
	return v
}

func zeroMatrix(d int) transformer.Matrix {
	m := make(transformer.Matrix, d)
	for k := range m {
		m[k] = vec(make([]int64, d)...)
	}
	return m
}

// prevIsA is a hand-written one-layer model over {a, b}: it accepts iff the
// symbol before the last one is a. Coordinates: Q_a, one, prev_a. The head
// (strict future mask, rightmost, constant score) copies Q_a of the
// previous position into prev_a; with nothing unmasked it adds 0.
func prevIsA() *transformer.Model {
	alpha, _ := alphabet.New("a", "b")
	val := zeroMatrix(3)
	val[2][0] = r(1, 1)
	return &transformer.Model{
		Alphabet:  alpha,
		Width:     3,
		Labels:    []string{"Q_a", "one", "prev_a"},
		Embedding: []transformer.Vec{vec(1, 1, 0), vec(0, 1, 0)},
		Layers: []transformer.Layer{{Heads: []transformer.Head{{
			Mask: position.MaskFuture, Tiebreak: position.Rightmost,
			Score: zeroMatrix(3), Value: val,
		}}}},
		Output: transformer.Output{Weight: transformer.Vec{r(0, 1), r(0, 1), r(1, 1)}, Bias: r(-1, 2)},
	}
}

func TestPrevIsA(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, smaller := range []bool{false, true} {
		m := prevIsA()
		p, err := Decompile(nil, m, Options{Smaller: smaller})
		if err != nil {
			t.Fatal(err)
		}
		src := brasp.Format(p)
		t.Logf("smaller=%v:\n%s", smaller, src)
		agree(t, "prev-is-a", m, p, 6, 50, rng)
		if got := p.AttentionDepth(); got != 1 {
			t.Errorf("attention depth %d, want 1", got)
		}
		// The readable form: one attention op reading Q_a at j.
		if !strings.Contains(src, "Q_a(j)") || len(p.Vectors) > 5 {
			t.Errorf("decompiled program is not the expected small one:\n%s", src)
		}
	}
}

func TestLimitNamed(t *testing.T) {
	m := prevIsA()
	_, err := Decompile(budget.New(context.Background(), budget.Settings{"decompile-classes": 1}), m, Options{})
	var le *budget.Error
	if !errors.As(err, &le) || le.Limit.Name != "decompile-classes" || !errors.Is(err, budget.ErrLimit) || !strings.Contains(err.Error(), "decompile-classes=1 ") || !strings.Contains(err.Error(), "--limit decompile-classes=N") {
		t.Fatalf("got %v, want a decompile-classes limit error", err)
	}
}

// TestPositionRefused: a position term that is not a finite-image
// predicate or rational sinusoid is refused with the reason; a sinusoid
// whose period exceeds MaxPeriod stops at that limit.
func TestPositionRefused(t *testing.T) {
	m := prevIsA()
	m.Position = []transformer.PositionTerm{{Kind: transformer.PositionKind(200), Coord: 0, Scale: r(1, 1)}}
	_, err := Decompile(nil, m, Options{})
	if !errors.Is(err, ErrInfiniteImage) || !strings.Contains(err.Error(), "Lemma 4.3") {
		t.Fatalf("got %v, want ErrInfiniteImage citing Lemma 4.3", err)
	}
	m.Position = []transformer.PositionTerm{{Kind: transformer.PosSin, Frequency: r(1, 50), Coord: 0, Scale: r(1, 1)}}
	_, err = Decompile(budget.New(context.Background(), budget.Settings{"decompile-period": 20}), m, Options{})
	var le *budget.Error
	if !errors.As(err, &le) || le.Limit.Name != "decompile-period" {
		t.Fatalf("got %v, want a decompile-period limit error", err)
	}
	// With a larger limit the same model decompiles, and agrees.
	p, err := Decompile(nil, m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	agree(t, "sin 1/50", m, p, 6, 0, nil)
}

// TestSinusoidMOD: a model reading a rational sinusoid of frequency 1/3
// decompiles to a program with MOD predicates of period 3. The model
// accepts iff the last position is ≡ 0 (mod 3) and holds an a: the output
// reads cos(2πi/3) = 1 (else -1/2) and Q_a.
func TestSinusoidMOD(t *testing.T) {
	alpha, _ := alphabet.New("a", "b")
	m := &transformer.Model{
		Alphabet:  alpha,
		Width:     2,
		Labels:    []string{"Q_a", "cos3"},
		Embedding: []transformer.Vec{vec(1, 0), vec(0, 0)},
		Position:  []transformer.PositionTerm{{Kind: transformer.PosCos, Frequency: r(1, 3), Coord: 1, Scale: r(1, 1)}},
		Output:    transformer.Output{Weight: transformer.Vec{r(1, 1), r(1, 1)}, Bias: r(-2, 1)},
	}
	for _, smaller := range []bool{false, true} {
		p, err := Decompile(nil, m, Options{Smaller: smaller})
		if err != nil {
			t.Fatal(err)
		}
		src := brasp.Format(p)
		if !strings.Contains(src, "MOD_0_3") {
			t.Errorf("no MOD_0_3 in\n%s", src)
		}
		agree(t, "cos 1/3", m, p, 6, 0, nil)
	}
}

// firstIsB accepts the words whose first symbol is b, which it sees only
// through a layer norm: the head copies is_a of the first position into a
// coordinate that nothing reads, and the norm's mean and variance change
// the constant coordinate the output reads. is_a and is_b are dead for the
// output and never written, yet they are not frozen: the head reads is_a.
func firstIsB() *transformer.Model {
	value := zeroMatrix(4)
	value[2][0] = r(1, 1)
	one := vec(1, 1, 1, 1)
	return &transformer.Model{
		Alphabet:  alphabet.Alphabet{"a", "b"},
		Width:     4,
		Labels:    []string{"is_a", "is_b", "first_a", "one"},
		Embedding: []transformer.Vec{vec(1, 0, 0, 1), vec(0, 1, 0, 1)},
		Layers: []transformer.Layer{{
			Heads:   []transformer.Head{{Mask: position.MaskNone, Tiebreak: position.Leftmost, Score: zeroMatrix(4), Value: value}},
			FFNNorm: &transformer.LayerNorm{Gamma: one, Beta: vec(0, 0, 0, 0), Eps: r(0, 1)},
		}},
		Output: transformer.Output{Weight: vec(0, 0, 0, 1), Bias: r(-4, 5)},
	}
}

func TestNormReadsCopiedCoordinate(t *testing.T) {
	m := firstIsB()
	p, err := Decompile(nil, m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	agree(t, "first is b", m, p, 5, 0, nil)
	for w, want := range map[string]bool{"b": true, "ba": true, "a": false, "ab": false} {
		word, err := m.Alphabet.ParseWord(w)
		if err != nil {
			t.Fatal(err)
		}
		if got := brasp.NewRunner(p).Run(word).Accept(); got != want {
			t.Errorf("%s: %v, want %v", w, got, want)
		}
	}
}
