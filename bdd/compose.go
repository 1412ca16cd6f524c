package bdd

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
