package bdd

import "slices"

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
func (m *Manager) And(x, y Node) Node { return m.apply(opAnd, x, y) }

// Or is the disjunction of x and y.
func (m *Manager) Or(x, y Node) Node { return m.apply(opOr, x, y) }

// Xor is the exclusive or of x and y.
func (m *Manager) Xor(x, y Node) Node { return m.apply(opXor, x, y) }

// terminal answers the binary operation op (opAnd, opOr or opXor) on x and
// y where a terminal argument or x == y decides it.
func (m *Manager) terminal(op int32, x, y Node) (Node, bool) {
	switch op {
	case opAnd:
		switch {
		case x == False || y == False:
			return False, true
		case x == True:
			return y, true
		case y == True || x == y:
			return x, true
		}
	case opOr:
		switch {
		case x == True || y == True:
			return True, true
		case x == False:
			return y, true
		case y == False || x == y:
			return x, true
		}
	case opXor:
		switch {
		case x == False:
			return y, true
		case y == False:
			return x, true
		case x == y:
			return False, true
		case x == True:
			return m.Not(y), true
		case y == True:
			return m.Not(x), true
		}
	}
	return 0, false
}

// apply computes the commutative binary operation op on x and y by
// expansion on the top variable of the two, memoised in the operation
// cache under the ordered pair.
func (m *Manager) apply(op int32, x, y Node) Node {
	if r, ok := m.terminal(op, x, y); ok {
		return r
	}
	if x > y {
		x, y = y, x
	}
	r, h, ok := m.lookup(op, x, y, 0)
	if ok {
		return r
	}
	if !m.step() {
		return False
	}
	nx, ny := m.nodes[x], m.nodes[y]
	switch {
	case nx.level == ny.level:
		r = m.mk(nx.level, m.apply(op, nx.lo, ny.lo), m.apply(op, nx.hi, ny.hi))
	case nx.level < ny.level:
		r = m.mk(nx.level, m.apply(op, nx.lo, y), m.apply(op, nx.hi, y))
	default:
		r = m.mk(ny.level, m.apply(op, x, ny.lo), m.apply(op, x, ny.hi))
	}
	m.store(h, op, x, y, 0, r)
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

// Cube is the conjunction of the literals lits (each variable at most
// once).
func (m *Manager) Cube(lits []Literal) Node {
	sorted := slices.SortedFunc(slices.Values(lits), func(a, b Literal) int { return b.Var - a.Var })
	c := True
	for _, l := range sorted {
		if l.Value {
			c = m.mk(int32(l.Var), False, c)
		} else {
			c = m.mk(int32(l.Var), c, False)
		}
	}
	return c
}

// RestrictCube is x with the variables of cube (a conjunction of literals,
// as Cube makes) fixed to their values: one walk of x, where a Restrict per
// variable walks it once per variable.
func (m *Manager) RestrictCube(x, cube Node) Node {
	for cube != True && cube != False && m.nodes[cube].level < m.nodes[x].level {
		cube = m.cubeRest(cube)
	}
	if cube == True || cube == False || x == True || x == False {
		return x
	}
	r, h, ok := m.lookup(opRestrictCube, x, cube, 0)
	if ok {
		return r
	}
	if !m.step() {
		return False
	}
	n, c := m.nodes[x], m.nodes[cube]
	if n.level == c.level {
		child := n.lo
		if c.lo == False {
			child = n.hi
		}
		r = m.RestrictCube(child, m.cubeRest(cube))
	} else {
		r = m.mk(n.level, m.RestrictCube(n.lo, cube), m.RestrictCube(n.hi, cube))
	}
	m.store(h, opRestrictCube, x, cube, 0, r)
	return r
}

// cubeRest is the cube below the literal at the top of cube.
func (m *Manager) cubeRest(cube Node) Node {
	if c := m.nodes[cube]; c.lo == False {
		return c.hi
	} else {
		return c.lo
	}
}
