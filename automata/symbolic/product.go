package symbolic

import (
	"fmt"
	"slices"

	"github.com/brasp-dev/brasp/bdd"
	"github.com/brasp-dev/brasp/budget"
)

// maxProductStates bounds the states of a product.
var maxProductStates = budget.Define("symbolic-product-states", 1<<22, "states",
	"states of the product of symbolic automata (before minimisation)")

// Product returns the automaton of the Boolean combination op of the
// languages of ds (one or two automata over the same propositions, in
// any managers), built in a new manager over the propositions alone: its
// states are the tuples of states reached by non-empty traces, plus a fresh
// rejecting start (the empty trace is no trace, whatever op says of it).
// Each tuple's diagram is the diagrams of its members walked together,
// their leaf tuples becoming terminals. The result is not minimised.
func Product(b *budget.Budget, ds []*DFA, op func([]bool) bool) (*DFA, error) {
	k := len(ds[0].Props)
	for _, d := range ds[1:] {
		if !slices.Equal(d.Props, ds[0].Props) {
			return nil, fmt.Errorf("product of automata over different propositions")
		}
	}
	m := bdd.New(b, k)
	out := &DFA{Props: ds[0].Props, M: m, Leaf: map[bdd.Node]int{}}
	if len(ds) > 2 {
		return nil, fmt.Errorf("product of %d automata (one or two)", len(ds))
	}
	index := map[[2]int]int{}
	var tuples [][]int
	meter := b.Meter(maxProductStates, "product of symbolic automata")
	state := func(t []int) bdd.Node {
		key := [2]int{t[0], -1}
		if len(t) > 1 {
			key[1] = t[1]
		}
		q, ok := index[key]
		if !ok {
			q = len(tuples)
			index[key] = q
			tuples = append(tuples, t)
			meter.Add(1)
		}
		return m.Terminal(q + 1) // terminal 0 is the start's
	}
	memo := map[[2]bdd.Node]bdd.Node{}
	var walk func(us []bdd.Node) bdd.Node
	walk = func(us []bdd.Node) bdd.Node {
		key := [2]bdd.Node{us[0], -1}
		if len(us) > 1 {
			key[1] = us[1]
		}
		if r, ok := memo[key]; ok {
			return r
		}
		l := k
		for i, u := range us {
			l = min(l, ds[i].M.Level(u))
		}
		var r bdd.Node
		if l == k {
			t := make([]int, len(us))
			for i, u := range us {
				t[i] = ds[i].Leaf[u]
			}
			r = state(t)
		} else {
			lo, hi := make([]bdd.Node, len(us)), make([]bdd.Node, len(us))
			for i, u := range us {
				lo[i], hi[i] = u, u
				if ds[i].M.Level(u) == l {
					lo[i], hi[i] = ds[i].M.Low(u), ds[i].M.High(u)
				}
			}
			r = m.Mk(l, walk(lo), walk(hi))
		}
		memo[key] = r
		return r
	}
	roots := func(t []int) []bdd.Node {
		us := make([]bdd.Node, len(ds))
		for i, d := range ds {
			us[i] = d.Next[t[i]]
		}
		return us
	}
	starts := make([]int, len(ds))
	for i, d := range ds {
		starts[i] = d.Start
	}
	out.Next = append(out.Next, walk(roots(starts)))
	out.Accept = append(out.Accept, false)
	out.Leaf[m.Terminal(0)] = 0
	vals := make([]bool, len(ds))
	for q := 0; q < len(tuples); q++ {
		t := tuples[q]
		for i, d := range ds {
			vals[i] = d.Accept[t[i]]
		}
		out.Accept = append(out.Accept, op(vals))
		out.Leaf[m.Terminal(q+1)] = q + 1
		out.Next = append(out.Next, walk(roots(t)))
		if err := meter.Add(0); err != nil {
			return nil, err
		}
		if err := b.Step(int64(len(memo))); err != nil {
			return nil, err
		}
		if err := m.Err(); err != nil {
			return nil, err
		}
	}
	return out, m.Err()
}
