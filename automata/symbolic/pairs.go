package symbolic

import "github.com/brasp-dev/brasp/bdd"

// pairTable maps pairs of nodes (of two managers) to nodes: the memo of a
// product walk, where a Go map's hashing was a fifth of a product's time.
// Open addressing with linear probing over a power-of-two table kept at
// most half full.
type pairTable struct {
	keys  []uint64
	vals  []bdd.Node
	n     int
	shift uint
}

const emptyPair = ^uint64(0) // (-1, -1): never a key, as u ≥ 0

func pairKey(u, v bdd.Node) uint64 { return uint64(uint32(u))<<32 | uint64(uint32(v)) }

func (t *pairTable) slot(k uint64) int {
	return int((k * 0x9e3779b97f4a7c15) >> t.shift)
}

func (t *pairTable) get(u, v bdd.Node) (bdd.Node, bool) {
	if t.n == 0 {
		return 0, false
	}
	k := pairKey(u, v)
	mask := len(t.keys) - 1
	for i := t.slot(k); ; i = (i + 1) & mask {
		switch t.keys[i] {
		case k:
			return t.vals[i], true
		case emptyPair:
			return 0, false
		}
	}
}

func (t *pairTable) put(u, v, x bdd.Node) {
	if 2*(t.n+1) > len(t.keys) {
		t.resize()
	}
	k := pairKey(u, v)
	mask := len(t.keys) - 1
	for i := t.slot(k); ; i = (i + 1) & mask {
		switch t.keys[i] {
		case k:
			t.vals[i] = x
			return
		case emptyPair:
			t.keys[i], t.vals[i] = k, x
			t.n++
			return
		}
	}
}

// bytes is the memory of the table's slots.
func (t *pairTable) bytes() int64 { return int64(len(t.keys)) * (8 + 4) }

func (t *pairTable) resize() {
	size := max(2*len(t.keys), 16) // small for the many small tables of a short run
	keys, vals := t.keys, t.vals
	t.keys, t.vals = make([]uint64, size), make([]bdd.Node, size)
	for i := range t.keys {
		t.keys[i] = emptyPair
	}
	t.shift = 64
	for s := size; s > 1; s >>= 1 {
		t.shift--
	}
	t.n = 0
	for i, k := range keys {
		if k != emptyPair {
			t.put(bdd.Node(int32(k>>32)), bdd.Node(int32(uint32(k))), vals[i])
		}
	}
}
