package learn

import (
	"iter"
	"math/bits"
)

// trie holds the words the cache has seen, one node per word and its
// prefixes: node 0 is the empty word, kid(n, a) the node of word·a. A node
// holds its verdict and its children.
//
// Most nodes have one child or none: a word asked is an access word
// followed by a test suffix, and the letters of the suffix lead to words
// that nothing else passes through. So a node holds one child inline (its
// index, and the letter in the node), and gets a row of k entries only
// when a second child comes: 6 bytes a node and 4k bytes a branching
// node, where a row for every node cost 1+4k (41 bytes over 10 letters).
// Over more than denseLetters letters (the valuations of many
// propositions) a row would be mostly empty: a map keyed by node·k+letter
// holds the children of a branching node instead, and a list per node
// names them.
//
// Nodes and rows live in pages of fixed size, so the trie grows without
// copying what it holds.
type trie struct {
	k     int
	nodes []*nodePage
	n     int32 // nodes in use
	// rows[r>>rowShift] holds rows r of k entries (dense mode).
	rows     [][]int32
	rowShift uint
	nrows    int32
	// Sparse mode (k > denseLetters): the children of a branching node
	// are in sparse, keyed by node·k+letter, and listed in kids.
	sparse map[uint64]int32
	kids   map[int32][]kid
	bytes  int64
}

// kid is a child c of a node by the letter a (sparse mode).
type kid struct{ a, c int32 }

// nodeBits is the log of the nodes of a page.
const nodeBits = 16

// nodePage holds 2^nodeBits nodes: a node's verdict, and its children:
// down 0 for none, a positive node for a single child (whose letter is
// lab), -(r+1) for row r (dense mode) or the map (sparse mode, -1).
type nodePage struct {
	out  [1 << nodeBits]int8
	lab  [1 << nodeBits]uint16
	down [1 << nodeBits]int32
}

// inlineLetters is the most letters for which a node holds a single child
// inline (lab holds its letter).
const inlineLetters = 1 << 16

// denseLetters is the most letters for which a branching node holds a row
// of children.
const denseLetters = 64

// Bytes of a node and of a branching node's children beyond the first.
const (
	nodeSize      = 1 + 2 + 4
	sparseKidSize = 48 + 8 // a map entry and a list entry
)

// rowBytes is what a branching node's row costs with k letters.
func rowBytes(k int) int64 {
	if k > denseLetters {
		return 0
	}
	return 4 * int64(k)
}

// nodeBytes is the most a word's answers cost a letter: its node, and the
// row (or the map entries) its parent needs when the node is the parent's
// second child.
func nodeBytes(k int) int64 {
	if k > denseLetters {
		return nodeSize + 2*sparseKidSize
	}
	return nodeSize + rowBytes(k)
}

func newTrie(k int) *trie {
	t := &trie{k: k, rowShift: uint(max(0, 16-bits.Len(uint(k))))}
	if k > denseLetters {
		t.sparse = map[uint64]int32{}
		t.kids = map[int32][]kid{}
	}
	t.add() // the empty word
	return t
}

// add appends a node without children, verdict unknown, and returns it.
func (t *trie) add() int32 {
	n := t.n
	if int(n>>nodeBits) == len(t.nodes) {
		t.nodes = append(t.nodes, new(nodePage))
	}
	t.n++
	t.bytes += nodeSize
	return n
}

func (t *trie) page(n int32) (*nodePage, int32) {
	return t.nodes[n>>nodeBits], n & (1<<nodeBits - 1)
}

// out is the verdict of node n.
func (t *trie) out(n int32) int8 {
	p, i := t.page(n)
	return p.out[i]
}

// setOut sets the verdict of node n.
func (t *trie) setOut(n int32, v int8) {
	p, i := t.page(n)
	p.out[i] = v
}

// row returns row r (dense mode).
func (t *trie) row(r int32) []int32 {
	return t.rows[r>>t.rowShift][int(r&(1<<t.rowShift-1))*t.k:][:t.k]
}

// kid is the node of word·a when n is the node of word (0 for none).
func (t *trie) kid(n int32, a int) int32 {
	p, i := t.page(n)
	switch d := p.down[i]; {
	case d > 0:
		if int(p.lab[i]) == a {
			return d
		}
		return 0
	case d < 0:
		if t.sparse != nil {
			return t.sparse[uint64(n)*uint64(t.k)+uint64(a)]
		}
		return t.row(-d - 1)[a]
	}
	return 0
}

// addKid makes a new node the child of n by a (which has none) and
// returns it.
func (t *trie) addKid(n int32, a int) int32 {
	c := t.add()
	p, i := t.page(n)
	switch d := p.down[i]; {
	case d == 0 && t.k <= inlineLetters:
		p.down[i], p.lab[i] = c, uint16(a)
	case t.sparse != nil:
		if d > 0 {
			// The single child moves to the map and the list.
			t.sparseLink(n, int(p.lab[i]), d)
		}
		p.down[i] = -1
		t.sparseLink(n, a, c)
	case d > 0:
		r := t.newRow()
		row := t.row(r)
		row[p.lab[i]], row[a] = d, c
		p.down[i] = -(r + 1)
	default:
		t.row(-d - 1)[a] = c
	}
	return c
}

// newRow appends an empty row (dense mode).
func (t *trie) newRow() int32 {
	r := t.nrows
	if int(r>>t.rowShift) == len(t.rows) {
		t.rows = append(t.rows, make([]int32, t.k<<t.rowShift))
	}
	t.nrows++
	t.bytes += rowBytes(t.k)
	return r
}

// sparseLink records c as the child of n by a (sparse mode).
func (t *trie) sparseLink(n int32, a int, c int32) {
	t.sparse[uint64(n)*uint64(t.k)+uint64(a)] = c
	t.kids[n] = append(t.kids[n], kid{int32(a), c})
	t.bytes += sparseKidSize
}

// growth is what adding a child to n costs in bytes (for the meter,
// before the child is added).
func (t *trie) growth(n int32) int64 {
	p, i := t.page(n)
	switch d := p.down[i]; {
	case d == 0 && t.k <= inlineLetters:
		return nodeSize
	case t.sparse != nil && d > 0:
		return nodeSize + 2*sparseKidSize
	case t.sparse != nil:
		return nodeSize + sparseKidSize
	case d > 0:
		return nodeSize + rowBytes(t.k)
	}
	return nodeSize
}

// children yields the letters a with a child of n, and the child.
func (t *trie) children(n int32) iter.Seq2[int, int32] {
	return func(yield func(int, int32) bool) {
		p, i := t.page(n)
		switch d := p.down[i]; {
		case d > 0:
			yield(int(p.lab[i]), d)
		case d < 0 && t.sparse != nil:
			for _, x := range t.kids[n] {
				if !yield(int(x.a), x.c) {
					return
				}
			}
		case d < 0:
			for a, x := range t.row(-d - 1) {
				if x != 0 && !yield(a, x) {
					return
				}
			}
		}
	}
}
