package bdd

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
