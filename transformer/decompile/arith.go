package decompile

import (
	"math"
	"math/big"
	"strings"

	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/transformer"
)

// The exact arithmetic of the model's forward pass, restated here because
// the transformer package keeps it unexported. Every function agrees with
// transformer.Model.ForwardDense bit for bit (the tests check this on every
// model they decompile): products and sums are exact rationals, and layer
// norm's σ is the exact root when var+ε is a rational square and otherwise
// the float64 square root, as transformer.LayerNorm documents.

// arith performs exact vector arithmetic and counts the multiplications it
// does, so that a hostile model cannot make the decompiler run for ever, and
// refuses rationals longer than the rational-bits limit, so that it cannot
// make them grow without bound either.
type arith struct {
	ops     int64
	limit   int64 // decompile-work
	maxBits int64 // rational-bits
	err     error // the first limit exceeded
	// floats caches the float64 form of each matrix (keyed by its first
	// row's first entry), for the exact float64 fast path of matVec.
	floats map[*big.Rat]*floatMatrix
}

// floatMatrix is a matrix in float64 with the columns of each row's
// non-zero entries; ok is false if some entry is not a float64 exactly.
type floatMatrix struct {
	rows [][]float64
	nz   [][]int
	ok   bool
}

func (a *arith) floatsOf(m transformer.Matrix) *floatMatrix {
	if len(m) == 0 || len(m[0]) == 0 {
		return &floatMatrix{}
	}
	if a.floats == nil {
		a.floats = map[*big.Rat]*floatMatrix{}
	}
	if f, ok := a.floats[m[0][0]]; ok {
		return f
	}
	f := &floatMatrix{rows: make([][]float64, len(m)), nz: make([][]int, len(m)), ok: true}
	for r, row := range m {
		f.rows[r] = make([]float64, len(row))
		for c, w := range row {
			v, exact := w.Float64()
			if !exact || math.IsInf(v, 0) {
				f.ok = false
			}
			f.rows[r][c] = v
			if v != 0 {
				f.nz[r] = append(f.nz[r], c)
			}
		}
	}
	a.floats[m[0][0]] = f
	return f
}

// exactMatVec computes m·x in float64 when every input is a float64 and no
// product or sum rounds (checked with FMA and TwoSum, as the model's dense
// pass does); it reports false otherwise.
func (a *arith) exactMatVec(m transformer.Matrix, x transformer.Vec) (transformer.Vec, bool) {
	f := a.floatsOf(m)
	if !f.ok {
		return nil, false
	}
	xf := make([]float64, len(x))
	for k, v := range x {
		var exact bool
		if xf[k], exact = v.Float64(); !exact || math.IsInf(xf[k], 0) {
			return nil, false
		}
	}
	out := make(transformer.Vec, len(m))
	n := 0
	for r := range f.rows {
		s := 0.0
		for _, c := range f.nz[r] {
			if xf[c] == 0 {
				continue
			}
			w := f.rows[r][c]
			p := w * xf[c]
			if math.FMA(w, xf[c], -p) != 0 || math.IsInf(p, 0) || (p != 0 && math.Abs(p) < 0x1p-1000) {
				return nil, false
			}
			t := s + p
			bb := t - s
			if (s-(t-bb))+(p-bb) != 0 || math.IsInf(t, 0) {
				return nil, false
			}
			s = t
			n++
		}
		out[r] = new(big.Rat).SetFloat64(s)
	}
	a.spend(n + len(m))
	return out, true
}

// spend records n operations and reports whether the budget is exhausted.
func (a *arith) spend(n int) bool {
	a.ops += int64(n)
	return a.ops > a.limit
}

// checkBits records a rational-bits error if an entry of v is longer than
// the limit (numerator and denominator bits together).
func (a *arith) checkBits(v transformer.Vec) {
	if a.err != nil {
		return
	}
	for _, x := range v {
		if n := transformer.RatBits(x); n > a.maxBits {
			a.err = &budget.Error{Limit: transformer.RationalBits, Value: a.maxBits, Need: n,
				What: "a value of the model's exact forward pass"}
			return
		}
	}
}

// matVec returns m·x.
func (a *arith) matVec(m transformer.Matrix, x transformer.Vec) transformer.Vec {
	if out, ok := a.exactMatVec(m, x); ok {
		return out
	}
	out := make(transformer.Vec, len(m))
	t := new(big.Rat)
	n := 0
	for r, row := range m {
		s := new(big.Rat)
		for c, w := range row {
			if w.Sign() != 0 && x[c].Sign() != 0 {
				s.Add(s, t.Mul(w, x[c]))
				n++
			}
		}
		out[r] = s
	}
	a.spend(n + len(m))
	return out
}

// dot returns x·y.
func (a *arith) dot(x, y transformer.Vec) *big.Rat {
	s := new(big.Rat)
	t := new(big.Rat)
	n := 0
	for k := range x {
		if x[k].Sign() != 0 && y[k].Sign() != 0 {
			s.Add(s, t.Mul(x[k], y[k]))
			n++
		}
	}
	a.spend(n + 1)
	return s
}

// add returns x+y.
func add(x, y transformer.Vec) transformer.Vec {
	out := make(transformer.Vec, len(x))
	for k := range x {
		out[k] = new(big.Rat).Add(x[k], y[k])
	}
	return out
}

// copyVec returns a deep copy of v.
func copyVec(v transformer.Vec) transformer.Vec {
	out := make(transformer.Vec, len(v))
	for k, x := range v {
		out[k] = new(big.Rat).Set(x)
	}
	return out
}

// finish applies the attention norm, the FFN with its residual and the FFN
// norm to the attention residual c.
func (a *arith) finish(l *transformer.Layer, c transformer.Vec) transformer.Vec {
	if l.AttentionNorm != nil {
		c = a.norm(l.AttentionNorm, c)
	}
	if f := l.FFN; f != nil {
		if y, ok := a.exactFFN(f, c); ok {
			c = y
			goto norm
		}
		h := a.matVec(f.W1, c)
		for k := range h {
			h[k].Add(h[k], f.B1[k])
			if h[k].Sign() < 0 {
				h[k].SetInt64(0)
			}
		}
		y := a.matVec(f.W2, h)
		for k := range y {
			y[k].Add(y[k], f.B2[k])
			y[k].Add(y[k], c[k])
		}
		c = y
	}
norm:
	if l.FFNNorm != nil {
		c = a.norm(l.FFNNorm, c)
	}
	a.checkBits(c)
	return c
}

// norm is transformer.LayerNorm applied to x, charged to the work budget.
func (a *arith) norm(ln *transformer.LayerNorm, x transformer.Vec) transformer.Vec {
	a.spend(4 * len(x))
	return ln.Apply(x)
}

// vecKey is an exact canonical string for a vector.
func vecKey(v transformer.Vec) string {
	var b strings.Builder
	for _, x := range v {
		b.WriteString(x.RatString())
		b.WriteByte(',')
	}
	return b.String()
}

// checkedMul and checkedAdd are float64 operations that report whether they
// were exact (no rounding, overflow or underflow).
func checkedMul(a, b float64) (float64, bool) {
	p := a * b
	return p, math.FMA(a, b, -p) == 0 && !math.IsInf(p, 0) && (p == 0 || math.Abs(p) >= 0x1p-1000)
}

func checkedAdd(a, b float64) (float64, bool) {
	s := a + b
	bb := s - a
	return s, (a-(s-bb))+(b-bb) == 0 && !math.IsInf(s, 0)
}

// floatMatVec computes m·x + b in checked float64.
func floatMatVec(m *floatMatrix, x, b []float64) ([]float64, int, bool) {
	out := make([]float64, len(m.rows))
	n := 0
	for r := range m.rows {
		s := b[r]
		for _, c := range m.nz[r] {
			if x[c] == 0 {
				continue
			}
			p, ok1 := checkedMul(m.rows[r][c], x[c])
			t, ok2 := checkedAdd(s, p)
			if !ok1 || !ok2 {
				return nil, 0, false
			}
			s = t
			n++
		}
		out[r] = s
	}
	return out, n, true
}

// exactFFN computes c + W2·ReLU(W1·c + B1) + B2 in checked float64, when
// every input is a float64 and nothing rounds; it reports false otherwise
// (the caller then computes with rationals).
func (a *arith) exactFFN(f *transformer.FFN, c transformer.Vec) (transformer.Vec, bool) {
	w1, w2 := a.floatsOf(f.W1), a.floatsOf(f.W2)
	if !w1.ok || !w2.ok || len(f.B1) == 0 {
		return nil, false
	}
	if a.floats == nil {
		a.floats = map[*big.Rat]*floatMatrix{}
	}
	b1, ok1 := f.B1.Float64s()
	b2, ok2 := f.B2.Float64s()
	x, ok3 := c.Float64s()
	if !ok1 || !ok2 || !ok3 {
		return nil, false
	}
	h, n1, ok := floatMatVec(w1, x, b1)
	if !ok {
		return nil, false
	}
	for k := range h {
		h[k] = max(h[k], 0)
	}
	y, n2, ok := floatMatVec(w2, h, b2)
	if !ok {
		return nil, false
	}
	out := make(transformer.Vec, len(y))
	for k := range y {
		v, ok := checkedAdd(y[k], x[k])
		if !ok {
			return nil, false
		}
		out[k] = new(big.Rat).SetFloat64(v)
	}
	a.spend(n1 + n2 + len(h) + len(y))
	return out, true
}
