package learn

import (
	"slices"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
)

// acceptsLonger returns a shortest word longer than n that h accepts, or
// nil: with the length bound of Cache.SetMaxLength the language learned has
// no such word, so it is a counterexample that costs no query. It is a
// breadth-first search of h's states paired with the length read so far,
// counted up to n+1: O(states·(n+2)·letters) work, its memory charged to
// learn-bytes.
func acceptsLonger(b *budget.Budget, h *automata.DFA, n int) ([]int, error) {
	states, k := h.NumStates(), len(h.Alphabet)
	nodes := int64(states) * int64(n+2)
	meter := b.Meter(maxCacheBytes, "the search for a word longer than the bound that the hypothesis accepts")
	if err := meter.Add(nodes * 8); err != nil {
		return nil, err
	}
	// Node t·states+q: state q after min(t, n+1) letters.
	parent := make([]int32, nodes)
	letter := make([]int32, nodes)
	for i := range parent {
		parent[i] = -1
	}
	start := int32(h.Start)
	parent[start] = start
	queue := []int32{start}
	for i := 0; i < len(queue); i++ {
		x := queue[i]
		t, q := int(x)/states, int(x)%states
		if t == n+1 && h.Accept[q] {
			var w []int
			for ; x != start; x = parent[x] {
				w = append(w, int(letter[x]))
			}
			slices.Reverse(w)
			return w, nil
		}
		next := min(t+1, n+1)
		for a, r := range h.Delta[q] {
			y := int32(next*states + r)
			if parent[y] < 0 {
				parent[y], letter[y] = x, int32(a)
				queue = append(queue, y)
			}
		}
		if i%4096 == 0 {
			if err := b.Step(int64(4096 * k)); err != nil {
				return nil, err
			}
		}
	}
	return nil, nil
}
