package symbolic

import (
	"container/heap"
	"slices"

	"github.com/brasp-dev/brasp/bdd"
	"github.com/brasp-dev/brasp/budget"
)

// guards computes the guards of each state's edges from its diagram alone,
// for the guard text: no operation of the automaton's manager (which would
// keep every guard's nodes for good), and work proportional to the text.
//
// A guard is the reduced diagram of "the paths of the state's diagram that
// end at this leaf", the same canonical diagram as Edges builds with And
// and Or, so its paths, listed low children first, are the cubes Format
// writes. The guards are built bottom-up in a table of their own: each node
// of the state's diagram gets the sorted list of the leaves below it, each
// with its guard from that node, merged from its children's lists.
type guards struct {
	d *DFA
	k int
	// The guards' own reduced diagrams: node i tests proposition
	// level[i], with children lo[i] and hi[i]; 0 is false and 1 true.
	level  []int32
	lo, hi []int32
	unique map[[3]int32]int32
	// Per node of the state's diagram: its list, arena[at : at+n].
	list  bdd.NodeMap[span]
	arena []leafGuard
	stack []bdd.Node
	// The state's edges in Edges' order.
	order []int32
	queue levelQueue
	seen  bdd.Marks
	b     *budget.Budget
}

// leafGuard is a leaf (a state) and its guard from some node.
type leafGuard struct{ to, g int32 }

type span struct{ at, n int32 }

// maxGuardNodes is how many guard nodes the table keeps before it starts
// over: the table is shared by the states (their guards share nodes) but
// must not grow with the whole text.
const maxGuardNodes = 1 << 20

func newGuards(b *budget.Budget, d *DFA) *guards {
	g := &guards{d: d, k: len(d.Props), b: b}
	g.reset()
	return g
}

func (g *guards) reset() {
	g.level, g.lo, g.hi = append(g.level[:0], -1, -1), append(g.lo[:0], 0, 1), append(g.hi[:0], 0, 1)
	g.unique = map[[3]int32]int32{}
}

func (g *guards) mk(level, lo, hi int32) int32 {
	if lo == hi {
		return lo
	}
	key := [3]int32{level, lo, hi}
	if i, ok := g.unique[key]; ok {
		return i
	}
	i := int32(len(g.level))
	g.level, g.lo, g.hi = append(g.level, level), append(g.lo, lo), append(g.hi, hi)
	g.unique[key] = i
	return i
}

// edges computes the edges of state q: their targets in g.order, and the
// guard of each, returned in the same order. It fails only with the
// budget's error.
func (g *guards) edges(q int) ([]leafGuard, error) {
	d, m := g.d, g.d.M
	root := d.Next[q]
	if d.isLeaf(root) {
		g.order = append(g.order[:0], int32(d.Leaf[root]))
		return []leafGuard{{int32(d.Leaf[root]), 1}}, nil
	}
	if len(g.level) > maxGuardNodes {
		g.reset()
	}
	g.list.Clear()
	g.arena = g.arena[:0]
	leaf := func(x bdd.Node) span {
		g.arena = append(g.arena, leafGuard{int32(d.Leaf[x]), 1})
		return span{int32(len(g.arena) - 1), 1}
	}
	get := func(x bdd.Node) (span, bool) {
		if d.isLeaf(x) {
			return leaf(x), true
		}
		return g.list.Get(x)
	}
	// Children before parents, with an explicit stack (a diagram is as
	// deep as there are propositions).
	g.stack = append(g.stack[:0], root)
	for len(g.stack) > 0 {
		x := g.stack[len(g.stack)-1]
		if _, ok := g.list.Get(x); ok {
			g.stack = g.stack[:len(g.stack)-1]
			continue
		}
		lo, hi := m.Low(x), m.High(x)
		_, okLo := g.list.Get(lo)
		_, okHi := g.list.Get(hi)
		okLo, okHi = okLo || d.isLeaf(lo), okHi || d.isLeaf(hi)
		if !okLo || !okHi {
			if !okHi {
				g.stack = append(g.stack, hi)
			}
			if !okLo {
				g.stack = append(g.stack, lo)
			}
			continue
		}
		g.stack = g.stack[:len(g.stack)-1]
		a, _ := get(lo)
		c, _ := get(hi)
		lv := int32(m.Level(x))
		at := int32(len(g.arena))
		for i, j := a.at, c.at; i < a.at+a.n || j < c.at+c.n; {
			var e leafGuard
			switch {
			case j == c.at+c.n || i < a.at+a.n && g.arena[i].to < g.arena[j].to:
				e = leafGuard{g.arena[i].to, g.mk(lv, g.arena[i].g, 0)}
				i++
			case i == a.at+a.n || g.arena[j].to < g.arena[i].to:
				e = leafGuard{g.arena[j].to, g.mk(lv, 0, g.arena[j].g)}
				j++
			default:
				e = leafGuard{g.arena[i].to, g.mk(lv, g.arena[i].g, g.arena[j].g)}
				i, j = i+1, j+1
			}
			g.arena = append(g.arena, e)
		}
		n := int32(len(g.arena)) - at
		g.list.Set(x, span{at, n})
		if err := g.b.Step(int64(n)); err != nil {
			return nil, err
		}
	}
	g.orderEdges(root)
	s, _ := g.list.Get(root)
	all := g.arena[s.at : s.at+s.n]
	out := make([]leafGuard, 0, len(g.order))
	for _, to := range g.order {
		i, _ := slices.BinarySearchFunc(all, to, func(e leafGuard, t int32) int { return int(e.to - t) })
		out = append(out, all[i])
	}
	return out, nil
}

// orderEdges puts the leaves of the diagram at root in g.order in Edges'
// order: the nodes taken level by level, each level in the order its nodes
// were first reached, low child before high.
func (g *guards) orderEdges(root bdd.Node) {
	d, m := g.d, g.d.M
	g.order = g.order[:0]
	g.seen.Clear()
	g.queue = g.queue[:0]
	seq := 0
	push := func(x bdd.Node) {
		if !g.seen.Add(x) {
			return
		}
		if d.isLeaf(x) {
			g.order = append(g.order, int32(d.Leaf[x]))
			return
		}
		heap.Push(&g.queue, queued{int32(m.Level(x)), int32(seq), x})
		seq++
	}
	push(root)
	for len(g.queue) > 0 {
		x := heap.Pop(&g.queue).(queued).x
		push(m.Low(x))
		push(m.High(x))
	}
}

// queued is a node waiting in orderEdges, by level and then arrival.
type queued struct {
	level, seq int32
	x          bdd.Node
}

type levelQueue []queued

func (h levelQueue) Len() int { return len(h) }
func (h levelQueue) Less(i, j int) bool {
	if h[i].level != h[j].level {
		return h[i].level < h[j].level
	}
	return h[i].seq < h[j].seq
}
func (h levelQueue) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *levelQueue) Push(x any)   { *h = append(*h, x.(queued)) }
func (h *levelQueue) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// appendGuard appends guard x as Format writes it: "true", "false", or its
// paths to true, low children first, as conjunctions of literals joined by
// " | ". lits[2v] and lits[2v+1] are proposition v's negative and positive
// literal.
func (g *guards) appendGuard(buf []byte, x int32, lits [][]byte) []byte {
	switch x {
	case 1:
		return append(buf, "true"...)
	case 0:
		return append(buf, "false"...)
	}
	type frame struct {
		x     int32
		stage uint8 // 0: not entered, 1: low branch taken, 2: both taken
	}
	var path []int32 // literal indices
	stack := []frame{{x, 0}}
	first := true
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.x <= 1 {
			if f.x == 1 {
				if !first {
					buf = append(buf, " | "...)
				}
				first = false
				for i, l := range path {
					if i > 0 {
						buf = append(buf, " & "...)
					}
					buf = append(buf, lits[l]...)
				}
			}
			stack = stack[:len(stack)-1]
			continue
		}
		switch f.stage {
		case 0:
			f.stage = 1
			path = append(path, 2*g.level[f.x])
			stack = append(stack, frame{g.lo[f.x], 0})
		case 1:
			f.stage = 2
			path[len(path)-1]++
			stack = append(stack, frame{g.hi[f.x], 0})
		default:
			path = path[:len(path)-1]
			stack = stack[:len(stack)-1]
		}
	}
	return buf
}
