package ltlf

import (
	"cmp"
	"container/heap"
	"slices"

	"github.com/brasp-dev/brasp/automata/symbolic"
)

// exactChain is the longest chain whose next pair is chosen among all
// pairs (pairCost over every pair before each product, cubic in the
// chain's length); longer chains choose among neighbours (longChain).
const exactChain = 32

// longChain combines the automata of a long chain by minimised products in
// O(n log n) pair choices: the operands are ordered by the propositions
// they read, so that operands constraining the same propositions are
// neighbours, and a heap holds the pairCost of every pair of neighbours;
// the cheapest pair is combined, and its product gets new neighbours. A
// conjunction of 1,200 propositions ranked every pair before each product
// (minutes); here it is a few thousand heap operations.
func (c *connectives) longChain(ds []*symbolic.DFA, sups [][]int32, op func([]bool) bool, decided func(*symbolic.DFA) bool) (*symbolic.DFA, error) {
	n := len(ds)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return slices.Compare(sups[a], sups[b]) })
	// The chain in that order as a doubly linked list of slots.
	prev, next := make([]int, n), make([]int, n)
	d := make([]*symbolic.DFA, n)
	sup := make([][]int32, n)
	version := make([]int, n)
	for k, i := range idx {
		d[k], sup[k] = ds[i], sups[i]
		prev[k], next[k] = k-1, k+1
	}
	next[n-1] = -1
	h := &pairHeap{}
	push := func(a int) {
		if a < 0 || next[a] < 0 {
			return
		}
		b := next[a]
		heap.Push(h, chainPair{cost: pairCost(d[a], d[b], sup[a], sup[b]), a: a, b: b, va: version[a], vb: version[b]})
	}
	for k := range n - 1 {
		push(k)
	}
	for left := n; left > 1; {
		if err := c.b.Step(1); err != nil {
			return nil, err
		}
		p := heap.Pop(h).(chainPair)
		if d[p.a] == nil || d[p.b] == nil || next[p.a] != p.b || version[p.a] != p.va || version[p.b] != p.vb {
			continue // stale: one side was combined since
		}
		r, err := c.product(d[p.a], d[p.b], op)
		if err != nil {
			return nil, err
		}
		if decided(r) {
			return r, nil
		}
		d[p.a], sup[p.a] = r, union(sup[p.a], sup[p.b])
		version[p.a]++
		d[p.b] = nil
		next[p.a] = next[p.b]
		if next[p.b] >= 0 {
			prev[next[p.b]] = p.a
		}
		left--
		push(prev[p.a])
		push(p.a)
	}
	for _, r := range d {
		if r != nil {
			return r, nil
		}
	}
	panic("ltlf: empty chain")
}

// chainPair is a pair of neighbours of a long chain, with the versions of
// both sides when its cost was computed.
type chainPair struct {
	cost   float64
	a, b   int
	va, vb int
}

// pairHeap is a min-heap of pairs by cost, then position (deterministic).
type pairHeap []chainPair

func (h pairHeap) Len() int { return len(h) }
func (h pairHeap) Less(i, j int) bool {
	if h[i].cost != h[j].cost {
		return h[i].cost < h[j].cost
	}
	return cmp.Less(h[i].a, h[j].a)
}
func (h pairHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *pairHeap) Push(x any)   { *h = append(*h, x.(chainPair)) }
func (h *pairHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
