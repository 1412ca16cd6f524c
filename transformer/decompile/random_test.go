package decompile

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/position"
	"github.com/brasp-dev/brasp/transformer"
)

// modelGen generates transformers our compiler did not make.
type modelGen struct {
	rng *rand.Rand
	// num returns a random weight.
	num func() *big.Rat
	// sparsity is the probability that a weight is zero.
	sparsity float64
}

// rational weights: p/q with small p and q ∈ {1, 2, 3, 5, 7}.
func rationalWeights(rng *rand.Rand) func() *big.Rat {
	dens := []int64{1, 2, 3, 5, 7}
	return func() *big.Rat { return big.NewRat(int64(rng.IntN(7)-3), dens[rng.IntN(len(dens))]) }
}

// smallInts: integers in -2..2.
func smallInts(rng *rand.Rand) func() *big.Rat {
	return func() *big.Rat { return big.NewRat(int64(rng.IntN(5)-2), 1) }
}

func (g *modelGen) w() *big.Rat {
	if g.rng.Float64() < g.sparsity {
		return new(big.Rat)
	}
	return g.num()
}

func (g *modelGen) vec(n int) transformer.Vec {
	v := make(transformer.Vec, n)
	for k := range v {
		v[k] = g.w()
	}
	return v
}

func (g *modelGen) matrix(r, c int) transformer.Matrix {
	m := make(transformer.Matrix, r)
	for k := range m {
		m[k] = g.vec(c)
	}
	return m
}

// model returns a random model with the given shape. Position terms and
// layer norms are added when asked.
func (g *modelGen) model(alpha, width, layers, maxHeads int, positions, norm bool) *transformer.Model {
	m := &transformer.Model{Alphabet: brasptest.Alphabet(alpha), Width: width}
	for c := range width {
		m.Labels = append(m.Labels, fmt.Sprintf("c%d", c))
	}
	for range alpha {
		m.Embedding = append(m.Embedding, g.vec(width))
	}
	if positions {
		kinds := []transformer.PositionKind{transformer.PosSin, transformer.PosCos, transformer.PosFirst, transformer.PosLast, transformer.PosMid, transformer.PosMod}
		for range 1 + g.rng.IntN(3) {
			t := transformer.PositionTerm{Kind: kinds[g.rng.IntN(len(kinds))], Coord: g.rng.IntN(width), Scale: big.NewRat(int64(1+g.rng.IntN(3)), 1)}
			switch t.Kind {
			case transformer.PosSin, transformer.PosCos:
				t.Frequency = big.NewRat(1, int64(2+g.rng.IntN(4)))
			case transformer.PosMod:
				t.M = 2 + g.rng.IntN(2)
				t.R = g.rng.IntN(t.M)
			}
			m.Position = append(m.Position, t)
		}
	}
	masks := position.Masks
	for range layers {
		var l transformer.Layer
		for range 1 + g.rng.IntN(maxHeads) {
			l.Heads = append(l.Heads, transformer.Head{
				Mask:     masks[g.rng.IntN(len(masks))],
				Tiebreak: position.Tiebreak(g.rng.IntN(2)),
				Score:    g.matrix(width, width),
				Value:    g.matrix(width, width),
			})
		}
		if g.rng.IntN(3) > 0 {
			h := 1 + g.rng.IntN(3)
			l.FFN = &transformer.FFN{W1: g.matrix(h, width), B1: g.vec(h), W2: g.matrix(width, h), B2: g.vec(width)}
		}
		if norm {
			ln := &transformer.LayerNorm{Gamma: g.vec(width), Beta: g.vec(width), Eps: big.NewRat(int64(g.rng.IntN(2)), 4)}
			if g.rng.IntN(2) == 0 {
				// One gain and bias for every coordinate, as compiled
				// models have: the frozen-coordinate encoding applies.
				gamma, beta := g.num(), g.num()
				for c := range width {
					ln.Gamma[c], ln.Beta[c] = gamma, beta
				}
			}
			if g.rng.IntN(2) == 0 {
				l.FFNNorm = ln
			} else {
				l.AttentionNorm = ln
			}
		}
		m.Layers = append(m.Layers, l)
	}
	m.Output = transformer.Output{Weight: g.vec(width), Bias: g.num()}
	return m
}

// checkRandomModels decompiles n random models and compares them with the
// dense forward pass on every word up to length 6.
// Models whose enumeration exceeds the (test-sized) limits are counted; at
// most a third may be skipped that way, and a limit error must name its
// limit.
func checkRandomModels(t *testing.T, name string, n int, gen func(k int, g *modelGen) *transformer.Model, g *modelGen) {
	skipped := 0
	for k := range n {
		m := gen(k, g)
		if err := m.Validate(); err != nil {
			t.Fatalf("generator made an invalid model: %v", err)
		}
		smaller := k%2 == 1
		b := budget.New(context.Background(), budget.Settings{"decompile-classes": 300, "decompile-combos": 5000, "decompile-scores": 200, "decompile-work": 1 << 24})
		p, err := Decompile(b, m, Options{Smaller: smaller})
		if err != nil {
			var le *budget.Error
			if !errors.As(err, &le) {
				t.Fatalf("%s %d: %v", name, k, err)
			}
			skipped++
			continue
		}
		agree(t, fmt.Sprintf("%s %d (smaller=%v)", name, k, smaller), m, p, 6, 10, g.rng)
		if !smaller && p.AttentionDepth() > m.AttentionLayers() {
			t.Fatalf("%s %d: depth %d > layers %d", name, k, p.AttentionDepth(), m.AttentionLayers())
		}
	}
	t.Logf("%s: %d models, %d over the test limits", name, n, skipped)
	if skipped > n/3 {
		t.Errorf("%s: %d of %d models exceeded the limits", name, skipped, n)
	}
}

// TestTwoLayerRationalModels: two layers, arbitrary rational weights,
// several heads (all masks, both tie-breaks, frequent ties).
func TestTwoLayerRationalModels(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	g := &modelGen{rng: rng, num: rationalWeights(rng), sparsity: 0.6}
	checkRandomModels(t, "two-layer rational", 30, func(k int, g *modelGen) *transformer.Model {
		return g.model(2+k%2, 3, 2, 3, false, false)
	}, g)
}

// TestSmallIntegerModels: random small-integer weights, one to three
// layers.
func TestSmallIntegerModels(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	g := &modelGen{rng: rng, num: smallInts(rng), sparsity: 0.7}
	checkRandomModels(t, "small-integer", 40, func(k int, g *modelGen) *transformer.Model {
		return g.model(2, 2+k%3, 1+k%3, 2, false, false)
	}, g)
}

// TestPositionAndNormModels: position embeddings (rational sinusoids,
// first/last/Mid, MOD) and layer norm with irrational σ.
func TestPositionAndNormModels(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	g := &modelGen{rng: rng, num: smallInts(rng), sparsity: 0.6}
	checkRandomModels(t, "position+norm", 30, func(k int, g *modelGen) *transformer.Model {
		return g.model(2, 3, 1+k%2, 2, true, k%2 == 0)
	}, g)
	// Wider models with norms, where some coordinates are dead.
	frozen := 0
	checkRandomModels(t, "norm", 30, func(k int, g *modelGen) *transformer.Model {
		m := g.model(2, 5, 2, 2, false, true)
		if k%2 == 0 {
			scratch(m, g, 3)
		}
		if fr, ok := frozenCoords(m); ok {
			// Count models where a norm sees at least two frozen coordinates.
			for l := range m.Layers {
				n := 0
				for _, b := range fr[l] {
					if b {
						n++
					}
				}
				if n >= 2 {
					frozen++
					break
				}
			}
		}
		return m
	}, g)
	t.Logf("%d norm models used the frozen-coordinate encoding", frozen)
	if frozen == 0 {
		t.Errorf("no model exercised the frozen-coordinate encoding")
	}
}

// scratch turns coordinates from..Width-1 of a two-layer model into
// scratch space: the first layer's heads write them, nothing reads them,
// the second layer does not write them, and the second layer's norms have
// one gain and bias — so they are frozen at the second layer's input,
// where they reach the output only through its norm's mean and variance.
func scratch(m *transformer.Model, g *modelGen, from int) {
	d := m.Width
	zeroCol := func(x transformer.Matrix, c int) {
		for r := range x {
			x[r][c] = new(big.Rat)
		}
	}
	for l := range m.Layers {
		layer := &m.Layers[l]
		for h := range layer.Heads {
			hd := &layer.Heads[h]
			for c := from; c < d; c++ {
				zeroCol(hd.Score, c)
				hd.Score[c] = make(transformer.Vec, d)
				for k := range d {
					hd.Score[c][k] = new(big.Rat)
				}
				zeroCol(hd.Value, c)
				if l == 0 {
					hd.Value[c][0] = big.NewRat(int64(1+h), 1) // write the scratch
				} else {
					for k := range d {
						hd.Value[c][k] = new(big.Rat)
					}
				}
			}
		}
		if f := layer.FFN; f != nil {
			for c := from; c < d; c++ {
				zeroCol(f.W1, c)
				if l > 0 {
					f.B2[c] = new(big.Rat)
					for k := range f.W2[c] {
						f.W2[c][k] = new(big.Rat)
					}
				}
			}
		}
		for _, ln := range []*transformer.LayerNorm{layer.AttentionNorm, layer.FFNNorm} {
			if ln != nil && l > 0 {
				gamma, beta := g.num(), g.num()
				for c := range d {
					ln.Gamma[c], ln.Beta[c] = gamma, beta
				}
			}
		}
	}
	for c := from; c < d; c++ {
		m.Output.Weight[c] = new(big.Rat)
	}
}
