package bdd

// Marks is a set of nodes that empties in constant time, for traversals
// that visit many diagrams one after another.
type Marks struct {
	stamp []uint32
	epoch uint32
}

// Clear empties the set.
func (s *Marks) Clear() {
	s.epoch++
	if s.epoch == 0 {
		clear(s.stamp)
		s.epoch = 1
	}
}

// Add adds x and reports whether it was absent.
func (s *Marks) Add(x Node) bool {
	if int(x) >= len(s.stamp) {
		// From 64 stamps up, doubling: a short run's many small traversals
		// touch a few hundred bytes each, not a fresh 4 KB page.
		n := max(2*len(s.stamp), int(x)+1, 64)
		s.stamp = append(s.stamp, make([]uint32, n-len(s.stamp))...)
	}
	if s.epoch == 0 {
		s.epoch = 1
	}
	if s.stamp[x] == s.epoch {
		return false
	}
	s.stamp[x] = s.epoch
	return true
}

// NodeMap maps nodes to values, cleared in constant time.
type NodeMap[V any] struct {
	marks Marks
	vals  []V
}

// Clear empties the map.
func (m *NodeMap[V]) Clear() { m.marks.Clear() }

// Get returns the value of x and whether it is set.
func (m *NodeMap[V]) Get(x Node) (V, bool) {
	var zero V
	if int(x) >= len(m.marks.stamp) || m.marks.epoch == 0 || m.marks.stamp[x] != m.marks.epoch {
		return zero, false
	}
	return m.vals[x], true
}

// Set sets the value of x.
func (m *NodeMap[V]) Set(x Node, v V) {
	m.marks.Add(x)
	if len(m.vals) < len(m.marks.stamp) {
		m.vals = append(m.vals, make([]V, len(m.marks.stamp)-len(m.vals))...)
	}
	m.vals[x] = v
}
