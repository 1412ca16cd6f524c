package transformer

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestIDOccurrences compares the searches that stop once every stored id
// is found with a pass over the whole word, on random words where some ids
// are absent and one occurs at a single position anywhere (first, middle,
// last).
func TestIDOccurrences(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 2000 {
		k := 1 + rng.IntN(12)
		n := 1 + rng.IntN(300)
		common := 1 + rng.IntN(k)
		ids := make([]uint8, n)
		for i := range ids {
			ids[i] = uint8(rng.IntN(common))
		}
		if trial%2 == 0 && common < k { // an id at one position only
			ids[rng.IntN(n)] = uint8(common)
		}
		wantFirst, wantLast := make([]int, k), make([]int, k)
		for id := range k {
			wantFirst[id], wantLast[id] = slices.Index(ids, uint8(id)), -1
		}
		for i, id := range ids {
			wantLast[id] = i
		}
		stored := 0
		for _, f := range wantFirst {
			if f >= 0 {
				stored++
			}
		}
		first, last := idOccurrences(ids, k, stored)
		if !slices.Equal(first, wantFirst) || !slices.Equal(last, wantLast) {
			t.Fatalf("%v: first %v last %v, want %v %v", ids, first, last, wantFirst, wantLast)
		}
	}
}

// TestFirstByteAtLeast compares the eight-bytes-at-a-time search with a
// byte-by-byte one, the offending byte anywhere (or nowhere), for every
// bound.
func TestFirstByteAtLeast(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 5000 {
		A := 1 + rng.IntN(256)
		w := make([]byte, rng.IntN(40))
		for i := range w {
			w[i] = byte(rng.IntN(A))
		}
		if len(w) > 0 && rng.IntN(2) == 0 {
			w[rng.IntN(len(w))] = byte(A + rng.IntN(256-A+1)%max(1, 256-A))
		}
		want := slices.IndexFunc(w, func(b byte) bool { return int(b) >= A })
		if got := firstByteAtLeast(w, A); got != want {
			t.Fatalf("firstByteAtLeast(%v, %d) = %d, want %d", w, A, got, want)
		}
	}
}
