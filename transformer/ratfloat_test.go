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
