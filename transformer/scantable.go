package transformer

import (
	"encoding/binary"
	"math/bits"

	"github.com/brasp-dev/brasp/budget"
)

// A scan of the fast pass (fastLayer) is a deterministic automaton over the
// stored ids: its state is the tuple of its heads' states (each a state of
// the head's scanMemo), and the id of a position moves it to a state and
// gives an output id (the position's token or next-layer class) that
// depend on the state and the id only. scanTable numbers the tuples met and
// tabulates the moves as they are made, so that once warm a position costs
// one look-up in a table of ids × states entries, whatever the number of
// heads and query classes. A second table, of ids^s × states entries,
// tabulates the moves on s = 4 positions at once (for at most 16 ids) or 2,
// so that the chain of dependent look-ups along the word (what bounds a
// scan's speed) is s times shorter. The tables are bounded (maxScanTable,
// and an entry per 8 positions of the word); past the bound the group
// table is dropped, and the scan goes on computing every move when the
// move table is full or a head's own memo gives up.
type scanTable struct {
	k     int                           // number of distinct input ids
	heads []*headScan                   // whose states make the state
	slow  func(id int32) (int32, error) // a move computed: updates the heads, returns the output
	// next holds, at row+id, the move from the state of row row on id:
	// the next state's row << 32 | the output; −1 not yet computed. A
	// state's row is its number times k.
	next []int64
	row  int
	// groups holds, at a state's number·k^stride + the ids of stride
	// positions read as digits in base k (the first the highest), the
	// moves on them: the next state's number·k^stride << 32 | the outputs,
	// 32/stride bits each (the first the highest); −1 not yet computed;
	// nil when dropped or not worth it.
	groups       []int64
	stride, size int              // size = k^stride
	limit        int              // entries a table may hold
	index        map[string]int32 // heads' states (little-endian bytes) → state
	saved        []int32          // the heads' states of every state
	key          []byte
	off          bool // every move is computed (the heads hold the scan's state)
}

// maxScanTable bounds each table of a scanTable (in entries of 8 bytes),
// and scanTableFloor is what a table may hold whatever the word's length.
// Variables so that tests can make the first small and the second large.
var maxScanTable, scanTableFloor = 1 << 18, 1 << 12

// newScanTable returns the table of a scan over k distinct ids by heads
// (in their start states), whose moves slow computes, for a word of n
// positions whose ids are stored a byte each if byteIDs (its tables hold
// at most an entry per 8 positions past 4096 entries: a byte per
// position). Moves on four positions are tabulated for ids stored a byte
// each (their four outputs fill an entry), up to 16 ids when a table holds
// the rows of four states (at 16 ids, 512 KB a row: on long words the
// four-position moves repay the cache misses of the larger table; Dyck-1's
// multi-head model scans 14 ids).
func newScanTable(k, n int, byteIDs bool, heads []*headScan, slow func(id int32) (int32, error)) *scanTable {
	t := &scanTable{k: k, heads: heads, slow: slow, index: map[string]int32{}, key: make([]byte, 4*len(heads)),
		limit: min(maxScanTable, max(scanTableFloor, n/8))}
	switch {
	case n < 1<<10: // a short word: groups would not repay their table
	case byteIDs && k <= 16 && k*k*k*k <= t.limit/4:
		t.groups, t.stride, t.size = []int64{}, 4, k*k*k*k
	case k*k <= t.limit/8:
		t.groups, t.stride, t.size = []int64{}, 2, k*k
	}
	if t.intern() < 0 {
		t.stop()
	}
	return t
}

// intern returns the number of the heads' current states, numbering them
// if new, or −1 when a head has no memo or the table is full.
func (t *scanTable) intern() int32 {
	for j, s := range t.heads {
		if s.memo == nil {
			return -1
		}
		binary.LittleEndian.PutUint32(t.key[4*j:], uint32(s.state))
	}
	if id, ok := t.index[string(t.key)]; ok {
		return id
	}
	id := len(t.saved) / max(len(t.heads), 1)
	if (id+1)*t.k > t.limit {
		return -1
	}
	for _, s := range t.heads {
		t.saved = append(t.saved, s.state)
	}
	if len(t.heads) == 0 {
		t.saved = append(t.saved, 0)
	}
	t.index[string(t.key)] = int32(id)
	for range t.k {
		t.next = append(t.next, -1)
	}
	if t.groups != nil {
		if (id+1)*t.size > t.limit {
			t.groups = nil
		} else {
			for range t.size {
				t.groups = append(t.groups, -1)
			}
		}
	}
	return int32(id)
}

// stop makes the scan compute every move from now on: its table becomes
// one row that is never filled.
func (t *scanTable) stop() {
	t.off = true
	t.row = 0
	t.groups = nil
	t.next = make([]int64, t.k)
	for i := range t.next {
		t.next[i] = -1
	}
}

// miss computes the move on id from the current state, tabulating it.
func (t *scanTable) miss(id int32) (int32, error) {
	if t.off {
		return t.slow(id)
	}
	if len(t.heads) > 0 {
		from := t.saved[t.row/t.k*len(t.heads):]
		for j, s := range t.heads {
			s.state, s.best = from[j], s.memo.vecs[from[j]]
		}
	}
	out, err := t.slow(id)
	if err != nil {
		return 0, err
	}
	to := t.intern()
	if to < 0 {
		t.stop()
		return out, nil
	}
	t.next[t.row+int(id)] = int64(int(to)*t.k)<<32 | int64(uint32(out))
	t.row = int(to) * t.k
	return out, nil
}

// move makes the move on id from the current state, from the table or
// computed.
func (t *scanTable) move(id int32) (int32, error) {
	if v := t.next[t.row+int(id)]; v >= 0 {
		t.row = int(v >> 32)
		return int32(v), nil
	}
	return t.miss(id)
}

// finish leaves the heads in the scan's final state.
func (t *scanTable) finish() {
	if t.off || len(t.heads) == 0 {
		return
	}
	from := t.saved[t.row/t.k*len(t.heads):]
	for j, s := range t.heads {
		s.state, s.best = from[j], s.memo.vecs[from[j]]
	}
}

// run scans the ids of cls, right to left if reverse, and overwrites each
// with its output (widening cls when an output does not fit).
func (t *scanTable) run(b *budget.Budget, cls *classIDs, reverse bool) error {
	n := cls.len()
	for p := 0; p < n; {
		var c int32
		var err error
		switch {
		case cls.u8 != nil:
			p, c, err = scanTableIDs(b, t, cls.u8, p, reverse)
		case cls.u16 != nil:
			p, c, err = scanTableIDs(b, t, cls.u16, p, reverse)
		default:
			p, c, err = scanTableIDs(b, t, cls.u32, p, reverse)
		}
		if err != nil {
			return err
		}
		if p < n { // c does not fit: widen, and go on after p
			i := p
			if reverse {
				i = n - 1 - p
			}
			cls.set(i, c)
			p++
		}
	}
	t.finish()
	return nil
}

// scanTableIDs runs the scan from its p-th position on (see run),
// overwriting the ids. It stops at the first output that does not fit T,
// returning the scan index of its position (visited but not written) and
// the output; otherwise it returns len(ids). Written once per width so
// that the inner loops index the ids directly. A tabulated output always
// fits: an output is tabulated when it is computed, and one that does not
// fit stops the scan until the ids are widened.
func scanTableIDs[T uint8 | uint16 | uint32](b *budget.Budget, t *scanTable, ids []T, p int, reverse bool) (int, int32, error) {
	n := len(ids)
	limit := int64(^T(0))
	i, step := p, 1
	if reverse {
		i, step = n-1-p, -1
	}
	for p < n {
		end := min(n, (p/scanStep+1)*scanStep)
		// Four or two positions a look-up while the group table lasts and
		// the outputs fit its bits.
		if t.groups != nil && limit < 1<<(32/t.stride) {
			k, size, groups := t.k, t.size, t.groups
			row := t.row / k * size
			S := t.stride
			for ; p+S <= end; p, i = p+S, i+S*step {
				if b, ok := any(ids).([]uint8); ok {
					p, row = groupHitsU8(groups, b, k, S, row, p, end, reverse)
					if i = p; reverse {
						i = n - 1 - p
					}
					if p+S > end {
						break
					}
				}
				var x int
				if S == 4 {
					x = ((int(ids[i])*k+int(ids[i+step]))*k+int(ids[i+2*step]))*k + int(ids[i+3*step])
					if v := groups[row+x]; v >= 0 {
						row = int(v >> 32)
						ids[i], ids[i+step], ids[i+2*step], ids[i+3*step] = T(v>>24), T(v>>16), T(v>>8), T(v)
						continue
					}
				} else {
					x = int(ids[i])*k + int(ids[i+step])
					if v := groups[row+x]; v >= 0 {
						row = int(v >> 32)
						ids[i], ids[i+step] = T(v>>16), T(v)
						continue
					}
				}
				from := row
				t.row = row / size * k
				j, o, outs, err := groupMoves(t, ids, i, step, limit)
				if err != nil {
					return 0, 0, err
				}
				if j < S {
					return p + j, o, nil
				}
				if groups = t.groups; groups == nil { // dropped or stopped
					p, i = p+S, i+S*step
					break
				}
				row = t.row / k * size
				groups[from+x] = int64(row)<<32 | outs
			}
			if t.groups != nil { // else t.row is already the state's
				t.row = row / size * k
			}
		}
		row, next := t.row, t.next
		for ; p < end; p, i = p+1, i+step {
			id := int(ids[i])
			v := next[row+id]
			if v < 0 {
				t.row = row
				out, err := t.miss(int32(id))
				if err != nil {
					return 0, 0, err
				}
				if int64(out) > limit {
					return p, out, nil
				}
				row, next = t.row, t.next
				v = int64(uint32(out))
			} else {
				row = int(v >> 32)
			}
			ids[i] = T(v)
		}
		t.row = row
		if p%scanStep == 0 {
			if err := b.Step(scanStep); err != nil {
				return 0, 0, err
			}
		}
	}
	return n, 0, nil
}

// groupMoves makes the moves on the stride ids at i, i+step, ...,
// overwriting each with its output, and returns stride and the outputs
// packed as in groups; or, at the first output that does not fit T, its
// index j among them (positions before it written) and the output.
func groupMoves[T uint8 | uint16 | uint32](t *scanTable, ids []T, i, step int, limit int64) (j int, o int32, outs int64, err error) {
	bits := 32 / t.stride
	for j = range t.stride {
		if o, err = t.move(int32(ids[i+j*step])); err != nil {
			return 0, 0, 0, err
		}
		if int64(o) > limit {
			return j, o, 0, nil
		}
		ids[i+j*step] = T(o)
		outs = outs<<bits | int64(o)
	}
	return t.stride, 0, outs, nil
}

// groupHitsU8 makes the tabulated moves of a scan over ids stored a byte
// each, stride positions a look-up from scan index p on (row the state's
// row in groups), reading and writing the stride ids of a look-up in one
// load and one store; it stops before end or at the first group not yet
// tabulated, and returns the scan index reached and the state's row.
func groupHitsU8(groups []int64, ids []uint8, k, stride, row, p, end int, reverse bool) (int, int) {
	n := len(ids)
	switch {
	case stride == 4 && !reverse:
		for ; p+4 <= end; p += 4 {
			w := binary.LittleEndian.Uint32(ids[p : p+4])
			x := ((int(w&0xff)*k+int(w>>8&0xff))*k+int(w>>16&0xff))*k + int(w>>24)
			v := groups[row+x]
			if v < 0 {
				break
			}
			row = int(v >> 32)
			binary.LittleEndian.PutUint32(ids[p:p+4], bits.ReverseBytes32(uint32(v)))
		}
	case stride == 4:
		for ; p+4 <= end; p += 4 {
			i := n - 4 - p
			w := binary.LittleEndian.Uint32(ids[i : i+4])
			x := ((int(w>>24)*k+int(w>>16&0xff))*k+int(w>>8&0xff))*k + int(w&0xff)
			v := groups[row+x]
			if v < 0 {
				break
			}
			row = int(v >> 32)
			binary.LittleEndian.PutUint32(ids[i:i+4], uint32(v))
		}
	case stride == 2 && !reverse:
		for ; p+2 <= end; p += 2 {
			w := binary.LittleEndian.Uint16(ids[p : p+2])
			x := int(w&0xff)*k + int(w>>8)
			v := groups[row+x]
			if v < 0 {
				break
			}
			row = int(v >> 32)
			binary.LittleEndian.PutUint16(ids[p:p+2], uint16(v)<<8|uint16(v>>16)&0xff)
		}
	case stride == 2:
		for ; p+2 <= end; p += 2 {
			i := n - 2 - p
			w := binary.LittleEndian.Uint16(ids[i : i+2])
			x := int(w>>8)*k + int(w&0xff)
			v := groups[row+x]
			if v < 0 {
				break
			}
			row = int(v >> 32)
			binary.LittleEndian.PutUint16(ids[i:i+2], uint16(v)&0xff|uint16(v>>16)<<8)
		}
	}
	return p, row
}
