package transformer

import (
	"math/big"

	"github.com/brasp-dev/brasp/budget"
)

// Arith is the transformer's arithmetic kernel: the operations of a
// forward pass on exact vectors — a matrix times a vector, a dot product,
// and the finish of a layer (attention norm, FFN with its residual, FFN
// norm) — as the forward passes compute them. Each is computed in checked
// float64 when every input is exactly a float64 and no product or sum
// rounds (checked.go), and in exact rationals otherwise (rational.go), so
// its values equal every pass's bit for bit. The exact passes and the
// decompiler compute with it.
//
// Arith counts the work it does in Work, so that a caller can bound it, and
// records the first entry of a layer's output longer than MaxBits (numerator
// and denominator bits, RatBits) as a rational-bits error, so that a
// hostile model cannot make its rationals grow without bound. The zero
// value counts and does not bound. An Arith is not safe for concurrent use.
type Arith struct {
	// Work is the number of products and entries computed so far.
	Work int64
	// MaxBits bounds the size of each entry of a layer's output in bits;
	// 0 means no bound.
	MaxBits int64

	err     error
	charged int64                   // Work already charged to a budget
	floats  map[matrixID]floatEntry // float64 form of every matrix met
}

// Charge charges the work done since the last Charge to b (one step at
// least, so that b's context is looked at) and returns the first
// rational-bits error met, or b's error.
func (a *Arith) Charge(b *budget.Budget) error {
	if err := a.Err(); err != nil {
		return err
	}
	err := b.Step(a.Work - a.charged + 1)
	a.charged = a.Work
	return err
}

// matrixID identifies a matrix by its row slice.
type matrixID struct {
	first *Vec
	rows  int
}

type floatEntry struct {
	m  floatMatrix
	ok bool // every entry is exactly a finite float64
}

// Err returns the first rational-bits error met, or nil.
func (a *Arith) Err() error { return a.err }

// floatsOf returns m in float64 (converted once per matrix) and whether it
// is exact.
func (a *Arith) floatsOf(m Matrix) (floatMatrix, bool) {
	if len(m) == 0 {
		return floatMatrix{}, true
	}
	id := matrixID{&m[0], len(m)}
	if e, ok := a.floats[id]; ok {
		return e.m, e.ok
	}
	fm, ok := toFloats(m)
	if a.floats == nil {
		a.floats = map[matrixID]floatEntry{}
	}
	a.floats[id] = floatEntry{fm, ok}
	return fm, ok
}

// MatVec returns m·x.
func (a *Arith) MatVec(m Matrix, x Vec) Vec {
	if fm, ok := a.floatsOf(m); ok {
		if xf, ok := x.Float64s(); ok {
			var c checked
			if y, n := c.affine(fm, xf, nil); !c.inexact {
				a.Work += int64(n + len(m))
				return floatsToVec(y)
			}
		}
	}
	y, n := matVec(m, x)
	a.Work += int64(n + len(m))
	return y
}

// Dot returns x·y.
func (a *Arith) Dot(x, y Vec) *big.Rat {
	s, n := dot(x, y)
	a.Work += int64(n + 1)
	return s
}

// FinishLayer returns the output of layer l from its residual sum c (the
// layer's input plus the values its heads attend to): the attention norm,
// the FFN with its residual, and the FFN norm. c may be returned or
// modified.
func (a *Arith) FinishLayer(l *Layer, c Vec) Vec { return a.postLayer(l, a.midLayer(l, c)) }

// midLayer is a layer's value after attention: the attention norm of the
// residual sum c (c itself without a norm).
func (a *Arith) midLayer(l *Layer, c Vec) Vec {
	if l.AttentionNorm != nil {
		c = a.norm(l.AttentionNorm, c)
	}
	return c
}

// postLayer is a layer's output from its value after attention: the FFN
// with its residual, then the FFN norm.
func (a *Arith) postLayer(l *Layer, c Vec) Vec {
	if l.FFN != nil {
		c = a.ffn(l.FFN, c)
	}
	if l.FFNNorm != nil {
		c = a.norm(l.FFNNorm, c)
	}
	a.checkBits(c)
	return c
}

// norm returns LN(x) (LayerNorm.Apply's value).
func (a *Arith) norm(ln *LayerNorm, x Vec) Vec {
	a.Work += int64(4 * len(x))
	return normAny(ln, x)
}

// ffn returns c + W2·ReLU(W1·c + B1) + B2.
func (a *Arith) ffn(f *FFN, c Vec) Vec {
	w1, ok1 := a.floatsOf(f.W1)
	w2, ok2 := a.floatsOf(f.W2)
	b1, ok3 := f.B1.Float64s()
	b2, ok4 := f.B2.Float64s()
	x, ok5 := c.Float64s()
	if ok1 && ok2 && ok3 && ok4 && ok5 {
		var ch checked
		if y, n := ch.ffn(&floatFFN{w1, w2, b1, b2}, x); !ch.inexact {
			a.Work += int64(n)
			return floatsToVec(y)
		}
	}
	y, n := applyFFN(f, c)
	a.Work += int64(n)
	return y
}

// checkBits records a rational-bits error if an entry of v is longer than
// MaxBits.
func (a *Arith) checkBits(v Vec) {
	if a.err != nil || a.MaxBits <= 0 {
		return
	}
	for _, x := range v {
		if n := RatBits(x); n > a.MaxBits {
			a.err = &budget.Error{Limit: RationalBits, Value: a.MaxBits, Need: n,
				What: "a value of the model's exact forward pass"}
			return
		}
	}
}

// normAny returns LN(x): in float64 when every step is provably exact,
// exactly otherwise.
func normAny(ln *LayerNorm, x Vec) Vec {
	if f, ok := x.Float64s(); ok {
		if normFloat(newFloatNorm(ln), f) {
			return floatsToVec(f)
		}
	}
	return applyNorm(ln, x)
}
