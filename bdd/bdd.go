package bdd

import (
	"github.com/brasp-dev/brasp/budget"
)

// Node is a Boolean function owned by a Manager: an index into its node
// table. Equal functions are equal Nodes.
type Node int32

// The two terminal nodes.
const (
	False Node = 0
	True  Node = 1
)

// maxBytes bounds the node table and caches of one Manager.
var maxBytes = budget.Define("bdd-bytes", 1<<31, "bytes",
	"memory of the decision diagrams (guards, LTLf states) of one construction")

// nodeBytes is what one node costs: the node, its hash chain link and its
// share of the hash buckets.
const nodeBytes = 12 + 4 + 4

type node struct {
	level  int32 // variable tested; terminals have level = number of variables
	lo, hi Node
}

// Manager holds the nodes and caches of one family of functions over
// NumVars variables.
type Manager struct {
	nvars     int32
	nodes     []node
	next      []int32 // hash chain: next node in the same bucket, -1 ends
	buckets   []int32
	mask      uint32
	cache     []cacheEntry
	cmask     uint32
	meter     *budget.Meter
	b         *budget.Budget
	composers int32
	err       error
}

// cacheEntry is one memoised operation; op is the operation number plus
// one, so that a zeroed entry is empty and a new cache needs no filling.
type cacheEntry struct {
	op      int32
	a, b, c Node
	r       Node
}

// New returns a Manager for functions of nvars variables, charging its
// memory to b's bdd-bytes limit.
func New(b *budget.Budget, nvars int) *Manager {
	m := &Manager{nvars: int32(nvars), b: b}
	m.meter = b.Meter(maxBytes, "decision diagram")
	m.nodes = append(m.nodes, node{level: m.nvars}, node{level: m.nvars, lo: 1, hi: 1})
	m.next = append(m.next, -1, -1)
	m.buckets = make([]int32, minBuckets)
	for i := range m.buckets {
		m.buckets[i] = -1
	}
	m.mask = uint32(len(m.buckets) - 1)
	m.cache = make([]cacheEntry, minCache)
	m.cmask = uint32(len(m.cache) - 1)
	m.charge(int64(len(m.buckets))*4 + int64(len(m.cache))*cacheEntryBytes)
	return m
}

// The tables start small, so that the many small Managers of a short run
// (one per formula, operand or comparison: 17 for a Lisa counter formula)
// cost little to make, and double with the node table: the hash buckets
// when there are two nodes per bucket, the operation cache up to
// cacheFactor entries per node. A Manager starts at 3.3 KB of tables (it
// was 25 KB: fresh pages that a short run paid for in page faults).
const (
	minBuckets      = 1 << 6
	minCache        = 1 << 7
	maxCache        = 1 << 22
	cacheFactor     = 2
	cacheEntryBytes = 24
)

// NumVars is the number of variables.
func (m *Manager) NumVars() int { return int(m.nvars) }

// NumNodes is the number of nodes made so far, terminals included.
func (m *Manager) NumNodes() int { return len(m.nodes) }

// Bytes is the memory charged to bdd-bytes so far: the node table, its hash
// buckets and the operation cache.
func (m *Manager) Bytes() int64 { return m.meter.Used() }

// Err is the error that stopped the Manager (a limit or the budget's
// context), or nil. After an error every operation returns False.
func (m *Manager) Err() error { return m.err }

func (m *Manager) charge(n int64) {
	if m.err == nil {
		if err := m.meter.Add(n); err != nil {
			m.err = err
		}
	}
}

// Var is the function "variable i is true".
func (m *Manager) Var(i int) Node {
	if i < 0 || i >= int(m.nvars) {
		panic("bdd: variable out of range")
	}
	return m.mk(int32(i), False, True)
}

// NVar is the function "variable i is false".
func (m *Manager) NVar(i int) Node {
	if i < 0 || i >= int(m.nvars) {
		panic("bdd: variable out of range")
	}
	return m.mk(int32(i), True, False)
}

// Level is the variable tested at n, or NumVars for a terminal.
func (m *Manager) Level(n Node) int { return int(m.nodes[n].level) }

// Low is n's child for its variable false; High for true.
func (m *Manager) Low(n Node) Node { return m.nodes[n].lo }

// High is n's child for its variable true.
func (m *Manager) High(n Node) Node { return m.nodes[n].hi }

func hash3(a, b, c int32) uint32 {
	h := uint32(a)*0x9e3779b1 ^ uint32(b)*0x85ebca77 ^ uint32(c)*0xc2b2ae3d
	return h ^ h>>15
}

// mk returns the node (level, lo, hi), made unique and reduced.
func (m *Manager) mk(level int32, lo, hi Node) Node {
	if lo == hi {
		return lo
	}
	if m.err != nil {
		return False
	}
	h := hash3(level, int32(lo), int32(hi)) & m.mask
	for i := m.buckets[h]; i >= 0; i = m.next[i] {
		n := &m.nodes[i]
		if n.level == level && n.lo == lo && n.hi == hi {
			return Node(i)
		}
	}
	m.charge(nodeBytes)
	if m.err != nil {
		return False
	}
	id := int32(len(m.nodes))
	m.nodes = append(m.nodes, node{level, lo, hi})
	m.next = append(m.next, m.buckets[h])
	m.buckets[h] = id
	if len(m.nodes) > 2*len(m.buckets) {
		m.grow()
	}
	return Node(id)
}

func (m *Manager) grow() {
	nb := make([]int32, 2*len(m.buckets))
	for i := range nb {
		nb[i] = -1
	}
	m.charge(int64(len(m.buckets)) * 4)
	m.buckets = nb
	m.mask = uint32(len(nb) - 1)
	for i := 2; i < len(m.nodes); i++ {
		n := m.nodes[i]
		h := hash3(n.level, int32(n.lo), int32(n.hi)) & m.mask
		m.next[i] = m.buckets[h]
		m.buckets[h] = int32(i)
	}
	if n := len(m.cache); n < cacheFactor*len(m.nodes) && n < maxCache {
		for n < cacheFactor*len(m.nodes) && n < maxCache {
			n *= 2
		}
		m.charge(int64(n-len(m.cache)) * cacheEntryBytes)
		m.cache = make([]cacheEntry, n)
		m.cmask = uint32(n - 1)
	}
}

const (
	opAnd int32 = iota
	opOr
	opXor
	opNot
	opIte
	opRestrict
	opExists
	opCompose
	opRestrictCube
	opUser // first operation number for callers' memoised traversals
)

func (m *Manager) lookup(op int32, a, b, c Node) (Node, uint32, bool) {
	h := (hash3(op, int32(a), int32(b)) ^ uint32(c)*0x27d4eb2f) & m.cmask
	e := &m.cache[h]
	if e.op == op+1 && e.a == a && e.b == b && e.c == c {
		return e.r, h, true
	}
	return 0, h, false
}

func (m *Manager) store(h uint32, op int32, a, b, c, r Node) {
	m.cache[h] = cacheEntry{op + 1, a, b, c, r}
}

func (m *Manager) step() bool {
	if m.err != nil {
		return false
	}
	if err := m.b.Step(1); err != nil {
		m.err = err
		return false
	}
	return true
}
