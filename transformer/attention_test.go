package transformer_test

import (
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/examples"
	"github.com/brasp-dev/brasp/position"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
)

// braspAttended is the 0-based position attention operation k of tr's
// program reads at position i, by the definition (§3.1): the leftmost or
// rightmost j the mask allows with S(i,j) = 1, or -1 when there is none.
func braspAttended(tr *brasp.Trace, k, i int) int {
	a := tr.Prog.Vectors[k].Att
	got := -1
	for j := range tr.N() {
		if !a.Mask.Allows(i, j) {
			continue
		}
		s := brasp.Eval(a.Score, func(vec int, x brasp.Var) bool {
			if x == brasp.VarJ {
				return tr.Value(vec, j)
			}
			return tr.Value(vec, i)
		})
		if s && (got < 0 || a.Tiebreak == position.Rightmost) {
			got = j
		}
	}
	return got
}

// preferred is the position a head with mask and tie-break attends to when
// every score ties: the leftmost or rightmost unmasked j, -1 when none.
func preferred(mask position.Mask, tb position.Tiebreak, i, n int) int {
	got := -1
	for j := range n {
		if mask.Allows(i, j) && (got < 0 || tb == position.Rightmost) {
			got = j
		}
	}
	return got
}

// compiledHeads lists, for a model compiled from p with opts, the program's
// attention operations in the order of the model's heads: program order
// for the sequential construction (two layers per operation), and by
// attention depth, then program order, for the multi-head one (Thm C.4,
// dead operations dropped).
func compiledHeads(p *brasp.Program, opts compile.Options) []int {
	live := p.Live()
	var ops []int
	for k, v := range p.Vectors {
		if v.Kind == brasp.AttentionVector && (!opts.MultiHead || live[k]) {
			ops = append(ops, k)
		}
	}
	if opts.MultiHead {
		sort.SliceStable(ops, func(a, b int) bool { return p.Depth(ops[a]) < p.Depth(ops[b]) })
	}
	return ops
}

// TestAttentionPatternDyck runs the compiled Dyck models on the paper's
// word and checks that every head attends where the B-RASP operation it
// compiles attends (Figure 2): where some unmasked j has S(i,j) = 1 the
// head's score is 1 there and 0 elsewhere, so it attends to the same j;
// where none has, every score is 0 and the head attends to the position
// its tie-break prefers (the FFN after it then takes the default).
func TestAttentionPatternDyck(t *testing.T) {
	p := examples.MustProgram(examples.Dyck)
	w, err := p.Alphabet.ParseWord("llrrllrlrr")
	if err != nil {
		t.Fatal(err)
	}
	tr := p.RunReference(w)
	n := len(w)
	for _, opts := range compile.Variants {
		name := opts.String()
		m, err := compile.Compile(nil, p, opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		pattern, a, err := m.AttentionPattern(nil, w)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// The activations are the dense pass's.
		dense, err := m.ForwardDense(nil, w)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if !a.SameAt(i, dense, i) {
				t.Fatalf("%s: the activations at %d differ from ForwardDense's", name, i)
			}
		}
		if len(pattern) != len(m.Layers) {
			t.Fatalf("%s: pattern has %d layers, the model %d", name, len(pattern), len(m.Layers))
		}
		ops := compiledHeads(p, opts)
		next := 0
		for l := range m.Layers {
			if len(pattern[l]) != len(m.Layers[l].Heads) {
				t.Fatalf("%s: layer %d: pattern has %d heads, the layer %d", name, l, len(pattern[l]), len(m.Layers[l].Heads))
			}
			for h := range m.Layers[l].Heads {
				hd := &m.Layers[l].Heads[h]
				if next >= len(ops) {
					t.Fatalf("%s: more heads than attention operations", name)
				}
				k := ops[next]
				next++
				op := p.Vectors[k]
				if hd.Tiebreak != op.Att.Tiebreak || hd.Mask != op.Att.Mask {
					t.Fatalf("%s: head %d.%d [%s, %s] is not %s's", name, l+1, h+1, hd.Mask, hd.Tiebreak, op.Name)
				}
				if len(pattern[l][h]) != n {
					t.Fatalf("%s: head %d.%d: %d positions, want %d", name, l+1, h+1, len(pattern[l][h]), n)
				}
				for i := range n {
					want := braspAttended(tr, k, i)
					if want < 0 {
						want = preferred(hd.Mask, hd.Tiebreak, i, n)
					}
					if got := pattern[l][h][i]; got != want {
						t.Errorf("%s: head %d.%d (%s) at i=%d attends to %d, the program to %d", name, l+1, h+1, op.Name, i+1, got+1, want+1)
					}
				}
				// Figure 2 by hand: P_l reads the previous position, and
				// B_l at i = 8 reads j = 5.
				switch op.Name {
				case "P_l":
					if fmt.Sprint(pattern[l][h]) != "[-1 0 1 2 3 4 5 6 7 8]" {
						t.Errorf("%s: P_l attends to %v", name, pattern[l][h])
					}
				case "B_l":
					if pattern[l][h][7] != 4 {
						t.Errorf("%s: B_l at i=8 attends to j=%d, want 5", name, pattern[l][h][7]+1)
					}
				}
			}
		}
		if next != len(ops) {
			t.Errorf("%s: %d heads for %d attention operations", name, next, len(ops))
		}
	}
}

// tieModel is a one-layer model over {a, b} with one head per mask and
// tie-break. Coordinates: 0 holds scale at an a (0 at a b), 1 is constant
// 1, 2 sums the heads' values. Every head scores x_i·(Score·x_j) =
// weight·scale·[w_j = a] with Score[1][0] = weight: all a positions tie
// at the highest score, and every b position loses to them.
func tieModel(scale, weight *big.Rat) *transformer.Model {
	r := func(x *big.Rat) *big.Rat { return new(big.Rat).Set(x) }
	z := func() *big.Rat { return new(big.Rat) }
	one := func() *big.Rat { return big.NewRat(1, 1) }
	zeros := func() transformer.Matrix {
		return transformer.Matrix{{z(), z(), z()}, {z(), z(), z()}, {z(), z(), z()}}
	}
	var heads []transformer.Head
	for _, mask := range position.Masks {
		for _, tb := range []position.Tiebreak{position.Leftmost, position.Rightmost} {
			s, v := zeros(), zeros()
			s[1][0] = r(weight)
			v[2][0] = one()
			heads = append(heads, transformer.Head{Mask: mask, Tiebreak: tb, Score: s, Value: v})
		}
	}
	return &transformer.Model{
		Alphabet:  alphabet.Alphabet{"a", "b"},
		Width:     3,
		Labels:    []string{"a", "one", "sum"},
		Embedding: []transformer.Vec{{r(scale), one(), z()}, {z(), one(), z()}},
		Layers:    []transformer.Layer{{Heads: heads}},
		Output:    transformer.Output{Weight: transformer.Vec{z(), z(), one()}, Bias: z()},
	}
}

// TestAttentionPatternTies checks both tie-breaks under every mask on
// words where several positions tie, in each arithmetic the dense pass
// can use: float64 throughout, exact from the start (a score weight that
// is not a float64), and exact after the float pass gave up mid-way (a
// product that underflows).
func TestAttentionPatternTies(t *testing.T) {
	tiny := new(big.Rat).SetFloat64(0x1p-600)
	for _, c := range []struct {
		name          string
		scale, weight *big.Rat
		floatOK       bool // the runner starts in float64
		floatFails    bool // and gives up on words with an a
	}{
		{"float64", big.NewRat(1, 1), big.NewRat(1, 1), true, false},
		{"exact", big.NewRat(1, 1), big.NewRat(1, 3), false, false},
		{"float64 then exact", tiny, tiny, true, true},
	} {
		m := tieModel(c.scale, c.weight)
		r, err := transformer.NewRunner(m)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if transformer.FloatOK(r) != c.floatOK {
			t.Fatalf("%s: floatOK = %v", c.name, transformer.FloatOK(r))
		}
		for _, word := range []string{"babba", "aaaa", "bbb", "abab", "a"} {
			w, err := m.Alphabet.ParseWord(word)
			if err != nil {
				t.Fatal(err)
			}
			if c.floatOK {
				if _, err := transformer.DenseFloat(r, w); errors.Is(err, transformer.ErrInexact) != (c.floatFails && strings.Contains(word, "a")) {
					t.Fatalf("%s on %s: the float pass returns %v", c.name, word, err)
				}
			}
			pattern, a, err := r.AttentionPattern(w)
			if err != nil {
				t.Fatalf("%s on %s: %v", c.name, word, err)
			}
			dense, err := r.ForwardDense(w)
			if err != nil {
				t.Fatal(err)
			}
			for h, hd := range m.Layers[0].Heads {
				for i := range w {
					// The a positions the mask allows; failing those, every
					// allowed position ties at 0.
					want := -1
					for j := range w {
						if hd.Mask.Allows(i, j) && w[j] == 0 && (want < 0 || hd.Tiebreak == position.Rightmost) {
							want = j
						}
					}
					if want < 0 {
						want = preferred(hd.Mask, hd.Tiebreak, i, len(w))
					}
					if got := pattern[0][h][i]; got != want {
						t.Errorf("%s on %s: head [%s, %s] at i=%d attends to %d, want %d", c.name, word, hd.Mask, hd.Tiebreak, i, got, want)
					}
				}
			}
			for i := range w {
				if !a.SameAt(i, dense, i) {
					t.Errorf("%s on %s: activations at %d differ from ForwardDense's", c.name, word, i)
				}
				// sum = scale × the number of heads that attend to an a.
				count := 0
				for h := range m.Layers[0].Heads {
					if j := pattern[0][h][i]; j >= 0 && w[j] == 0 {
						count++
					}
				}
				want := new(big.Rat).Mul(c.scale, big.NewRat(int64(count), 1))
				if got := a.At(i)[2]; got.Cmp(want) != 0 {
					t.Errorf("%s on %s: sum at %d = %s, want %s", c.name, word, i, got.RatString(), want.RatString())
				}
			}
		}
	}
	// Concrete rows, so that a wrong tie-break in both the pass and the
	// expectation above cannot pass: on babba (a at 1 and 4).
	m := tieModel(big.NewRat(1, 1), big.NewRat(1, 1))
	pattern, _, err := m.AttentionPattern(nil, []int{1, 0, 1, 1, 0})
	if err != nil {
		t.Fatal(err)
	}
	for h, want := range []string{
		"[1 1 1 1 1]", "[4 4 4 4 4]", // none
		"[-1 0 1 1 1]", "[-1 0 1 1 1]", // future: at 2 only b before, a tie at 0
		"[1 4 4 4 -1]", "[4 4 4 4 -1]", // past
		"[0 1 1 1 1]", "[0 1 1 1 4]", // future-or-self
		"[1 1 4 4 4]", "[4 4 4 4 4]", // past-or-self
	} {
		if got := fmt.Sprint(pattern[0][h]); got != want {
			hd := &m.Layers[0].Heads[h]
			t.Errorf("babba, head [%s, %s]: %s, want %s", hd.Mask, hd.Tiebreak, got, want)
		}
	}
}

// TestAttentionPatternErrors: the pass refuses what ForwardDense refuses.
func TestAttentionPatternErrors(t *testing.T) {
	m := tieModel(big.NewRat(1, 1), big.NewRat(1, 1))
	if _, _, err := m.AttentionPattern(nil, []int{0, 5}); err == nil {
		t.Error("a symbol outside the alphabet was accepted")
	}
	if _, _, err := m.AttentionPattern(nil, nil); !errors.Is(err, transformer.ErrEmptyWord) {
		t.Errorf("the empty word: %v", err)
	}
	if _, _, err := (&transformer.Model{}).AttentionPattern(nil, []int{0}); err == nil {
		t.Error("an invalid model was run")
	}
}
