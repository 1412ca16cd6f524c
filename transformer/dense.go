package transformer

import (
	"errors"
	"math"
	"math/big"

	"github.com/brasp-dev/brasp/position"
)

// ForwardDense runs the forward pass as the definition of §4.1 states it:
// every position computes its score against every unmasked position,
// O(n²·d) per head. Scores are compared exactly: the pass computes in
// float64 while every operation is provably exact (each product and sum is
// checked error-free with FMA and TwoSum, so no rounding ever happens), and
// otherwise reruns in exact rational arithmetic. Layer norm is always
// computed exactly.
func (m *Model) ForwardDense(w []int) (*Activations, error) {
	r, err := NewRunner(m)
	if err != nil {
		return nil, err
	}
	return r.ForwardDense(w)
}

// AcceptsDense runs the dense forward pass and the output layer.
func (m *Model) AcceptsDense(w []int) (bool, error) {
	r, err := NewRunner(m)
	if err != nil {
		return false, err
	}
	return r.AcceptsDense(w)
}

// errInexact reports that a float64 operation would have rounded.
var errInexact = errors.New("float64 arithmetic would round")

// checked is float64 arithmetic that records whether any operation rounded
// (or overflowed, or underflowed).
type checked struct{ inexact bool }

func (c *checked) mul(a, b float64) float64 {
	p := a * b
	if math.FMA(a, b, -p) != 0 || math.IsInf(p, 0) || (p == 0 && a != 0 && b != 0) || (p != 0 && math.Abs(p) < 0x1p-1000) {
		c.inexact = true
	}
	return p
}

func (c *checked) add(a, b float64) float64 {
	s := a + b
	bb := s - a
	if (a-(s-bb))+(b-bb) != 0 || math.IsInf(s, 0) {
		c.inexact = true
	}
	return s
}

// floatMatrix is a matrix in float64 with, per row, the indices of its
// non-zero entries.
type floatMatrix struct {
	rows [][]float64
	nz   [][]int
}

// toFloats converts a model matrix, reporting whether it is exact.
func toFloats(m Matrix) (floatMatrix, bool) {
	fm := floatMatrix{rows: make([][]float64, len(m)), nz: make([][]int, len(m))}
	for r, row := range m {
		fr, ok := row.Float64s()
		if !ok {
			return fm, false
		}
		fm.rows[r] = fr
		for c, x := range fr {
			if x != 0 {
				fm.nz[r] = append(fm.nz[r], c)
			}
		}
	}
	return fm, true
}

// Float64s returns v in float64 and whether every entry is exactly a
// finite float64: the forward passes and the decompiler compute in float64
// only while that loses nothing, and in exact rationals otherwise.
func (v Vec) Float64s() ([]float64, bool) {
	out := make([]float64, len(v))
	for k, x := range v {
		f, exact := x.Float64()
		if !exact || math.IsInf(f, 0) {
			return nil, false
		}
		out[k] = f
	}
	return out, true
}

func floatsToVec(x []float64) Vec {
	v := make(Vec, len(x))
	for k, f := range x {
		v[k] = new(big.Rat).SetFloat64(f)
	}
	return v
}

func (c *checked) matVec(m floatMatrix, x []float64) []float64 {
	out := make([]float64, len(m.rows))
	for r, row := range m.rows {
		s := 0.0
		for _, k := range m.nz[r] {
			if x[k] != 0 {
				s = c.add(s, c.mul(row[k], x[k]))
			}
		}
		out[r] = s
	}
	return out
}

// denseFloat is the dense pass in checked float64 arithmetic. It returns
// errInexact as soon as some operation would round.
func (r *Runner) denseFloat(w []int) ([][]float64, error) { return r.denseFloatPattern(w, nil) }

// denseFloatPattern is denseFloat; when pattern is not nil (as newPattern
// makes it) it also records in pattern[l][h][i] the position head h of
// layer l attends to at position i, -1 when the mask leaves none.
func (r *Runner) denseFloatPattern(w []int, pattern [][][]int) ([][]float64, error) {
	m := r.m
	if err := m.checkWord(w); err != nil {
		return nil, err
	}
	n, d := len(w), m.Width
	var c checked
	xs, err := r.embedFloat(w)
	if err != nil {
		return nil, err
	}
	for l := range m.Layers {
		layer := &m.Layers[l]
		att := make([][]float64, n)
		for i := range att {
			att[i] = make([]float64, d)
		}
		for h := range layer.Heads {
			hd := &layer.Heads[h]
			fh := &r.layers[l].heads[h]
			keys := make([][]float64, n)
			vals := make([][]float64, n)
			for j := range n {
				keys[j] = c.matVec(fh.S, xs[j])
				vals[j] = c.matVec(fh.V, xs[j])
			}
			nzq := make([]int, 0, d)
			for i := range n {
				nzq = nzq[:0]
				for k, v := range xs[i] {
					if v != 0 {
						nzq = append(nzq, k)
					}
				}
				best, bestScore := -1, 0.0
				lo, hi := maskRange(hd.Mask, i, n)
				for j := lo; j < hi; j++ {
					s := 0.0
					kj := keys[j]
					for _, k := range nzq {
						if kj[k] != 0 {
							s = c.add(s, c.mul(xs[i][k], kj[k]))
						}
					}
					if best < 0 || s > bestScore || (s == bestScore && hd.Tiebreak == position.Rightmost) {
						best, bestScore = j, s
					}
				}
				if pattern != nil {
					pattern[l][h][i] = best
				}
				if best >= 0 {
					for k, v := range vals[best] {
						att[i][k] = c.add(att[i][k], v)
					}
				}
			}
			if c.inexact {
				return nil, errInexact
			}
		}
		for i := range n {
			x := make([]float64, d)
			for k := range x {
				x[k] = c.add(xs[i][k], att[i][k])
			}
			y, err := r.finishFloat(l, x, &c)
			if err != nil {
				return nil, err
			}
			xs[i] = y
		}
	}
	return xs, nil
}

// denseExact is the dense pass in exact rational arithmetic.
func (m *Model) denseExact(w []int) (*Activations, error) { return m.denseExactPattern(w, nil, nil) }

// denseExactPattern is denseExact, recording the attended positions in
// pattern as denseFloatPattern does, and, when trace is not nil, every
// intermediate value (Model.Trace).
func (m *Model) denseExactPattern(w []int, pattern [][][]int, trace *Trace) (*Activations, error) {
	if err := m.checkWord(w); err != nil {
		return nil, err
	}
	n := len(w)
	xs := make([]Vec, n)
	for i, s := range w {
		xs[i] = copyVec(m.Embedding[s])
		if len(m.Position) > 0 {
			addInto(xs[i], m.positionVector(i+1, n))
		}
	}
	if trace != nil {
		trace.Embed = copyVecs(xs)
	}
	for l := range m.Layers {
		layer := &m.Layers[l]
		var lt LayerTrace
		if trace != nil {
			lt.Attended = make([][]int, len(layer.Heads))
			for h := range lt.Attended {
				lt.Attended[h] = make([]int, n)
			}
		}
		cs := make([]Vec, n)
		for i := range cs {
			cs[i] = copyVec(xs[i])
		}
		for h := range layer.Heads {
			hd := &layer.Heads[h]
			keys := make([]Vec, n)
			for j := range n {
				keys[j] = matVec(hd.Score, xs[j])
			}
			for i := range n {
				best := -1
				var bestScore *big.Rat
				for j := range n {
					if !hd.Mask.Allows(i, j) {
						continue
					}
					s := dot(xs[i], keys[j])
					if best < 0 {
						best, bestScore = j, s
						continue
					}
					if cmp := s.Cmp(bestScore); cmp > 0 || (cmp == 0 && hd.Tiebreak == position.Rightmost) {
						best, bestScore = j, s
					}
				}
				if pattern != nil {
					pattern[l][h][i] = best
				}
				if trace != nil {
					lt.Attended[h][i] = best
				}
				if best >= 0 {
					addInto(cs[i], matVec(hd.Value, xs[best]))
				}
			}
		}
		if trace != nil {
			lt.Mid = make([]Vec, n)
		}
		for i := range n {
			mid := midLayer(layer, cs[i])
			if trace != nil {
				lt.Mid[i] = copyVec(mid)
			}
			xs[i] = postLayer(layer, mid)
		}
		if trace != nil {
			lt.Post = copyVecs(xs)
			trace.Layers = append(trace.Layers, lt)
		}
	}
	return newActivations(identityClasses(n), nil, xs), nil
}

// floatNorm is a layer norm's parameters in float64; ok is false when some
// parameter is not exactly a float64.
type floatNorm struct {
	gamma, beta []float64
	eps         float64
	ok          bool
}

func newFloatNorm(ln *LayerNorm) *floatNorm {
	if ln == nil {
		return nil
	}
	g, ok1 := ln.Gamma.Float64s()
	b, ok2 := ln.Beta.Float64s()
	e, ok3 := ln.Eps.Float64()
	return &floatNorm{g, b, e, ok1 && ok2 && ok3}
}

// normFloat computes LN(x) in float64 when every step is provably exact (in
// particular σ must be an exact float64 square root); ok is false otherwise.
func normFloat(ln *floatNorm, x []float64) (y []float64, ok bool) {
	if !ln.ok {
		return nil, false
	}
	var c checked
	d := float64(len(x))
	s := 0.0
	for _, v := range x {
		s = c.add(s, v)
	}
	mean := s / d
	if math.FMA(mean, d, -s) != 0 {
		return nil, false
	}
	q := 0.0
	for _, v := range x {
		t := c.add(v, -mean)
		q = c.add(q, c.mul(t, t))
	}
	variance := q / d
	if math.FMA(variance, d, -q) != 0 {
		return nil, false
	}
	variance = c.add(variance, ln.eps)
	sigma := math.Sqrt(variance)
	if math.FMA(sigma, sigma, -variance) != 0 || c.inexact {
		return nil, false
	}
	y = make([]float64, len(x))
	for k, v := range x {
		out := 0.0
		if sigma != 0 {
			u := c.mul(c.add(v, -mean), ln.gamma[k])
			out = u / sigma
			if math.FMA(out, sigma, -u) != 0 {
				return nil, false
			}
		}
		y[k] = c.add(out, ln.beta[k])
	}
	if c.inexact {
		return nil, false
	}
	return y, true
}

// normAny applies ln to x, in float64 when provably exact and exactly
// otherwise.
func normAny(ln *LayerNorm, x Vec) Vec {
	if f, ok := x.Float64s(); ok {
		if y, ok := normFloat(newFloatNorm(ln), f); ok {
			return floatsToVec(y)
		}
	}
	return applyNorm(ln, x)
}

// maskRange returns the positions [lo, hi) that mask lets position i (0-based)
// attend to in a word of length n.
func maskRange(mask position.Mask, i, n int) (lo, hi int) {
	switch mask {
	case position.MaskFuture:
		return 0, i
	case position.MaskFutureOrSelf:
		return 0, i + 1
	case position.MaskPast:
		return i + 1, n
	case position.MaskPastOrSelf:
		return i, n
	}
	return 0, n
}
