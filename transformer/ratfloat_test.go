package transformer

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestRatFromFloat64 compares the integer fast path with SetFloat64.
func TestRatFromFloat64(t *testing.T) {
	xs := []float64{0, math.Copysign(0, -1), 1, -1, 2, 0.5, -0.25, 3.75, 1 << 52, 1<<53 + 2, 1 << 61, -(1 << 61), 1 << 62, 1 << 63, 1e300, -1e300,
		math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64, 123456789.0, -987654321.125}
	rng := rand.New(rand.NewPCG(1, 1))
	for range 1000 {
		xs = append(xs, math.Float64frombits(rng.Uint64()), float64(rng.Int64N(1<<40)-1<<39), math.Ldexp(float64(rng.IntN(1<<20)), rng.IntN(80)-40))
	}
	for _, x := range xs {
		want := new(big.Rat).SetFloat64(x)
		got := RatFromFloat64(x)
		if (want == nil) != (got == nil) || (want != nil && want.Cmp(got) != 0) {
			t.Fatalf("RatFromFloat64(%v) = %v, want %v", x, got, want)
		}
	}
}

// TestExactFloat64 compares the integer and dyadic fast path with
// big.Rat.Float64 on its edges (2^53, denominators 2^62, 2^63 and 2^64,
// non-dyadic fractions) and on random rationals.
func TestExactFloat64(t *testing.T) {
	r := func(a, b int64) *big.Rat { return big.NewRat(a, b) }
	xs := []*big.Rat{new(big.Rat), r(0, 1), r(1, 1), r(-1, 1), r(1, 2), r(-3, 4), r(1, 3), r(2, 3), r(1<<53, 1), r(1<<53+1, 1),
		r(-(1<<53 + 1), 1), r(1<<53-1, 1), r(-(1<<53 - 1), 1<<62), r(1, 1<<62), r(5, 6), r(1<<62, 3), r(math.MaxInt64, 1), r(math.MinInt64, 1)}
	xs = append(xs, new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), 63)),
		new(big.Rat).SetFrac(big.NewInt(3), new(big.Int).Lsh(big.NewInt(1), 64)),
		new(big.Rat).SetFrac(new(big.Int).Lsh(big.NewInt(1), 80), big.NewInt(3)))
	rng := rand.New(rand.NewPCG(2, 2))
	for range 5000 {
		xs = append(xs, r(rng.Int64N(1<<56)-1<<55, 1<<rng.IntN(63)), r(rng.Int64N(1<<20)-1<<19, rng.Int64N(1<<10)+1), r(rng.Int64()>>rng.IntN(63), 1))
	}
	for _, x := range xs {
		want, wantExact := x.Float64()
		got, gotExact := ExactFloat64(x)
		if math.Float64bits(got) != math.Float64bits(want) || gotExact != wantExact {
			t.Fatalf("ExactFloat64(%v) = %v, %v; want %v, %v", x, got, gotExact, want, wantExact)
		}
	}
}

// BenchmarkVecFloat64s converts a vector of typical activations (small
// integers and halves), as every layer of the passes and the decompiler do.
func BenchmarkVecFloat64s(b *testing.B) {
	v := make(Vec, 64)
	for k := range v {
		v[k] = big.NewRat(int64(k%7-3), int64(1+k%2))
	}
	for b.Loop() {
		if _, ok := v.Float64s(); !ok {
			b.Fatal("not exact")
		}
	}
}
