package automata

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// mooreClasses is the reference Refine: Moore's rounds (a state's class and
// its successors' classes) until the number of classes stays, classes
// numbered by first member.
func mooreClasses(delta [][]int, initial []int) []int {
	class := append([]int(nil), initial...)
	count := -1
	for {
		ids := map[string]int{}
		next := make([]int, len(delta))
		for q, row := range delta {
			succ := make([]int, len(row))
			for a, r := range row {
				succ[a] = class[r]
			}
			key := fmt.Sprint(class[q], succ)
			id, ok := ids[key]
			if !ok {
				id = len(ids)
				ids[key] = id
			}
			next[q] = id
		}
		class = next
		if len(ids) == count {
			return class
		}
		count = len(ids)
	}
}

// TestRefineIsMoore compares Refine with Moore's rounds on random
// transition tables with random initial classes, and on counters (chains
// that need as many Moore rounds as states).
func TestRefineIsMoore(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 4))
	check := func(delta [][]int, k int, initial []int) {
		t.Helper()
		got, count, err := Refine(nil, delta, k, initial)
		if err != nil {
			t.Fatal(err)
		}
		want := mooreClasses(delta, initial)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("delta %v, initial %v: Refine %v, Moore %v", delta, initial, got, want)
		}
		m := 0
		for _, c := range want {
			m = max(m, c+1)
		}
		if count != m {
			t.Fatalf("delta %v, initial %v: count %d, want %d", delta, initial, count, m)
		}
	}
	for range 500 {
		n, k, m := 1+rng.IntN(12), 1+rng.IntN(3), 1+rng.IntN(3)
		delta := make([][]int, n)
		initial := make([]int, n)
		seen := map[int]int{}
		for q := range delta {
			delta[q] = make([]int, k)
			for a := range delta[q] {
				delta[q][a] = rng.IntN(n)
			}
			c := rng.IntN(m)
			if _, ok := seen[c]; !ok {
				seen[c] = len(seen)
			}
			initial[q] = seen[c]
		}
		check(delta, k, initial)
	}
	for n := 1; n <= 40; n++ {
		delta := make([][]int, n)
		initial := make([]int, n)
		for q := range delta {
			delta[q] = []int{min(q+1, n-1), q}
		}
		initial[n-1] = min(1, n-1) // the end of the counter apart
		if n == 1 {
			initial[0] = 0
		}
		check(delta, 2, initial)
	}
}
