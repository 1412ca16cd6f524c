package transformer

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
)

// Activations are the final activation vectors of a forward pass. The
// fast pass stores each distinct vector once (Lemma 4.3: there are finitely
// many) with the class of every position; the dense pass stores one vector
// per position. Vectors are kept as float64 when the pass computed exactly
// in float64, and converted to exact rationals on demand.
type Activations struct {
	class  []int
	floats [][]float64 // per class, when computed in float64
	exact  []Vec       // per class, computed exactly or converted lazily
}

func newActivations(class []int, floats [][]float64, exact []Vec) *Activations {
	if exact == nil {
		exact = make([]Vec, len(floats))
	}
	return &Activations{class: class, floats: floats, exact: exact}
}

// Len returns the number of positions.
func (a *Activations) Len() int { return len(a.class) }

// NumClasses returns the number of distinct vectors stored.
func (a *Activations) NumClasses() int { return len(a.exact) }

// ClassOf returns the index of the stored vector of 0-based position i.
func (a *Activations) ClassOf(i int) int { return a.class[i] }

// Class returns stored vector k exactly.
func (a *Activations) Class(k int) Vec {
	if a.exact[k] == nil {
		a.exact[k] = floatsToVec(a.floats[k])
	}
	return a.exact[k]
}

// At returns the final activation at 0-based position i exactly.
func (a *Activations) At(i int) Vec { return a.Class(a.class[i]) }

// SameAt reports whether a and b hold the same vector at position i of a
// and position j of b.
func (a *Activations) SameAt(i int, b *Activations, j int) bool {
	if a.floats != nil && b.floats != nil {
		x, y := a.floats[a.class[i]], b.floats[b.class[j]]
		for k := range x {
			if x[k] != y[k] {
				return false
			}
		}
		return len(x) == len(y)
	}
	x, y := a.At(i), b.At(j)
	if len(x) != len(y) {
		return false
	}
	for k := range x {
		if x[k].Cmp(y[k]) != 0 {
			return false
		}
	}
	return true
}

// decide applies the output layer to x: accept iff Weight·x + Bias ≥ 0.
func (m *Model) decide(x Vec) bool {
	if m.Output.Weight == nil {
		return false
	}
	s := new(big.Rat).Set(m.Output.Bias)
	t := new(big.Rat)
	for k, w := range m.Output.Weight {
		if w.Sign() != 0 && x[k].Sign() != 0 {
			s.Add(s, t.Mul(w, x[k]))
		}
	}
	return s.Sign() >= 0
}

// OutputScore returns Weight·x_n + Bias for the last position of a, the
// scalar the acceptor thresholds at 0 (±1/2 for compiled models).
func (m *Model) OutputScore(a *Activations) *big.Rat {
	x := a.At(a.Len() - 1)
	s := new(big.Rat).Set(m.Output.Bias)
	t := new(big.Rat)
	for k, w := range m.Output.Weight {
		s.Add(s, t.Mul(w, x[k]))
	}
	return s
}

// ErrEmptyWord is returned for the empty word: transformers read Σ⁺.
var ErrEmptyWord = errors.New("the empty word has no last position (transformers read non-empty words)")

// checkWord validates the symbol indices of w.
func (m *Model) checkWord(w []int) error {
	if len(w) == 0 {
		return ErrEmptyWord
	}
	for i, s := range w {
		if s < 0 || s >= len(m.Alphabet) {
			return fmt.Errorf("position %d: symbol index %d is not in the alphabet (size %d)", i+1, s, len(m.Alphabet))
		}
	}
	return nil
}

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

// Exact vector arithmetic shared by the exact passes.

// matVec returns M·x, skipping zero entries.
func matVec(m Matrix, x Vec) Vec {
	out := make(Vec, len(m))
	t := new(big.Rat)
	for r, row := range m {
		s := new(big.Rat)
		for c, w := range row {
			if w.Sign() != 0 && x[c].Sign() != 0 {
				s.Add(s, t.Mul(w, x[c]))
			}
		}
		out[r] = s
	}
	return out
}

// dot returns x·y.
func dot(x, y Vec) *big.Rat {
	s := new(big.Rat)
	t := new(big.Rat)
	for k := range x {
		if x[k].Sign() != 0 && y[k].Sign() != 0 {
			s.Add(s, t.Mul(x[k], y[k]))
		}
	}
	return s
}

// MulVec returns M·x exactly, skipping zero entries (for packages that
// build on models, such as the softmax export).
func (m Matrix) MulVec(x Vec) Vec { return matVec(m, x) }

// Dot returns x·y exactly.
func (x Vec) Dot(y Vec) *big.Rat { return dot(x, y) }

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

// applyFFN returns c + W2·ReLU(W1·c + B1) + B2 exactly (c is not modified).
func applyFFN(f *FFN, c Vec) Vec {
	h := matVec(f.W1, c)
	for k := range h {
		h[k].Add(h[k], f.B1[k])
		if h[k].Sign() < 0 {
			h[k].SetInt64(0)
		}
	}
	y := matVec(f.W2, h)
	for k := range y {
		y[k].Add(y[k], f.B2[k])
		y[k].Add(y[k], c[k])
	}
	return y
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
