package symbolic

import (
	"github.com/brasp-dev/brasp/bdd"
	"github.com/brasp-dev/brasp/budget"
)

// parentGraph is the transition diagrams of an automaton turned upside
// down: every node they share (leaves included) numbered once, with its
// parents and the states whose diagram it roots, in compressed rows. Its
// size is that of the distinct nodes, not of the edges (a state's leaves
// listed per state), which can be exponentially more.
type parentGraph struct {
	num      bdd.NodeMap[int32] // a node's number
	parentAt []int32            // node i's parents: parents[parentAt[i]:parentAt[i+1]]
	parents  []int32
	rootAt   []int32 // the states node i roots: roots[rootAt[i]:rootAt[i+1]]
	roots    []int32
	marks    bdd.Marks
	stack    []int32
}

// newParentGraph builds the graph of d's diagrams, charging its tables to
// meter and its work to b.
func newParentGraph(b *budget.Budget, meter *budget.Meter, d *DFA) (*parentGraph, error) {
	m, k := d.M, len(d.Props)
	g := &parentGraph{}
	var nodes []bdd.Node
	// Number the nodes, children before parents, with an explicit stack.
	var stack []bdd.Node
	for q := range d.NumStates() {
		if _, ok := g.num.Get(d.Next[q]); ok {
			continue
		}
		stack = append(stack[:0], d.Next[q])
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			if _, ok := g.num.Get(x); ok {
				stack = stack[:len(stack)-1]
				continue
			}
			if m.Level(x) < k {
				lo, hi := m.Low(x), m.High(x)
				_, okLo := g.num.Get(lo)
				_, okHi := g.num.Get(hi)
				if !okLo || !okHi {
					if !okLo {
						stack = append(stack, lo)
					}
					if !okHi {
						stack = append(stack, hi)
					}
					continue
				}
			}
			stack = stack[:len(stack)-1]
			g.num.Set(x, int32(len(nodes)))
			nodes = append(nodes, x)
			if err := b.Step(1); err != nil {
				return nil, err
			}
		}
	}
	nn := len(nodes)
	// Node numbers, parent rows (two parents' entries per inner node),
	// root rows.
	if err := meter.Add(int64(nn)*(4+4+4+nodeMapBytes) + 8*int64(nn) + 4*int64(d.NumStates())); err != nil {
		return nil, err
	}
	g.parentAt = make([]int32, nn+1)
	g.rootAt = make([]int32, nn+1)
	child := func(x bdd.Node) int32 { i, _ := g.num.Get(x); return i }
	for _, x := range nodes {
		if m.Level(x) < k {
			g.parentAt[child(m.Low(x))+1]++
			g.parentAt[child(m.High(x))+1]++
		}
	}
	for q := range d.NumStates() {
		g.rootAt[child(d.Next[q])+1]++
	}
	for i := range nn {
		g.parentAt[i+1] += g.parentAt[i]
		g.rootAt[i+1] += g.rootAt[i]
	}
	g.parents = make([]int32, g.parentAt[nn])
	g.roots = make([]int32, g.rootAt[nn])
	fill := append([]int32(nil), g.parentAt[:nn]...)
	for i, x := range nodes {
		if m.Level(x) < k {
			for _, c := range [2]int32{child(m.Low(x)), child(m.High(x))} {
				g.parents[fill[c]] = int32(i)
				fill[c]++
			}
		}
	}
	copy(fill, g.rootAt[:nn])
	for q := range d.NumStates() {
		r := child(d.Next[q])
		g.roots[fill[r]] = int32(q)
		fill[r]++
	}
	return g, nil
}

// predecessors calls fn with every state whose diagram reaches the leaf of
// one of the states of moved (leafOf gives a state's leaf), once each per
// call, walking up from the leaves through each node once.
func (g *parentGraph) predecessors(moved []int32, leafOf []bdd.Node, fn func(q int32)) {
	g.marks.Clear()
	g.stack = g.stack[:0]
	for _, p := range moved {
		if i, ok := g.num.Get(leafOf[p]); ok && g.marks.Add(bdd.Node(i)) {
			g.stack = append(g.stack, i)
		}
	}
	for len(g.stack) > 0 {
		i := g.stack[len(g.stack)-1]
		g.stack = g.stack[:len(g.stack)-1]
		for _, q := range g.roots[g.rootAt[i]:g.rootAt[i+1]] {
			fn(q)
		}
		for _, p := range g.parents[g.parentAt[i]:g.parentAt[i+1]] {
			if g.marks.Add(bdd.Node(p)) {
				g.stack = append(g.stack, p)
			}
		}
	}
}
