package transformer

import "encoding/binary"

// tupleIndex numbers fixed-length tuples of class ids (each in [-1, radix−1),
// −1 for "no position attended") densely, in order of first occurrence. With
// few classes a tuple is looked up by its mixed-radix slot in a table,
// otherwise in a map. The fast pass numbers with it the combinations (own
// class, attended classes) of a layer and the attended classes of the heads
// it scans apart.
type tupleIndex struct {
	radix, length int
	table         []int32 // slot → id, −1 unknown; nil when too large
	index         map[string]int32
	key           []byte
	stored        []int32 // the tuples, length entries per id
}

// maxTupleTable bounds the dense table of a tupleIndex (in entries).
const maxTupleTable = 1 << 16

func newTupleIndex(radix, length int) *tupleIndex {
	x := &tupleIndex{radix: radix, length: length}
	size := 1
	for range length {
		size *= radix
		if size > maxTupleTable {
			size = 0
			break
		}
	}
	if size > 0 {
		x.table = make([]int32, size)
		for k := range x.table {
			x.table[k] = -1
		}
	} else {
		x.index = map[string]int32{}
		x.key = make([]byte, 4*length)
	}
	return x
}

// lookup returns the id of t and whether t is new (then numbered next).
func (x *tupleIndex) lookup(t []int32) (int32, bool) {
	if x.table != nil {
		slot := 0
		for _, c := range t {
			slot = slot*x.radix + int(c+1)
		}
		if id := x.table[slot]; id >= 0 {
			return id, false
		}
		id := x.add(t)
		x.table[slot] = id
		return id, true
	}
	for k, c := range t {
		binary.LittleEndian.PutUint32(x.key[4*k:], uint32(c))
	}
	if id, ok := x.index[string(x.key)]; ok {
		return id, false
	}
	id := x.add(t)
	x.index[string(x.key)] = id
	return id, true
}

func (x *tupleIndex) add(t []int32) int32 {
	id := int32(len(x.stored) / x.length)
	x.stored = append(x.stored, t...)
	return id
}

// tuple returns the tuple numbered id.
func (x *tupleIndex) tuple(id int32) []int32 {
	return x.stored[int(id)*x.length : int(id+1)*x.length]
}
