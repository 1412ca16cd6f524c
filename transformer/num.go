package transformer

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/brasp-dev/brasp/budget"
)

// maxNumberText bounds the length of a number's text in a model file, and
// maxNumberBits the size of a parsed rational, so that a hostile file cannot
// make the loader allocate without bound.
const (
	maxNumberText = 4096
	maxNumberBits = 1 << 14
	maxExponent   = 1100
)

// ParseRat reads an exact rational written as a decimal number ("0.5",
// "-3", "1e-3") or a fraction ("1/3"). Infinities and NaN are rejected.
func ParseRat(s string) (*big.Rat, error) {
	if s == "" {
		return nil, fmt.Errorf("empty number")
	}
	if len(s) > maxNumberText {
		return nil, fmt.Errorf("number %.20s... is %d characters long (limit %d)", s, len(s), maxNumberText)
	}
	if k := strings.IndexAny(s, "eE"); k >= 0 && !strings.Contains(s, "/") {
		e, err := strconv.Atoi(strings.TrimPrefix(s[k+1:], "+"))
		if err != nil || e > maxExponent || e < -maxExponent {
			return nil, fmt.Errorf("number %q: exponent out of range (|e| ≤ %d)", s, maxExponent)
		}
	}
	for _, c := range s {
		if !strings.ContainsRune("0123456789+-./eE", c) {
			return nil, fmt.Errorf("%q is not a number (want a decimal like 0.5 or a fraction like 1/3)", s)
		}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil, fmt.Errorf("%q is not a number (want a decimal like 0.5 or a fraction like 1/3)", s)
	}
	if r.Num().BitLen() > maxNumberBits || r.Denom().BitLen() > maxNumberBits {
		return nil, fmt.Errorf("number %q is too large (limit %d bits)", s, maxNumberBits)
	}
	return r, nil
}

// FormatRat writes r exactly: as an integer or a finite decimal when r is
// an integer or a dyadic rational (so that JSON numbers stay numbers), and as
// a fraction "p/q" otherwise.
func FormatRat(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	d := r.Denom()
	if k := d.BitLen() - 1; d.TrailingZeroBits() == uint(k) && k <= 80 {
		s := r.FloatString(k)
		s = strings.TrimRight(s, "0")
		return s
	}
	return r.String()
}

// isJSONNumber reports whether FormatRat's output for r is a JSON number
// (rather than a fraction that must be quoted).
func isJSONNumber(s string) bool { return !strings.Contains(s, "/") }

// ratFromFloat returns the exact rational value of a finite float64, or an
// error for infinities and NaN.
func ratFromFloat(f float64) (*big.Rat, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, fmt.Errorf("%v is not a finite number", f)
	}
	return new(big.Rat).SetFloat64(f), nil
}

// ExactFloat64 returns x as a float64 and whether that is exact, like
// x.Float64() but without its division for integers and dyadic fractions
// of at most 53 bits, which most activations are (0, ±1, small counts,
// halves): the forward passes and the decompiler convert every activation.
func ExactFloat64(x *big.Rat) (float64, bool) {
	n, d := x.Num(), x.Denom()
	if n.IsInt64() && d.IsUint64() {
		num, den := n.Int64(), d.Uint64()
		if num > -1<<53 && num < 1<<53 && den&(den-1) == 0 {
			// Both are exact float64s and den is a power of two: the
			// quotient is exact.
			return float64(num) / float64(den), true
		}
	}
	return x.Float64()
}

// newRat returns the rational a/b.
func newRat(a, b int64) *big.Rat { return big.NewRat(a, b) }

// Zeros returns a vector of n zeros.
func Zeros(n int) Vec {
	v := make(Vec, n)
	for k := range v {
		v[k] = new(big.Rat)
	}
	return v
}

// ZeroMatrix returns a rows×cols zero matrix.
func ZeroMatrix(rows, cols int) Matrix {
	m := make(Matrix, rows)
	for k := range m {
		m[k] = Zeros(cols)
	}
	return m
}

// RationalBits bounds the exact rationals of a forward pass in exact
// arithmetic and of the decompiler's enumeration: a hostile model (layer
// norms whose σ is a float64 root, weights with large denominators) can
// make them grow by thousands of bits per layer, and every later operation
// slower.
var RationalBits = budget.Define("rational-bits", 1<<14, "bits",
	"bits of one exact rational (numerator plus denominator) in a transformer's exact forward pass or decompilation")

// RatBits is the size of x in bits: its numerator's plus its
// denominator's.
func RatBits(x *big.Rat) int64 {
	return int64(x.Num().BitLen() + x.Denom().BitLen())
}
