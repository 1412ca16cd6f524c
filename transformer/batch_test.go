package transformer_test

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/examples"
	"github.com/brasp-dev/brasp/internal/testkit"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
)

// batchAgrees checks that a Batch decides like the single-word fast pass
// and the dense pass: every word up to maxLen and random words up to
// length 400 (dense only up to length 60), in one batch and word by word
// through a second Batch that keeps its cache across the words, and
// reports how many words it checked.
func batchAgrees(t *testing.T, name string, m *transformer.Model, maxLen, random int, rng *rand.Rand) {
	t.Helper()
	r, err := transformer.NewRunner(m)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var words [][]int
	brasptest.AllWords(len(m.Alphabet), maxLen, func(w []int) { words = append(words, append([]int(nil), w...)) })
	for range random {
		words = append(words, brasptest.RandomWord(rng, len(m.Alphabet), 1+rng.IntN(400)))
	}
	rng.Shuffle(len(words), func(a, b int) { words[a], words[b] = words[b], words[a] })
	out := make([]bool, len(words))
	if err := r.AcceptsBatch(nil, words, out); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	one := r.NewBatch(transformer.FastOptions{})
	for k, w := range words {
		want, err := r.Accepts(w)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := one.Accept(w)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if out[k] != want || got != want {
			t.Fatalf("%s: on %q the single pass says %v, the batch %v, the batch word by word %v", name, m.Alphabet.FormatWord(w), want, out[k], got)
		}
		if len(w) <= 60 {
			dense, err := r.AcceptsDense(w)
			if err != nil || dense != want {
				t.Fatalf("%s: on %q the dense pass says %v (%v), the fast one %v", name, m.Alphabet.FormatWord(w), dense, err, want)
			}
		}
	}
}

func TestBatchExamples(t *testing.T) {
	progs, err := examples.Programs()
	if err != nil {
		t.Fatal(err)
	}
	testkit.EachParallel(t, 16, progs, func(t *testing.T, rng *rand.Rand, name string, p *brasp.Program) {
		if p.IsTransducer() {
			return
		}
		for _, o := range compile.Variants {
			m, err := compile.Compile(nil, p, o)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			maxLen := 8
			if len(p.Alphabet) > 2 {
				maxLen = 5
			}
			batchAgrees(t, name+" "+o.String(), m, maxLen, 30, rng)
		}
	})
}

func TestBatchRandomPrograms(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 2))
	for k := range 40 {
		p := brasptest.RandomProgram(rng, brasptest.Options{Alphabet: 2 + k%4/3, Ops: 3 + k%5, Predicates: k%3 == 0})
		if p.IsTransducer() {
			continue
		}
		o := compile.Variants[k%len(compile.Variants)]
		m, err := compile.Compile(nil, p, o)
		if err != nil {
			t.Fatalf("program %d: %v\n%s", k, err, brasp.Format(p))
		}
		batchAgrees(t, fmt.Sprintf("program %d %s", k, o.String()), m, 5, 10, rng)
	}
}

// TestBatchRandomModels covers models the compiler does not make: layer
// norms with irrational σ (the exact fallback), position terms, random
// masks and tie-breaks.
func TestBatchRandomModels(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 3))
	for k := range 40 {
		m := randomModel(rng, k%4 == 3)
		batchAgrees(t, "random model "+strconv.Itoa(k), m, 5, 10, rng)
	}
}

// TestBatchSmallCache runs the examples with a cache that overflows (and is
// cleared) on almost every word, and with scores cached for few classes;
// and so random models with layer norms, whose words take the exact
// fallback and its memo.
func TestBatchSmallCache(t *testing.T) {
	defer transformer.SetBatchCache(3, 2)()
	rng := rand.New(rand.NewPCG(16, 4))
	for _, name := range []string{"dyck1_depth2.brasp", "stair3.brasp"} {
		p := examples.MustProgram(name)
		m, err := compile.Compile(nil, p, compile.Options{MultiHead: true})
		if err != nil {
			t.Fatal(err)
		}
		batchAgrees(t, name, m, 6, 20, rng)
	}
	for k := range 2 {
		batchAgrees(t, "random model "+strconv.Itoa(k), randomModel(rng, true), 4, 10, rng)
	}
}

// TestBatchClassLimit checks the fall-back to the dense pass past
// MaxClasses.
func TestBatchClassLimit(t *testing.T) {
	p := examples.MustProgram("dyck1_depth2.brasp")
	m, err := compile.Compile(nil, p, compile.Options{MultiHead: true})
	if err != nil {
		t.Fatal(err)
	}
	r, err := transformer.NewRunner(m)
	if err != nil {
		t.Fatal(err)
	}
	b := r.NewBatch(transformer.FastOptions{MaxClasses: 1})
	rng := rand.New(rand.NewPCG(16, 5))
	for range 50 {
		w := brasptest.RandomWord(rng, 2, 1+rng.IntN(30))
		want, err := r.AcceptsDense(w)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := b.Accept(w); err != nil || got != want {
			t.Fatalf("on %q: batch %v (%v), dense %v", m.Alphabet.FormatWord(w), got, err, want)
		}
	}
}

func TestBatchErrors(t *testing.T) {
	p := examples.MustProgram("dyck1_depth2.brasp")
	m, err := compile.Compile(nil, p, compile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := transformer.NewRunner(m)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		words [][]int
		out   int
		want  string
	}{
		{[][]int{{0, 1}}, 2, "1 words but 2 results"},
		{[][]int{{0, 1}, {}}, 2, "word 2: "},
		{[][]int{{0, 7}}, 1, "word 1: position 2: symbol index 7"},
	}
	for _, c := range cases {
		err := r.AcceptsBatch(nil, c.words, make([]bool, c.out))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("AcceptsBatch(%v) = %v, want an error containing %q", c.words, err, c.want)
		}
	}
}
