package transformer

import (
	"errors"
	"math"
	"math/big"
)

// ForwardDense runs the forward pass as the definition of §4.1 states it:
// every position computes its score against every unmasked position,
// O(n²·d) per head. Scores are compared exactly: the pass computes in
// float64 while every operation is provably exact (each product and sum is
// checked error-free with FMA and TwoSum, so no rounding ever happens), and
// otherwise reruns in exact rational arithmetic. Layer norm is always
// computed exactly.
func (m *Model) ForwardDense(w []int) (*Activations, error) {
	xs, err := m.denseFloat(w)
	if err == nil {
		out := &Activations{Vectors: make([]Vec, len(w)), Class: make([]int, len(w))}
		for i, x := range xs {
			out.Vectors[i] = floatsToVec(x)
			out.Class[i] = i
		}
		return out, nil
	}
	if !errors.Is(err, errInexact) {
		return nil, err
	}
	return m.denseExact(w)
}

// AcceptsDense runs the dense forward pass and the output layer.
func (m *Model) AcceptsDense(w []int) (bool, error) {
	xs, err := m.denseFloat(w)
	if err == nil {
		return m.decide(floatsToVec(xs[len(xs)-1])), nil
	}
	if !errors.Is(err, errInexact) {
		return false, err
	}
	a, err := m.denseExact(w)
	if err != nil {
		return false, err
	}
	return m.decide(a.At(len(w) - 1)), nil
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
		fr, ok := vecToFloats(row)
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

func vecToFloats(v Vec) ([]float64, bool) {
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
func (m *Model) denseFloat(w []int) ([][]float64, error) {
	if err := m.checkWord(w); err != nil {
		return nil, err
	}
	n, d := len(w), m.Width
	var c checked
	xs := make([][]float64, n)
	for i, s := range w {
		x := m.Embedding[s]
		if len(m.Position) > 0 {
			x = copyVec(x)
			addInto(x, m.positionVector(i+1, n))
		}
		f, ok := vecToFloats(x)
		if !ok {
			return nil, errInexact
		}
		xs[i] = f
	}
	for l := range m.Layers {
		layer := &m.Layers[l]
		att := make([][]float64, n)
		for i := range att {
			att[i] = make([]float64, d)
		}
		for h := range layer.Heads {
			hd := &layer.Heads[h]
			S, ok1 := toFloats(hd.Score)
			V, ok2 := toFloats(hd.Value)
			if !ok1 || !ok2 {
				return nil, errInexact
			}
			keys := make([][]float64, n)
			vals := make([][]float64, n)
			for j := range n {
				keys[j] = c.matVec(S, xs[j])
				vals[j] = c.matVec(V, xs[j])
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
				for j := range n {
					if !hd.Mask.Allows(i, j) {
						continue
					}
					s := 0.0
					kj := keys[j]
					for _, k := range nzq {
						if kj[k] != 0 {
							s = c.add(s, c.mul(xs[i][k], kj[k]))
						}
					}
					if best < 0 || s > bestScore || (s == bestScore && hd.Tiebreak == Rightmost) {
						best, bestScore = j, s
					}
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
		var ffn struct {
			w1, w2 floatMatrix
			b1, b2 []float64
		}
		if f := layer.FFN; f != nil {
			var ok [4]bool
			ffn.w1, ok[0] = toFloats(f.W1)
			ffn.w2, ok[1] = toFloats(f.W2)
			ffn.b1, ok[2] = vecToFloats(f.B1)
			ffn.b2, ok[3] = vecToFloats(f.B2)
			if !ok[0] || !ok[1] || !ok[2] || !ok[3] {
				return nil, errInexact
			}
		}
		for i := range n {
			x := make([]float64, d)
			for k := range x {
				x[k] = c.add(xs[i][k], att[i][k])
			}
			if layer.AttentionNorm != nil {
				var ok bool
				if x, ok = vecToFloats(applyNorm(layer.AttentionNorm, floatsToVec(x))); !ok {
					return nil, errInexact
				}
			}
			if layer.FFN != nil {
				hid := c.matVec(ffn.w1, x)
				for k := range hid {
					hid[k] = max(c.add(hid[k], ffn.b1[k]), 0)
				}
				out := c.matVec(ffn.w2, hid)
				for k := range x {
					x[k] = c.add(x[k], c.add(out[k], ffn.b2[k]))
				}
			}
			if layer.FFNNorm != nil {
				var ok bool
				if x, ok = vecToFloats(applyNorm(layer.FFNNorm, floatsToVec(x))); !ok {
					return nil, errInexact
				}
			}
			xs[i] = x
		}
		if c.inexact {
			return nil, errInexact
		}
	}
	return xs, nil
}

// denseExact is the dense pass in exact rational arithmetic.
func (m *Model) denseExact(w []int) (*Activations, error) {
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
	for l := range m.Layers {
		layer := &m.Layers[l]
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
					if cmp := s.Cmp(bestScore); cmp > 0 || (cmp == 0 && hd.Tiebreak == Rightmost) {
						best, bestScore = j, s
					}
				}
				if best >= 0 {
					addInto(cs[i], matVec(hd.Value, xs[best]))
				}
			}
		}
		for i := range n {
			xs[i] = m.finishLayer(layer, cs[i])
		}
	}
	out := &Activations{Vectors: xs, Class: make([]int, n)}
	for i := range out.Class {
		out.Class[i] = i
	}
	return out, nil
}
