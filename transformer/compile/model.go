package compile

import (
	"fmt"
	"math/big"

	"github.com/brasp-dev/brasp/position"
	"github.com/brasp-dev/brasp/transformer"
)

// modTarget is a MOD_r_m predicate to compute from its sinusoid.
type modTarget struct {
	dst  slot
	r, m int
	name string
}

// modLayer adds the sinusoid coordinates of every modulus and a layer (no
// heads) whose FFN computes each MOD_r_m exactly, following Cor. 5.4: with
// v(i) = (sin 2πi/m, cos 2πi/m), the score u·v(i) for u ≈ v(r) is largest
// exactly when i ≡ r (mod m); a threshold b strictly between that value and
// the next-largest, and a gain K ≥ 1/(u·v(r) − b), make
// ReLU(K(u·v(i) − b)) − ReLU(K(u·v(i) − b) − 1) exactly 1 or 0. u, b and K
// are short dyadic rationals (u is v(r) rounded to 12 bits, and the
// separation is checked exactly), so the weights are exact float64 values
// and so are the products the forward pass computes.
//
// With layer norm, each sinusoid coordinate s is paired with a coordinate
// holding 1 − s, and the same FFN erases the sinusoid (s becomes 0, 1 − s
// becomes 1): from then on every coordinate belongs to a (1,0)/(0,1) pair.
// The layer has no heads, so it gets no attention norm; its FFN norm sees
// only pairs.
func (c *compiler) modLayer(targets []modTarget) error {
	type coords struct{ sin, cos int }
	byM := map[int]coords{}
	layer := absLayer{bias: map[int]*big.Rat{}}
	var sinusoidCoords [][2]int // (coordinate, partner or -1)
	for _, t := range targets {
		cs, ok := byM[t.m]
		f := big.NewRat(1, int64(t.m))
		if !ok {
			for x, kind := range []transformer.PositionKind{transformer.PosSin, transformer.PosCos} {
				label := fmt.Sprintf("%s(2πi/%d)", kind, t.m)
				coord := c.newCoord(label)
				c.posTerms = append(c.posTerms, transformer.PositionTerm{Kind: kind, Frequency: f, Coord: coord, Scale: big.NewRat(1, 1)})
				c.posCoords[coord] = true
				partner := -1
				if c.opts.LayerNorm {
					partner = c.newCoord("!" + label)
					c.posTerms = append(c.posTerms, transformer.PositionTerm{Kind: kind, Frequency: f, Coord: partner, Scale: big.NewRat(-1, 1)})
				}
				sinusoidCoords = append(sinusoidCoords, [2]int{coord, partner})
				if x == 0 {
					cs.sin = coord
				} else {
					cs.cos = coord
				}
			}
			byM[t.m] = cs
		}
		round := func(x *big.Rat) *big.Rat {
			y := new(big.Rat).Mul(x, big.NewRat(1<<12, 1))
			q := new(big.Int).Quo(y.Num(), y.Denom())
			return new(big.Rat).SetFrac(q, big.NewInt(1<<12))
		}
		ur, uc := round(transformer.Sinusoid(f, t.r, false)), round(transformer.Sinusoid(f, t.r, true))
		dotWith := func(k int) *big.Rat {
			x := new(big.Rat).Mul(ur, transformer.Sinusoid(f, k, false))
			return x.Add(x, new(big.Rat).Mul(uc, transformer.Sinusoid(f, k, true)))
		}
		top := dotWith(t.r)
		// The other residues, nearest to r first (the ones whose sinusoids
		// are closest to u), so that a period too long for 12 bits is
		// refused at its first residue rather than after all m.
		var next *big.Rat
		for dist := 1; dist <= t.m/2; dist++ {
			ks := []int{(t.r + dist) % t.m}
			if k := (t.r - dist + t.m) % t.m; k != ks[0] {
				ks = append(ks, k)
			}
			for _, k := range ks {
				d := dotWith(k)
				if d.Cmp(top) >= 0 {
					return fmt.Errorf("%s: the sinusoid of period %d does not separate residue %d at 12-bit precision", t.name, t.m, t.r)
				}
				if next == nil || d.Cmp(next) > 0 {
					next = d
				}
			}
		}
		b := dyadicBetween(next, top)
		gap := new(big.Rat).Sub(top, b)
		gain := big.NewRat(1, 1)
		for new(big.Rat).Mul(gain, gap).Cmp(big.NewRat(1, 1)) < 0 {
			gain.Mul(gain, big.NewRat(2, 1))
		}
		for x, off := range []int64{0, -1} {
			u := unit{in: map[int]int64{}, out: map[int]*big.Rat{}}
			u.weights = map[int]*big.Rat{cs.sin: new(big.Rat).Mul(gain, ur), cs.cos: new(big.Rat).Mul(gain, uc)}
			bias := new(big.Rat).Mul(gain, b)
			bias.Neg(bias)
			u.exactBias = bias.Add(bias, big.NewRat(off, 1))
			sign := int64(1 - 2*x)
			u.out[t.dst.pos] = big.NewRat(sign, 1)
			if t.dst.neg >= 0 {
				u.out[t.dst.neg] = big.NewRat(-sign, 1)
			}
			layer.units = append(layer.units, u)
		}
	}
	if c.opts.LayerNorm {
		// Erase the sinusoids: s − (ReLU(s) − ReLU(−s)) = 0.
		for _, sc := range sinusoidCoords {
			for _, sign := range []int64{1, -1} {
				u := unit{in: map[int]int64{sc[0]: sign}, out: map[int]*big.Rat{
					sc[0]: big.NewRat(-sign, 1), sc[1]: big.NewRat(sign, 1)}}
				layer.units = append(layer.units, u)
			}
		}
		layer.noAttentionNorm = true
	}
	c.layers = append(c.layers, layer)
	return nil
}

// dyadicBetween returns a dyadic rational strictly between lo < hi.
func dyadicBetween(lo, hi *big.Rat) *big.Rat {
	mid := new(big.Rat).Add(lo, hi)
	mid.Quo(mid, big.NewRat(2, 1))
	scale := big.NewInt(1)
	for {
		x := new(big.Rat).Mul(mid, new(big.Rat).SetInt(scale))
		q := new(big.Int).Quo(x.Num(), x.Denom())
		r := new(big.Rat).SetFrac(q, scale)
		if r.Cmp(lo) > 0 && r.Cmp(hi) < 0 {
			return r
		}
		scale.Lsh(scale, 1)
	}
}

// embed is the embedding of one input: 1 on the input slots where on holds,
// on the slots that are 1 for every input, and (for symbol sym ≥ 0) on the
// stage-0 functions folded into the embedding; under layer norm, each
// complement coordinate is 1 minus its slot.
func (c *compiler) embed(on func(coord int) bool, sym int) (transformer.Vec, error) {
	e, err := c.zeros(len(c.labels))
	if err != nil {
		return nil, err
	}
	for coord := range c.labels {
		if c.posCoords[coord] {
			continue
		}
		if on(coord) || c.initTrue[coord] {
			e[coord].SetInt64(1)
		}
		if vals, ok := c.embedding[coord]; ok && sym >= 0 && vals[sym] {
			e[coord].SetInt64(1)
		}
	}
	if c.opts.LayerNorm {
		for coord, label := range c.labels {
			if len(label) > 0 && label[0] == '!' && !c.posCoords[coord] {
				if e[coord-1].Sign() == 0 {
					e[coord].SetInt64(1)
				} else {
					e[coord].SetInt64(0)
				}
			}
		}
	}
	return e, nil
}

// zeros is transformer.Zeros charged to the budget: making a vector's
// rationals is the work of building the model, and a large model holds
// millions of them.
func (c *compiler) zeros(n int) (transformer.Vec, error) {
	if err := c.b.Step(int64(1 + n)); err != nil {
		return nil, err
	}
	return transformer.Zeros(n), nil
}

// zeroMatrix is transformer.ZeroMatrix charged to the budget a row at a
// time.
func (c *compiler) zeroMatrix(rows, cols int) (transformer.Matrix, error) {
	m := make(transformer.Matrix, rows)
	for k := range m {
		v, err := c.zeros(cols)
		if err != nil {
			return nil, err
		}
		m[k] = v
	}
	return m, nil
}

// model assembles the Model from the compiler's abstract layers, charging
// every vector it allocates to the budget (so a cancelled context stops it
// within a few thousand rationals).
func (c *compiler) model() (*transformer.Model, error) {
	labels := append([]string(nil), c.labels...)
	d := len(labels)
	m := &transformer.Model{Alphabet: c.p.Alphabet, Width: d, Labels: labels, Position: c.posTerms}
	if c.p.Props != nil {
		// The multi-hot embedding: the empty step's embedding as the bias,
		// and per proposition the difference its slot makes (1 on P_p's
		// coordinate, -1 on its complement under layer norm).
		m.Alphabet, m.Props = nil, append([]string{}, c.p.Props...)
		bias, err := c.embed(func(int) bool { return false }, -1)
		if err != nil {
			return nil, err
		}
		m.EmbeddingBias = bias
		for p := range c.p.Props {
			e, err := c.embed(func(coord int) bool { q, ok := c.propOf[coord]; return ok && q == p }, -1)
			if err != nil {
				return nil, err
			}
			for k := range e {
				e[k].Sub(e[k], m.EmbeddingBias[k])
			}
			m.Embedding = append(m.Embedding, e)
		}
	}
	for sym := range c.p.Alphabet {
		e, err := c.embed(func(coord int) bool { s, ok := c.symbolOf[coord]; return ok && s == sym }, sym)
		if err != nil {
			return nil, err
		}
		m.Embedding = append(m.Embedding, e)
	}
	var norm func() (*transformer.LayerNorm, error)
	if c.opts.LayerNorm {
		slots := 0
		for _, label := range c.labels {
			if len(label) > 0 && label[0] == '!' {
				slots++
			}
		}
		// Every slot sums to 1 and has squares summing to 1 (sinusoids are
		// erased before the first norm that sees them).
		mean := big.NewRat(int64(slots), int64(d))
		variance := big.NewRat(int64(slots), int64(d))
		variance.Sub(variance, new(big.Rat).Mul(mean, mean))
		sigma := transformer.NormSigma(variance)
		norm = func() (*transformer.LayerNorm, error) {
			if err := c.b.Step(int64(1 + 2*d)); err != nil {
				return nil, err
			}
			ln := &transformer.LayerNorm{Gamma: make(transformer.Vec, d), Beta: make(transformer.Vec, d), Eps: new(big.Rat)}
			for k := range d {
				ln.Gamma[k] = new(big.Rat).Set(sigma)
				ln.Beta[k] = new(big.Rat).Set(mean)
			}
			return ln, nil
		}
	}
	for _, al := range c.layers {
		var layer transformer.Layer
		for _, ah := range al.heads {
			score, err := c.zeroMatrix(d, d)
			if err != nil {
				return nil, err
			}
			value, err := c.zeroMatrix(d, d)
			if err != nil {
				return nil, err
			}
			h := transformer.Head{Mask: ah.mask, Tiebreak: ah.tiebreak, Score: score, Value: value}
			for _, e := range ah.score {
				h.Score[e[0]][e[1]].SetInt64(1)
			}
			for _, e := range ah.value {
				h.Value[e.dst][e.src].Add(h.Value[e.dst][e.src], big.NewRat(e.coef, 1))
			}
			layer.Heads = append(layer.Heads, h)
		}
		if len(al.units) > 0 || len(al.bias) > 0 {
			hn := len(al.units)
			w1, err := c.zeroMatrix(hn, d)
			if err != nil {
				return nil, err
			}
			w2, err := c.zeroMatrix(d, hn)
			if err != nil {
				return nil, err
			}
			f := &transformer.FFN{W1: w1, B1: transformer.Zeros(hn), W2: w2, B2: transformer.Zeros(d)}
			for x, u := range al.units {
				for coord, w := range u.in {
					f.W1[x][coord].SetInt64(w)
				}
				for coord, w := range u.weights {
					f.W1[x][coord].Set(w)
				}
				f.B1[x].SetInt64(u.bias)
				if u.exactBias != nil {
					f.B1[x].Set(u.exactBias)
				}
				for coord, w := range u.out {
					f.W2[coord][x].Set(w)
				}
			}
			for coord, b := range al.bias {
				f.B2[coord].Set(b)
			}
			layer.FFN = f
		}
		if norm != nil {
			var err error
			if layer.FFNNorm, err = norm(); err != nil {
				return nil, err
			}
			if !al.noAttentionNorm {
				if layer.AttentionNorm, err = norm(); err != nil {
					return nil, err
				}
			}
		}
		m.Layers = append(m.Layers, layer)
	}
	if c.p.IsTransducer() {
		w, err := c.zeroMatrix(len(c.p.Output.Symbols), d)
		if err != nil {
			return nil, err
		}
		t := &transformer.Transduction{Symbols: c.p.Output.Symbols, Weight: w, Bias: transformer.Zeros(len(c.p.Output.Symbols))}
		for g, k := range c.p.Output.Vectors {
			t.Weight[g][c.avail[k].pos].SetInt64(1)
			t.Bias[g].SetFrac64(-1, 2)
		}
		m.Transduction = t
		return m, nil
	}
	m.Output = transformer.Output{Weight: transformer.Zeros(d), Bias: big.NewRat(-1, 2)}
	out := c.avail[c.p.Output.Accept]
	m.Output.Weight[out.pos].SetInt64(1)
	return m, nil
}

// tableTerm is the table position term writing the predicate t (or, with
// negated, its complement) as 1 and 0 to coordinate coord.
func tableTerm(t position.Periodic, coord int, negated bool) transformer.PositionTerm {
	bits := func(s string) []*big.Rat {
		v := make([]*big.Rat, len(s))
		for k := range s {
			v[k] = new(big.Rat)
			if (s[k] == '1') != negated {
				v[k].SetInt64(1)
			}
		}
		return v
	}
	return transformer.PositionTerm{Kind: transformer.PosTable, Prefix: bits(t.Prefix), Period: bits(t.Period), Coord: coord, Scale: big.NewRat(1, 1)}
}
