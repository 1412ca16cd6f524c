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
// (one per formula, operand or comparison) cost little to make, and double
// with the node table: the hash buckets when there are two nodes per
// bucket, the operation cache up to cacheFactor entries per node.
const (
	minBuckets      = 1 << 8
	minCache        = 1 << 10
	maxCache        = 1 << 22
	cacheFactor     = 2
	cacheEntryBytes = 24
)

// NumVars is the number of variables.
func (m *Manager) NumVars() int { return int(m.nvars) }

// NumNodes is the number of nodes made so far, terminals included.
func (m *Manager) NumNodes() int { return len(m.nodes) }

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

// Not is the negation of x.
func (m *Manager) Not(x Node) Node {
	switch x {
	case False:
		return True
	case True:
		return False
	}
	if r, h, ok := m.lookup(opNot, x, 0, 0); ok {
		return r
	} else {
		if !m.step() {
			return False
		}
		n := m.nodes[x]
		r := m.mk(n.level, m.Not(n.lo), m.Not(n.hi))
		m.store(h, opNot, x, 0, 0, r)
		return r
	}
}

// And is the conjunction of x and y.
func (m *Manager) And(x, y Node) Node {
	switch {
	case x == False || y == False:
		return False
	case x == True:
		return y
	case y == True || x == y:
		return x
	}
	if x > y {
		x, y = y, x
	}
	r, h, ok := m.lookup(opAnd, x, y, 0)
	if ok {
		return r
	}
	if !m.step() {
		return False
	}
	nx, ny := m.nodes[x], m.nodes[y]
	switch {
	case nx.level == ny.level:
		r = m.mk(nx.level, m.And(nx.lo, ny.lo), m.And(nx.hi, ny.hi))
	case nx.level < ny.level:
		r = m.mk(nx.level, m.And(nx.lo, y), m.And(nx.hi, y))
	default:
		r = m.mk(ny.level, m.And(x, ny.lo), m.And(x, ny.hi))
	}
	m.store(h, opAnd, x, y, 0, r)
	return r
}

// Or is the disjunction of x and y.
func (m *Manager) Or(x, y Node) Node {
	switch {
	case x == True || y == True:
		return True
	case x == False:
		return y
	case y == False || x == y:
		return x
	}
	if x > y {
		x, y = y, x
	}
	r, h, ok := m.lookup(opOr, x, y, 0)
	if ok {
		return r
	}
	if !m.step() {
		return False
	}
	nx, ny := m.nodes[x], m.nodes[y]
	switch {
	case nx.level == ny.level:
		r = m.mk(nx.level, m.Or(nx.lo, ny.lo), m.Or(nx.hi, ny.hi))
	case nx.level < ny.level:
		r = m.mk(nx.level, m.Or(nx.lo, y), m.Or(nx.hi, y))
	default:
		r = m.mk(ny.level, m.Or(x, ny.lo), m.Or(x, ny.hi))
	}
	m.store(h, opOr, x, y, 0, r)
	return r
}

// Xor is the exclusive or of x and y.
func (m *Manager) Xor(x, y Node) Node {
	switch {
	case x == False:
		return y
	case y == False:
		return x
	case x == y:
		return False
	case x == True:
		return m.Not(y)
	case y == True:
		return m.Not(x)
	}
	if x > y {
		x, y = y, x
	}
	r, h, ok := m.lookup(opXor, x, y, 0)
	if ok {
		return r
	}
	if !m.step() {
		return False
	}
	nx, ny := m.nodes[x], m.nodes[y]
	switch {
	case nx.level == ny.level:
		r = m.mk(nx.level, m.Xor(nx.lo, ny.lo), m.Xor(nx.hi, ny.hi))
	case nx.level < ny.level:
		r = m.mk(nx.level, m.Xor(nx.lo, y), m.Xor(nx.hi, y))
	default:
		r = m.mk(ny.level, m.Xor(x, ny.lo), m.Xor(x, ny.hi))
	}
	m.store(h, opXor, x, y, 0, r)
	return r
}

// Imp is x → y.
func (m *Manager) Imp(x, y Node) Node { return m.Or(m.Not(x), y) }

// Iff is x ↔ y.
func (m *Manager) Iff(x, y Node) Node { return m.Not(m.Xor(x, y)) }

// Ite is if f then g else h.
func (m *Manager) Ite(f, g, h Node) Node {
	switch {
	case f == True:
		return g
	case f == False:
		return h
	case g == h:
		return g
	case g == True && h == False:
		return f
	case g == False && h == True:
		return m.Not(f)
	case g == True:
		return m.Or(f, h)
	case h == False:
		return m.And(f, g)
	}
	r, hc, ok := m.lookup(opIte, f, g, h)
	if ok {
		return r
	}
	if !m.step() {
		return False
	}
	top := m.nodes[f].level
	if l := m.nodes[g].level; l < top {
		top = l
	}
	if l := m.nodes[h].level; l < top {
		top = l
	}
	f0, f1 := m.cofactors(f, top)
	g0, g1 := m.cofactors(g, top)
	h0, h1 := m.cofactors(h, top)
	r = m.mk(top, m.Ite(f0, g0, h0), m.Ite(f1, g1, h1))
	m.store(hc, opIte, f, g, h, r)
	return r
}

func (m *Manager) cofactors(x Node, level int32) (Node, Node) {
	n := m.nodes[x]
	if n.level != level {
		return x, x
	}
	return n.lo, n.hi
}

// Restrict is x with variable v fixed to val.
func (m *Manager) Restrict(x Node, v int, val bool) Node {
	c := False
	if val {
		c = True
	}
	return m.restrict(x, int32(v), c)
}

func (m *Manager) restrict(x Node, v int32, c Node) Node {
	n := m.nodes[x]
	if n.level > v {
		return x
	}
	if n.level == v {
		if c == True {
			return n.hi
		}
		return n.lo
	}
	r, h, ok := m.lookup(opRestrict, x, Node(v), c)
	if ok {
		return r
	}
	if !m.step() {
		return False
	}
	r = m.mk(n.level, m.restrict(n.lo, v, c), m.restrict(n.hi, v, c))
	m.store(h, opRestrict, x, Node(v), c, r)
	return r
}

// Exists is x with variable v quantified existentially.
func (m *Manager) Exists(x Node, v int) Node {
	return m.Or(m.Restrict(x, v, false), m.Restrict(x, v, true))
}

// Eval is the value of x under the assignment val (val(i) is variable i).
func (m *Manager) Eval(x Node, val func(int) bool) bool {
	for x > True {
		n := m.nodes[x]
		if val(int(n.level)) {
			x = n.hi
		} else {
			x = n.lo
		}
	}
	return x == True
}

// Support lists the variables x depends on, in increasing order.
func (m *Manager) Support(x Node) []int {
	seen := map[Node]bool{}
	vars := map[int32]bool{}
	var walk func(Node)
	walk = func(x Node) {
		if x <= True || seen[x] {
			return
		}
		seen[x] = true
		n := m.nodes[x]
		vars[n.level] = true
		walk(n.lo)
		walk(n.hi)
	}
	walk(x)
	out := make([]int, 0, len(vars))
	for v := range m.nvars {
		if vars[v] {
			out = append(out, int(v))
		}
	}
	return out
}

// AnySat returns a satisfying assignment of x as the list of its literals on
// one path (variable, value), preferring false; ok is false when x is False.
func (m *Manager) AnySat(x Node) (lits []Literal, ok bool) {
	if x == False {
		return nil, false
	}
	for x != True {
		n := m.nodes[x]
		if n.lo != False {
			lits = append(lits, Literal{Var: int(n.level), Value: false})
			x = n.lo
		} else {
			lits = append(lits, Literal{Var: int(n.level), Value: true})
			x = n.hi
		}
	}
	return lits, true
}

// Literal is a variable with a value.
type Literal struct {
	Var   int
	Value bool
}

// Cubes lists the paths of x to True: disjoint cubes whose union is x, each
// a list of literals in variable order. It stops after max cubes (ok false).
func (m *Manager) Cubes(x Node, max int) (cubes [][]Literal, ok bool) {
	var path []Literal
	ok = true
	var walk func(Node)
	walk = func(x Node) {
		if !ok || x == False {
			return
		}
		if x == True {
			if len(cubes) >= max {
				ok = false
				return
			}
			cubes = append(cubes, append([]Literal(nil), path...))
			return
		}
		n := m.nodes[x]
		path = append(path, Literal{int(n.level), false})
		walk(n.lo)
		path[len(path)-1].Value = true
		walk(n.hi)
		path = path[:len(path)-1]
	}
	walk(x)
	return cubes, ok
}

// SatCount is the number of assignments of the first nvars variables that
// satisfy x (x must not depend on later variables), as a float64.
func (m *Manager) SatCount(x Node, nvars int) float64 {
	memo := map[Node]float64{}
	var count func(Node) float64 // assignments of variables from level(x) on
	count = func(x Node) float64 {
		if x == False {
			return 0
		}
		if x == True {
			return 1
		}
		if c, ok := memo[x]; ok {
			return c
		}
		n := m.nodes[x]
		lo, hi := count(n.lo), count(n.hi)
		c := lo*pow2(m.lvl(n.lo, nvars)-int(n.level)-1) + hi*pow2(m.lvl(n.hi, nvars)-int(n.level)-1)
		memo[x] = c
		return c
	}
	return count(x) * pow2(m.lvl(x, nvars))
}

func (m *Manager) lvl(x Node, nvars int) int {
	if x <= True {
		return nvars
	}
	return int(m.nodes[x].level)
}

func pow2(k int) float64 {
	f := 1.0
	for range k {
		f *= 2
	}
	return f
}

// Composer substitutes functions for variables, all at once (vector
// composition). One Composer keeps its results in the Manager's cache, so
// composing many nodes with the same substitution shares the work.
type Composer struct {
	m   *Manager
	sub []Node // by variable; -1 keeps the variable
	max int32  // no variable below this level is substituted
	id  Node
}

// NewComposer returns a Composer replacing variable v by sub[v] for each
// key of sub.
func (m *Manager) NewComposer(sub map[int]Node) *Composer {
	c := &Composer{m: m, sub: make([]Node, m.nvars), max: -1}
	for i := range c.sub {
		c.sub[i] = -1
	}
	for v, f := range sub {
		c.sub[v] = f
		if int32(v) > c.max {
			c.max = int32(v)
		}
	}
	m.composers++
	c.id = Node(m.composers)
	return c
}

// Apply is x with every substituted variable replaced.
func (c *Composer) Apply(x Node) Node {
	m := c.m
	n := m.nodes[x]
	if n.level > c.max {
		return x
	}
	r, h, ok := m.lookup(opCompose, x, c.id, 0)
	if ok {
		return r
	}
	if !m.step() {
		return False
	}
	lo, hi := c.Apply(n.lo), c.Apply(n.hi)
	f := c.sub[n.level]
	if f < 0 {
		if m.nodes[lo].level > n.level && m.nodes[hi].level > n.level {
			r = m.mk(n.level, lo, hi)
		} else {
			r = m.Ite(m.mk(n.level, False, True), hi, lo)
		}
	} else {
		r = m.Ite(f, hi, lo)
	}
	m.store(h, opCompose, x, c.id, 0, r)
	return r
}

// Transfer copies x, a node of src, into m, renaming src's variable v to
// m's variable rename[v] (rename must preserve the order of the variables
// x depends on).
func (m *Manager) Transfer(src *Manager, x Node, rename []int) Node {
	memo := map[Node]Node{False: False, True: True}
	var walk func(Node) Node
	walk = func(x Node) Node {
		if r, ok := memo[x]; ok {
			return r
		}
		n := src.nodes[x]
		r := m.Ite(m.Var(rename[n.level]), walk(n.hi), walk(n.lo))
		memo[x] = r
		return r
	}
	return walk(x)
}

// Mk returns the node testing variable level with children lo and hi,
// which must not test variables at or above level.
func (m *Manager) Mk(level int, lo, hi Node) Node {
	if m.nodes[lo].level <= int32(level) || m.nodes[hi].level <= int32(level) {
		panic("bdd: Mk out of order")
	}
	return m.mk(int32(level), lo, hi)
}

// Terminal returns the id-th extra terminal: a leaf below every variable,
// distinct from False, True and the other terminals, for diagrams whose
// leaves stand for something else (the states of an automaton). Terminals
// must never be passed to the Boolean operations.
func (m *Manager) Terminal(id int) Node {
	return m.mk(m.nvars, Node(-2-id), Node(-1))
}
