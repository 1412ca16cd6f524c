package transformer_test

import (
	"errors"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/transformer"
)

// arithEntry draws a value that exercises both halves of the kernel:
// small dyadics (float64 arithmetic is exact), thirds (not a float64),
// and huge or tiny powers of two (products overflow or underflow float64).
func arithEntry(rng *rand.Rand, pool int) *big.Rat {
	switch rng.IntN(pool) {
	case 0, 1, 2:
		return new(big.Rat)
	case 3, 4, 5, 6:
		return big.NewRat(int64(rng.IntN(9))-4, 1<<rng.IntN(4))
	case 7:
		return big.NewRat(int64(rng.IntN(5))-2, 3)
	case 8:
		return new(big.Rat).SetFrac(new(big.Int).Lsh(big.NewInt(1), 600), big.NewInt(1))
	default:
		return new(big.Rat).SetFrac(big.NewInt(int64(rng.IntN(3))+1), new(big.Int).Lsh(big.NewInt(1), 600))
	}
}

func arithVec(rng *rand.Rand, n, pool int) transformer.Vec {
	v := make(transformer.Vec, n)
	for k := range v {
		v[k] = arithEntry(rng, pool)
	}
	return v
}

func arithMatrix(rng *rand.Rand, rows, cols, pool int) transformer.Matrix {
	m := make(transformer.Matrix, rows)
	for r := range m {
		m[r] = arithVec(rng, cols, pool)
	}
	return m
}

// refMatVec is m·x by the definition, in rationals.
func refMatVec(m transformer.Matrix, x transformer.Vec) transformer.Vec {
	out := make(transformer.Vec, len(m))
	for r, row := range m {
		out[r] = refDot(row, x)
	}
	return out
}

func refDot(x, y transformer.Vec) *big.Rat {
	s := new(big.Rat)
	for k := range x {
		s.Add(s, new(big.Rat).Mul(x[k], y[k]))
	}
	return s
}

// refFinish is a layer's finish by the definition: LN(c), then
// c + W2·ReLU(W1·c + B1) + B2, then LN.
func refFinish(l *transformer.Layer, c transformer.Vec) transformer.Vec {
	if l.AttentionNorm != nil {
		c = l.AttentionNorm.Apply(c)
	}
	if f := l.FFN; f != nil {
		h := refMatVec(f.W1, c)
		for k := range h {
			h[k].Add(h[k], f.B1[k])
			if h[k].Sign() < 0 {
				h[k] = new(big.Rat)
			}
		}
		y := refMatVec(f.W2, h)
		for k := range y {
			y[k].Add(y[k], f.B2[k]).Add(y[k], c[k])
		}
		c = y
	}
	if l.FFNNorm != nil {
		c = l.FFNNorm.Apply(c)
	}
	return c
}

// TestArithAgreesWithDefinition checks the kernel's operations against
// rational arithmetic by the definition, on inputs that take the float64
// path (pool 7: small dyadics), that must fall back (thirds), and whose
// float64 products overflow or underflow.
func TestArithAgreesWithDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, pool := range []int{7, 8, 10} {
		var a transformer.Arith
		for range 300 {
			d, hid := 1+rng.IntN(5), rng.IntN(4)
			m := arithMatrix(rng, d, d, pool)
			x, y := arithVec(rng, d, pool), arithVec(rng, d, pool)
			if got, want := a.MatVec(m, x), refMatVec(m, x); !sameVec(got, want) {
				t.Fatalf("pool %d: MatVec(%v, %v) = %v, want %v", pool, m, x, got, want)
			}
			if got, want := a.Dot(x, y), refDot(x, y); got.Cmp(want) != 0 {
				t.Fatalf("pool %d: Dot(%v, %v) = %v, want %v", pool, x, y, got, want)
			}
			l := &transformer.Layer{}
			if rng.IntN(3) > 0 {
				l.FFN = &transformer.FFN{W1: arithMatrix(rng, hid, d, pool), B1: arithVec(rng, hid, pool),
					W2: arithMatrix(rng, d, hid, pool), B2: arithVec(rng, d, pool)}
			}
			for _, norm := range []**transformer.LayerNorm{&l.AttentionNorm, &l.FFNNorm} {
				if rng.IntN(3) == 0 {
					*norm = &transformer.LayerNorm{Gamma: arithVec(rng, d, 7), Beta: arithVec(rng, d, 7), Eps: big.NewRat(int64(rng.IntN(2)), 4)}
				}
			}
			in := x.Clone()
			want := refFinish(l, x.Clone())
			if got := a.FinishLayer(l, x); !sameVec(got, want) {
				t.Fatalf("pool %d: FinishLayer(%v) = %v, want %v", pool, in, got, want)
			}
			if l.FFN != nil && !sameVec(x, in) {
				t.Fatalf("pool %d: FinishLayer modified its input %v to %v", pool, in, x)
			}
		}
		if a.Err() != nil {
			t.Fatalf("pool %d: Err() = %v with no MaxBits", pool, a.Err())
		}
		if a.Work == 0 {
			t.Fatalf("pool %d: no work counted", pool)
		}
	}
}

// TestArithMaxBits checks that a layer output longer than MaxBits records
// a rational-bits error, and that Work counts the products done.
func TestArithMaxBits(t *testing.T) {
	third := big.NewRat(1, 3)
	one := big.NewRat(1, 1)
	l := &transformer.Layer{FFN: &transformer.FFN{
		W1: transformer.Matrix{{third}}, B1: transformer.Vec{new(big.Rat)},
		W2: transformer.Matrix{{one}}, B2: transformer.Vec{new(big.Rat)},
	}}
	a := transformer.Arith{MaxBits: 40}
	x := transformer.Vec{big.NewRat(1, 1)}
	for k := 0; a.Err() == nil; k++ {
		if k > 40 {
			t.Fatalf("no rational-bits error after %d layers (x = %v)", k, x)
		}
		x = a.FinishLayer(l, x)
	}
	var be *budget.Error
	if err := a.Err(); !errors.As(err, &be) || be.Limit != transformer.RationalBits || !errors.Is(err, budget.ErrLimit) ||
		!strings.Contains(err.Error(), "rational-bits") {
		t.Fatalf("Err() = %v, want a rational-bits limit error", err)
	}
	if a.Work <= 0 {
		t.Fatalf("Work = %d after the layers", a.Work)
	}
	var b transformer.Arith
	b.MatVec(transformer.Matrix{{one, third}, {third, new(big.Rat)}}, transformer.Vec{one, one})
	if b.Work != 3+2 {
		t.Fatalf("Work = %d after a 2×2 product with 3 non-zero products, want 5", b.Work)
	}
}
