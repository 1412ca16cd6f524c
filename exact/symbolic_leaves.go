package exact

import "github.com/brasp-dev/brasp/bdd"

// This file builds the transition diagram of one new state of an attention
// step (symMachine.extend). The successor on a valuation is the own
// machine's successor together with one summary code per (other state,
// atom assignment) — hundreds or thousands of Boolean diagrams. Walking
// them all together would key every step of the walk on the whole tuple;
// instead the successor function is built up one code at a time as a
// scratch multi-terminal diagram whose leaves are prefixes of the tuple,
// interned in a trie, so each code costs one product of two diagrams.

// leafRef is a node of a leafDiagram (≥ 0) or a leaf (-1 - trie entry).
type leafRef int32

func leafOf(id int32) leafRef         { return leafRef(-1 - id) }
func (r leafRef) leaf() (int32, bool) { return int32(-1 - r), r < 0 }

type leafNode struct {
	level  int32
	lo, hi leafRef
}

// leafDiagram is a scratch multi-terminal decision diagram over the first
// k variables of a manager, hash-consed locally and reset for every state,
// with the trie of the tuples its leaves stand for.
type leafDiagram struct {
	m     *bdd.Manager
	k     int32
	nodes []leafNode
	index tripleTable // (level, lo, hi) → node
	memo  tripleTable // (node, def, val) → product
	// The trie: entry e extends entry parent[e] (-1 at the root) by val[e]
	// (a summary code, or the own machine's state at the root).
	parent, val []int32
	child       tripleTable // (parent, val, 0) → entry
}

func newLeafDiagram(m *bdd.Manager, k int) *leafDiagram {
	return &leafDiagram{m: m, k: int32(k)}
}

func (d *leafDiagram) reset() {
	d.nodes = d.nodes[:0]
	d.index.Clear()
	d.parent, d.val = d.parent[:0], d.val[:0]
	d.child.Clear()
}

// entry interns the trie entry extending parent by val.
func (d *leafDiagram) entry(parent, val int32) int32 {
	if e, ok := d.child.get(parent, val, 0); ok {
		return e
	}
	e := int32(len(d.parent))
	d.parent = append(d.parent, parent)
	d.val = append(d.val, val)
	d.child.put(parent, val, 0, e)
	return e
}

func (d *leafDiagram) level(r leafRef) int32 {
	if r < 0 {
		return d.k
	}
	return d.nodes[r].level
}

func (d *leafDiagram) mk(level int32, lo, hi leafRef) leafRef {
	if lo == hi {
		return lo
	}
	if r, ok := d.index.get(level, int32(lo), int32(hi)); ok {
		return leafRef(r)
	}
	r := leafRef(len(d.nodes))
	d.nodes = append(d.nodes, leafNode{level, lo, hi})
	d.index.put(level, int32(lo), int32(hi), int32(r))
	return r
}

// from copies the transition diagram x of a machine (leaves are states'
// terminals), each leaf becoming the trie root of its state.
func (d *leafDiagram) from(s *symMachine, x bdd.Node, memo map[bdd.Node]leafRef) leafRef {
	m := d.m
	if m.Level(x) >= s.k {
		return leafOf(d.entry(-1, int32(s.leafState(x))))
	}
	if r, ok := memo[x]; ok {
		return r
	}
	r := d.mk(int32(m.Level(x)), d.from(s, m.Low(x), memo), d.from(s, m.High(x), memo))
	memo[x] = r
	return r
}

// extend returns the diagram of a with each leaf e extended, on every
// valuation, by the summary code the diagrams def ("some position is
// selected") and val ("its value is 1") give there.
func (d *leafDiagram) extend(a leafRef, def, val bdd.Node) leafRef {
	d.memo.Clear()
	return d.product(a, def, val)
}

func (d *leafDiagram) product(a leafRef, def, val bdd.Node) leafRef {
	m := d.m
	la, ld, lv := d.level(a), int32(min(m.Level(def), int(d.k))), int32(min(m.Level(val), int(d.k)))
	top := min(la, ld, lv)
	if top == d.k {
		e, _ := a.leaf()
		c := none
		switch {
		case def == bdd.False:
		case val == bdd.True:
			c = valTrue
		default:
			c = valFalse
		}
		return leafOf(d.entry(e, int32(c)))
	}
	if r, ok := d.memo.get(int32(a), int32(def), int32(val)); ok {
		return leafRef(r)
	}
	a0, a1, d0, d1, v0, v1 := a, a, def, def, val, val
	if la == top {
		a0, a1 = d.nodes[a].lo, d.nodes[a].hi
	}
	if ld == top {
		d0, d1 = m.Low(def), m.High(def)
	}
	if lv == top {
		v0, v1 = m.Low(val), m.High(val)
	}
	r := d.mk(top, d.product(a0, d0, v0), d.product(a1, d1, v1))
	d.memo.put(int32(a), int32(def), int32(val), int32(r))
	return r
}

// to writes a into the manager, each leaf replaced by leaf(its trie
// entry), memoised.
func (d *leafDiagram) to(a leafRef, memo map[leafRef]bdd.Node, leaf func(e int32) bdd.Node) bdd.Node {
	if e, ok := a.leaf(); ok {
		return leaf(e)
	}
	if r, ok := memo[a]; ok {
		return r
	}
	n := d.nodes[a]
	r := d.m.Mk(int(n.level), d.to(n.lo, memo, leaf), d.to(n.hi, memo, leaf))
	memo[a] = r
	return r
}

// tuple returns the own state and the w summary codes of trie entry e.
func (d *leafDiagram) tuple(e int32, w int) (int, []byte) {
	sum := make([]byte, w)
	for x := w - 1; x >= 0; x-- {
		sum[x] = byte(d.val[e])
		e = d.parent[e]
	}
	return int(d.val[e]), sum
}

// size is the number of scratch nodes and trie entries, for the budget.
func (d *leafDiagram) size() int { return len(d.nodes) + len(d.parent) }

// bytes is the scratch memory held: nodes, trie entries and the tables.
func (d *leafDiagram) bytes() int64 {
	slots := len(d.index.slots) + len(d.memo.slots) + len(d.child.slots)
	return int64(cap(d.nodes))*12 + int64(cap(d.parent)+cap(d.val))*4 + int64(slots)*20
}
