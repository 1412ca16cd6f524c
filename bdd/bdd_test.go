package bdd

import (
	"context"
	"errors"
	"math/rand"
	"testing"

	"github.com/brasp-dev/brasp/budget"
)

// expr is a random Boolean expression with its truth table over n variables.
type expr struct {
	node  Node
	table []bool // table[v]: value under the assignment whose bit i is variable i
}

func randomExpr(r *rand.Rand, m *Manager, n, depth int) expr {
	size := 1 << n
	if depth == 0 || r.Intn(4) == 0 {
		v := r.Intn(n)
		t := make([]bool, size)
		for a := range size {
			t[a] = a>>v&1 == 1
		}
		return expr{m.Var(v), t}
	}
	x := randomExpr(r, m, n, depth-1)
	y := randomExpr(r, m, n, depth-1)
	z := randomExpr(r, m, n, depth-1)
	t := make([]bool, size)
	var node Node
	op := r.Intn(6)
	for a := range size {
		switch op {
		case 0:
			t[a] = x.table[a] && y.table[a]
		case 1:
			t[a] = x.table[a] || y.table[a]
		case 2:
			t[a] = x.table[a] != y.table[a]
		case 3:
			t[a] = !x.table[a]
		case 4:
			t[a] = !x.table[a] || y.table[a]
		case 5:
			if x.table[a] {
				t[a] = y.table[a]
			} else {
				t[a] = z.table[a]
			}
		}
	}
	switch op {
	case 0:
		node = m.And(x.node, y.node)
	case 1:
		node = m.Or(x.node, y.node)
	case 2:
		node = m.Xor(x.node, y.node)
	case 3:
		node = m.Not(x.node)
	case 4:
		node = m.Imp(x.node, y.node)
	case 5:
		node = m.Ite(x.node, y.node, z.node)
	}
	return expr{node, t}
}

func eval(m *Manager, x Node, a int) bool { return m.Eval(x, func(i int) bool { return a>>i&1 == 1 }) }

// TestTruthTables: every operation agrees with truth tables, and equal
// functions are equal nodes (canonicity).
func TestTruthTables(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	const n = 5
	m := New(nil, n)
	byTable := map[string]Node{}
	for range 3000 {
		e := randomExpr(r, m, n, 4)
		key := make([]byte, len(e.table))
		for a, v := range e.table {
			if eval(m, e.node, a) != v {
				t.Fatalf("node %d disagrees with its table at %b", e.node, a)
			}
			if v {
				key[a] = 1
			}
		}
		if old, ok := byTable[string(key)]; ok && old != e.node {
			t.Fatalf("one function, two nodes %d and %d", old, e.node)
		}
		byTable[string(key)] = e.node
		count := 0
		for _, v := range e.table {
			if v {
				count++
			}
		}
		if got := m.SatCount(e.node, n); got != float64(count) {
			t.Fatalf("SatCount %v, want %d", got, count)
		}
		v := r.Intn(n)
		for _, val := range []bool{false, true} {
			x := m.Restrict(e.node, v, val)
			for a := range 1 << n {
				b := a &^ (1 << v)
				if val {
					b |= 1 << v
				}
				if eval(m, x, a) != e.table[b] {
					t.Fatal("Restrict disagrees")
				}
			}
		}
		ex := m.Exists(e.node, v)
		for a := range 1 << n {
			if eval(m, ex, a) != (e.table[a|1<<v] || e.table[a&^(1<<v)]) {
				t.Fatal("Exists disagrees")
			}
		}
		if lits, ok := m.AnySat(e.node); ok {
			a := 0
			for _, l := range lits {
				if l.Value {
					a |= 1 << l.Var
				}
			}
			if !e.table[a] {
				t.Fatal("AnySat is no model")
			}
		} else if e.node != False {
			t.Fatal("AnySat found nothing")
		}
		cubes, _ := m.Cubes(e.node, 1<<n)
		union := False
		for _, c := range cubes {
			cube := True
			for _, l := range c {
				if l.Value {
					cube = m.And(cube, m.Var(l.Var))
				} else {
					cube = m.And(cube, m.NVar(l.Var))
				}
			}
			if m.And(union, cube) != False {
				t.Fatal("cubes overlap")
			}
			union = m.Or(union, cube)
		}
		if union != e.node {
			t.Fatal("cubes do not make up the function")
		}
	}
}

// TestCompose: vector composition equals substituting truth tables.
func TestCompose(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	const n = 5
	m := New(nil, n)
	for range 500 {
		e := randomExpr(r, m, n, 4)
		subs := map[int]expr{}
		sub := map[int]Node{}
		for v := range n {
			if r.Intn(2) == 0 {
				s := randomExpr(r, m, n, 2)
				subs[v], sub[v] = s, s.node
			}
		}
		c := m.NewComposer(sub)
		x := c.Apply(e.node)
		for a := range 1 << n {
			b := a
			for v, s := range subs {
				b &^= 1 << v
				if s.table[a] {
					b |= 1 << v
				}
			}
			if eval(m, x, a) != e.table[b] {
				t.Fatalf("Compose disagrees at %b", a)
			}
		}
		other := New(nil, n)
		rename := []int{0, 1, 2, 3, 4}
		y := other.Transfer(m, e.node, rename)
		for a := range 1 << n {
			if eval(other, y, a) != e.table[a] {
				t.Fatal("Transfer disagrees")
			}
		}
	}
}

func TestLimit(t *testing.T) {
	b := budget.New(context.Background(), budget.Settings{"bdd-bytes": 1 << 18})
	m := New(b, 40)
	x := False
	for i := 0; i+1 < 40 && m.Err() == nil; i += 2 {
		x = m.Xor(x, m.And(m.Var(i), m.Var(i+1)))
	}
	// Σ x_{2i} x_{2i+1} mod 2 has a small diagram; the interleaved order
	// of x_i ↔ x_{i+20} does not.
	y := True
	for i := 0; i < 20 && m.Err() == nil; i++ {
		y = m.And(y, m.Iff(m.Var(i), m.Var(i+20)))
	}
	var be *budget.Error
	if !errors.As(m.Err(), &be) || be.Limit.Name != "bdd-bytes" {
		t.Fatalf("err %v", m.Err())
	}
	if m.And(m.Var(0), m.Var(1)) != False {
		t.Fatal("operations after the limit must return False")
	}
}

// BenchmarkNewSmall makes a Manager and a few nodes, as each operand of an
// LTLf conjunction does: the cost of a small Manager.
func BenchmarkNewSmall(b *testing.B) {
	for b.Loop() {
		m := New(nil, 8)
		x := False
		for i := range 8 {
			x = m.Or(x, m.And(m.Var(i), m.Var((i+1)%8)))
		}
		if x == False {
			b.Fatal("empty")
		}
	}
}

// RestrictCube is one Restrict per literal of the cube, on random
// functions and cubes.
func TestRestrictCube(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	const n = 6
	m := New(nil, n)
	for range 500 {
		e := randomExpr(r, m, n, 4)
		var lits []Literal
		want := e.node
		for v := range n {
			if r.Intn(2) == 0 {
				l := Literal{v, r.Intn(2) == 0}
				lits = append(lits, l)
				want = m.Restrict(want, l.Var, l.Value)
			}
		}
		r.Shuffle(len(lits), func(i, j int) { lits[i], lits[j] = lits[j], lits[i] })
		if got := m.RestrictCube(e.node, m.Cube(lits)); got != want {
			t.Fatalf("RestrictCube by %v: %d, want %d", lits, got, want)
		}
	}
}
