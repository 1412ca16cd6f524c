package transformer

import "encoding/binary"

// A head's scan is a deterministic automaton over class ids: its state is
// the vector best (the best class so far for every query class), and a
// position of class c moves it to a state that depends on the state and c
// only. scanMemo numbers the states met and tabulates the moves as they
// are made, so that a position costs one table look-up per head instead of
// a pass over all K query classes. Compiled models reach few states; past
// maxScanStates the scan goes on without the table.
type scanMemo struct {
	k     int
	vecs  [][]int32        // best vector of every state
	index map[string]int32 // best vector (little-endian bytes) → state
	next  []int32          // state*k + c → next state, −1 not yet computed
	key   []byte
	tmp   []int32
}

// maxScanStates bounds the states a scanMemo numbers (its move table has
// K entries per state). A variable so that tests can make it small.
var maxScanStates = 1 << 12

// newScanMemo returns the memo of a scan starting from start (nil when
// maxScanStates allows no state).
func newScanMemo(start []int32) *scanMemo {
	m := &scanMemo{k: len(start), index: map[string]int32{}, key: make([]byte, 4*len(start)), tmp: make([]int32, len(start))}
	if m.intern(start) < 0 {
		return nil
	}
	return m
}

// intern returns the state of best vector v (copied if new), or −1 past
// maxScanStates.
func (m *scanMemo) intern(v []int32) int32 {
	for q, c := range v {
		binary.LittleEndian.PutUint32(m.key[4*q:], uint32(c))
	}
	if id, ok := m.index[string(m.key)]; ok {
		return id
	}
	if len(m.vecs) >= maxScanStates {
		return -1
	}
	id := int32(len(m.vecs))
	m.vecs = append(m.vecs, append([]int32(nil), v...))
	m.index[string(m.key)] = id
	for range m.k {
		m.next = append(m.next, -1)
	}
	return id
}
