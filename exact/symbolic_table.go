package exact

// tripleTable maps triples of int32 to int32: the hash-consing and memo
// tables of leafDiagram, which a Go map made three quarters of an attention
// step's time. Open addressing with linear probing, at most half full;
// Clear is constant time (entries of an older epoch count as empty).
type tripleTable struct {
	slots []tripleSlot
	n     int
	shift uint
	epoch uint32
}

type tripleSlot struct {
	a, b, c int32
	epoch   uint32
	v       int32
}

func (t *tripleTable) slot(a, b, c int32) int {
	h := (uint64(uint32(a))<<32 | uint64(uint32(b))) * 0x9e3779b97f4a7c15
	h = (h ^ uint64(uint32(c))) * 0xc2b2ae3d27d4eb4f
	return int(h >> t.shift)
}

// Clear empties the table.
func (t *tripleTable) Clear() {
	t.n = 0
	t.epoch++
	if t.epoch == 0 {
		clear(t.slots)
		t.epoch = 1
	}
}

func (t *tripleTable) get(a, b, c int32) (int32, bool) {
	if t.n == 0 {
		return 0, false
	}
	mask := len(t.slots) - 1
	for i := t.slot(a, b, c); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.epoch != t.epoch {
			return 0, false
		}
		if s.a == a && s.b == b && s.c == c {
			return s.v, true
		}
	}
}

func (t *tripleTable) put(a, b, c, v int32) {
	if t.epoch == 0 {
		t.epoch = 1
	}
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	mask := len(t.slots) - 1
	for i := t.slot(a, b, c); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.epoch != t.epoch {
			*s = tripleSlot{a, b, c, t.epoch, v}
			t.n++
			return
		}
		if s.a == a && s.b == b && s.c == c {
			s.v = v
			return
		}
	}
}

func (t *tripleTable) grow() {
	old, epoch := t.slots, t.epoch
	t.slots = make([]tripleSlot, max(2*len(old), 256))
	t.shift = 64
	for s := len(t.slots); s > 1; s >>= 1 {
		t.shift--
	}
	t.n = 0
	for _, s := range old {
		if s.epoch == epoch {
			t.put(s.a, s.b, s.c, s.v)
		}
	}
}
