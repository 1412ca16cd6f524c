package transformer

import (
	"math"
	"math/big"
	"strings"
)

// Exact rational vector arithmetic: the forward passes' fallback when
// float64 would round, and the values every pass must agree with.

// vecKey is an exact, canonical string for a vector, used to intern
// activation vectors.
func vecKey(v Vec) string {
	var b strings.Builder
	for _, x := range v {
		b.WriteString(x.RatString())
		b.WriteByte(',')
	}
	return b.String()
}

// matVec returns M·x, skipping zero entries, and the number of products
// it computed.
func matVec(m Matrix, x Vec) (Vec, int) {
	out := make(Vec, len(m))
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
	return out, n
}

// dot returns x·y and the number of products it computed.
func dot(x, y Vec) (*big.Rat, int) {
	s := new(big.Rat)
	t := new(big.Rat)
	n := 0
	for k := range x {
		if x[k].Sign() != 0 && y[k].Sign() != 0 {
			s.Add(s, t.Mul(x[k], y[k]))
			n++
		}
	}
	return s, n
}

// MulVec returns M·x exactly, skipping zero entries (for packages that
// build on models, such as the softmax export).
func (m Matrix) MulVec(x Vec) Vec {
	y, _ := matVec(m, x)
	return y
}

// Dot returns x·y exactly.
func (x Vec) Dot(y Vec) *big.Rat {
	s, _ := dot(x, y)
	return s
}

// addInto adds y to x in place.
func addInto(x, y Vec) {
	for k := range x {
		if y[k].Sign() != 0 {
			x[k].Add(x[k], y[k])
		}
	}
}

// copyVec returns a deep copy of v.
func copyVec(v Vec) Vec {
	out := make(Vec, len(v))
	for k, x := range v {
		out[k] = new(big.Rat).Set(x)
	}
	return out
}

// Clone returns a deep copy of v.
func (v Vec) Clone() Vec { return copyVec(v) }

// Key returns an exact, canonical string for v: two vectors have the same
// key exactly when they are equal (for interning activation vectors).
func (v Vec) Key() string { return vecKey(v) }

// Residual returns x + Σ ys as a new vector (x and ys are not modified): a
// layer's residual stream plus the values its heads attend to.
func Residual(x Vec, ys ...Vec) Vec {
	c := copyVec(x)
	for _, y := range ys {
		addInto(c, y)
	}
	return c
}

// applyFFN returns c + W2·ReLU(W1·c + B1) + B2 exactly (c is not modified)
// and the number of products and entries it computed.
func applyFFN(f *FFN, c Vec) (Vec, int) {
	h, n1 := matVec(f.W1, c)
	for k := range h {
		h[k].Add(h[k], f.B1[k])
		if h[k].Sign() < 0 {
			h[k].SetInt64(0)
		}
	}
	y, n2 := matVec(f.W2, h)
	for k := range y {
		y[k].Add(y[k], f.B2[k])
		y[k].Add(y[k], c[k])
	}
	return y, n1 + n2 + len(h) + len(y)
}

// Apply returns LN(x) exactly, with σ as documented on LayerNorm. The
// forward passes and the decompiler share it, so that they agree on every
// value, including variances outside the float64 range.
func (ln *LayerNorm) Apply(x Vec) Vec { return applyNorm(ln, x) }

// applyNorm returns LN(x) exactly, with σ as documented on LayerNorm.
func applyNorm(ln *LayerNorm, x Vec) Vec {
	d := int64(len(x))
	mean := new(big.Rat)
	for _, v := range x {
		mean.Add(mean, v)
	}
	mean.Quo(mean, big.NewRat(d, 1))
	variance := new(big.Rat)
	t := new(big.Rat)
	for _, v := range x {
		t.Sub(v, mean)
		variance.Add(variance, new(big.Rat).Mul(t, t))
	}
	variance.Quo(variance, big.NewRat(d, 1))
	variance.Add(variance, ln.Eps)
	sigma := NormSigma(variance)
	out := make(Vec, len(x))
	for k, v := range x {
		y := new(big.Rat)
		if sigma.Sign() != 0 {
			y.Sub(v, mean)
			y.Mul(y, ln.Gamma[k])
			y.Quo(y, sigma)
		}
		out[k] = y.Add(y, ln.Beta[k])
	}
	return out
}

// NormSigma returns the model's σ = sqrt(v): exact when v is the square of
// a rational, otherwise the correctly rounded float64 square root of the
// float64 nearest to v (or, when v is outside the float64 range, its square
// root rounded to 53 bits).
func NormSigma(v *big.Rat) *big.Rat {
	if v.Sign() == 0 {
		return new(big.Rat)
	}
	n, d := new(big.Int).Sqrt(v.Num()), new(big.Int).Sqrt(v.Denom())
	if new(big.Int).Mul(n, n).Cmp(v.Num()) == 0 && new(big.Int).Mul(d, d).Cmp(v.Denom()) == 0 {
		return new(big.Rat).SetFrac(n, d)
	}
	f, _ := v.Float64()
	if s := sqrtFloat(f); f != 0 && !math.IsInf(f, 0) && s != 0 && !math.IsInf(s, 0) {
		return new(big.Rat).SetFloat64(s)
	}
	// v is outside the float64 range: its square root rounded to 53 bits.
	s := new(big.Float).SetPrec(53).SetRat(v)
	s.Sqrt(s)
	r, _ := s.Rat(nil)
	return r
}

func sqrtFloat(f float64) float64 { return math.Sqrt(f) }
