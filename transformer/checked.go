package transformer

import (
	"errors"
	"math"
	"math/big"
	"slices"
)

// errInexact reports that a float64 operation would have rounded.
var errInexact = errors.New("float64 arithmetic would round")

// checked is float64 arithmetic that records whether any operation rounded
// (or overflowed, or underflowed).
type checked struct {
	inexact bool
	hidden  []float64 // scratch for ffnInto's hidden layer
}

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

// floatMatrix is a matrix in float64 stored by its non-zero entries: per
// row, their columns and values. A model's matrices are mostly zeros (a
// compiled head reads and writes a few coordinates), and a runner then
// costs what the matrices hold, not d² floats per head.
type floatMatrix struct {
	cols [][]int32
	vals [][]float64
}

// toFloats converts a model matrix, reporting whether it is exact.
func toFloats(m Matrix) (floatMatrix, bool) {
	fm := floatMatrix{cols: make([][]int32, len(m)), vals: make([][]float64, len(m))}
	for r, row := range m {
		for c, x := range row {
			if x.Sign() == 0 {
				continue
			}
			f, exact := ExactFloat64(x)
			if !exact || math.IsInf(f, 0) {
				return fm, false
			}
			fm.cols[r] = append(fm.cols[r], int32(c))
			fm.vals[r] = append(fm.vals[r], f)
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
		f, exact := ExactFloat64(x)
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
		v[k] = RatFromFloat64(f)
	}
	return v
}

// RatFromFloat64 returns the finite float64 f as an exact rational, like
// new(big.Rat).SetFloat64(f) but several times faster on integers, which
// most activations of compiled models are (0, ±1, small counts).
func RatFromFloat64(f float64) *big.Rat {
	if f == math.Trunc(f) && math.Abs(f) < 1<<62 {
		return new(big.Rat).SetInt64(int64(f))
	}
	return new(big.Rat).SetFloat64(f)
}

// matVec returns m·x.
func (c *checked) matVec(m floatMatrix, x []float64) []float64 {
	y, _ := c.affine(m, x, nil)
	return y
}

// affine returns m·x + b (m·x when b is nil) and the number of products it
// computed (the non-zero ones).
func (c *checked) affine(m floatMatrix, x, b []float64) ([]float64, int) {
	return c.affineInto(make([]float64, len(m.cols)), m, x, b)
}

// affineInto is affine writing into dst (grown as needed; it must not
// overlap x), and returns the resized dst.
func (c *checked) affineInto(dst []float64, m floatMatrix, x, b []float64) ([]float64, int) {
	out := slices.Grow(dst[:0], len(m.cols))[:len(m.cols)]
	n := 0
	for r, cols := range m.cols {
		s := 0.0
		if b != nil {
			s = b[r]
		}
		for i, k := range cols {
			if x[k] != 0 {
				s = c.add(s, c.mul(m.vals[r][i], x[k]))
				n++
			}
		}
		out[r] = s
	}
	return out, n
}

// dot returns x·y.
func (c *checked) dot(x, y []float64) float64 {
	s := 0.0
	for k, v := range x {
		if v != 0 && y[k] != 0 {
			s = c.add(s, c.mul(v, y[k]))
		}
	}
	return s
}

// floatFFN is an FFN's parameters in float64.
type floatFFN struct {
	w1, w2 floatMatrix
	b1, b2 []float64
}

// newFloatFFN converts f, reporting whether every parameter is exactly a
// float64.
func newFloatFFN(f *FFN) (*floatFFN, bool) {
	var ff floatFFN
	var e [4]bool
	ff.w1, e[0] = toFloats(f.W1)
	ff.w2, e[1] = toFloats(f.W2)
	ff.b1, e[2] = f.B1.Float64s()
	ff.b2, e[3] = f.B2.Float64s()
	return &ff, e[0] && e[1] && e[2] && e[3]
}

// ffn returns x + W2·ReLU(W1·x + B1) + B2 (x is not modified) and the
// number of products and entries it computed.
func (c *checked) ffn(f *floatFFN, x []float64) ([]float64, int) {
	return c.ffnInto(nil, f, x)
}

// ffnInto is ffn writing into dst (grown as needed; it must not overlap x),
// and returns the resized dst.
func (c *checked) ffnInto(dst []float64, f *floatFFN, x []float64) ([]float64, int) {
	h, n1 := c.affineInto(c.hidden, f.w1, x, f.b1)
	c.hidden = h
	for k := range h {
		h[k] = max(h[k], 0)
	}
	y, n2 := c.affineInto(dst, f.w2, h, f.b2)
	for k := range y {
		y[k] = c.add(y[k], x[k])
	}
	return y, n1 + n2 + len(h) + len(y)
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

// normFloat replaces x by LN(x) in float64 when every step is provably
// exact (in particular σ must be an exact float64 square root), and
// reports whether it did; when it did not, x holds intermediate values.
func normFloat(ln *floatNorm, x []float64) bool {
	if !ln.ok {
		return false
	}
	var c checked
	d := float64(len(x))
	s := 0.0
	for _, v := range x {
		s = c.add(s, v)
	}
	mean := s / d
	if math.FMA(mean, d, -s) != 0 {
		return false
	}
	q := 0.0
	for k, v := range x {
		t := c.add(v, -mean)
		x[k] = t
		q = c.add(q, c.mul(t, t))
	}
	variance := q / d
	if math.FMA(variance, d, -q) != 0 {
		return false
	}
	variance = c.add(variance, ln.eps)
	sigma := math.Sqrt(variance)
	if math.FMA(sigma, sigma, -variance) != 0 || c.inexact {
		return false
	}
	for k, t := range x {
		out := 0.0
		if sigma != 0 {
			u := c.mul(t, ln.gamma[k])
			out = u / sigma
			if math.FMA(out, sigma, -u) != 0 {
				return false
			}
		}
		x[k] = c.add(out, ln.beta[k])
	}
	return !c.inexact
}
