package depth

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"slices"

	"github.com/brasp-dev/brasp/budget"
)

// TypeID names an interned type of one level of a Table.
type TypeID = int32

// A witnessPair stands for a position j on one side of the position i
// being typed: T is the depth-(l−1) type of j, and S the set of depth-(l−1)
// types of the positions strictly between j and i (sorted). "φ since ψ"
// holds at i exactly when some pair has T ⊨ ψ and every type of S ⊨ φ.
type witnessPair struct {
	T TypeID
	S []TypeID
}

// An antichain is the ⊆-minimal witness pairs of a position, sorted: a pair
// (T, S) is dropped when another (T, S') has S' ⊆ S, since it then decides
// no since formula the other does not already decide.
type antichain []witnessPair

// typeInfo is an interned type of level l ≥ 1: the position's label and its
// antichains toward the past and (in fragments with until) the future.
type typeInfo struct {
	label        int32
	past, future antichain
}

// Table interns the types of one fragment, level by level, so that types of
// different words and positions can be compared by number. Level 0's types
// are labels. A Table is not safe for concurrent use.
type Table struct {
	atoms Atoms
	frag  Fragment
	// levels[l-1] holds the types of level l ≥ 1.
	levels []*level
	labels map[int32]TypeID
	// labelOf[t] is the label of level-0 type t.
	labelOf []int32
	mem     *budget.Meter
	buf     []byte
}

type level struct {
	ids   map[string]TypeID
	types []typeInfo
}

// typeBytes limits the memory held by the interned types of one analysis.
var typeBytes = budget.Define("depth-type-bytes", 256<<20, "bytes",
	"memory of the interned Ehrenfeucht–Fraïssé types of brasp depth")

// NewTable returns an empty table for a fragment (All is typed as
// SinceUntil).
func NewTable(b *budget.Budget, atoms Atoms, frag Fragment) *Table {
	return &Table{atoms: atoms, frag: frag, labels: map[int32]TypeID{}, mem: b.Meter(typeBytes, "depth types")}
}

// Levels is the number of levels above 0 the table has typed so far.
func (t *Table) Levels() int { return len(t.levels) }

// NumTypes is the number of distinct types of level l seen so far.
func (t *Table) NumTypes(l int) int {
	if l == 0 {
		return len(t.labelOf)
	}
	if l > len(t.levels) {
		return 0
	}
	return len(t.levels[l-1].types)
}

// labelType interns a label as a level-0 type.
func (t *Table) labelType(label int32) TypeID {
	if id, ok := t.labels[label]; ok {
		return id
	}
	id := TypeID(len(t.labelOf))
	t.labels[label] = id
	t.labelOf = append(t.labelOf, label)
	return id
}

// intern returns the id of a level-l type (l ≥ 1), adding it if new. The
// antichains are kept by the table when the type is new; callers must not
// modify them afterwards.
func (t *Table) intern(l int, label int32, past, future antichain) (TypeID, error) {
	for len(t.levels) < l {
		t.levels = append(t.levels, &level{ids: map[string]TypeID{}})
	}
	lv := t.levels[l-1]
	key := t.key(label, past, future)
	if id, ok := lv.ids[string(key)]; ok {
		return id, nil
	}
	if err := t.mem.Add(int64(2*len(key) + 64)); err != nil {
		return 0, err
	}
	id := TypeID(len(lv.types))
	lv.ids[string(key)] = id
	lv.types = append(lv.types, typeInfo{label: label, past: past, future: future})
	return id, nil
}

func (t *Table) key(label int32, past, future antichain) []byte {
	b := binary.AppendVarint(t.buf[:0], int64(label))
	b = appendAntichain(b, past)
	b = appendAntichain(b, future)
	t.buf = b
	return b
}

func appendAntichain(b []byte, a antichain) []byte {
	b = binary.AppendUvarint(b, uint64(len(a)))
	for _, p := range a {
		b = binary.AppendUvarint(b, uint64(p.T))
		b = binary.AppendUvarint(b, uint64(len(p.S)))
		for _, s := range p.S {
			b = binary.AppendUvarint(b, uint64(s))
		}
	}
	return b
}

// info is the interned type id of level l ≥ 1.
func (t *Table) info(l int, id TypeID) *typeInfo { return &t.levels[l-1].types[id] }

// Label is the label of a type of any level.
func (t *Table) Label(l int, id TypeID) int32 {
	if l == 0 {
		return t.labelOf[id]
	}
	return t.info(l, id).label
}

// advance moves an antichain one position on: the position just passed,
// of type x, joins the in-between set of every pair and becomes a pair of its
// own with nothing in between.
func advance(a antichain, x TypeID) antichain {
	out := make(antichain, 0, len(a)+1)
	for _, p := range a {
		if p.T == x {
			// (x, ∅) is below every (x, S).
			continue
		}
		out = append(out, witnessPair{T: p.T, S: insertSorted(p.S, x)})
	}
	out = append(out, witnessPair{T: x})
	return minimal(out)
}

// insertSorted returns s ∪ {x} as a new sorted slice (s itself if x ∈ s).
func insertSorted(s []TypeID, x TypeID) []TypeID {
	k, found := slices.BinarySearch(s, x)
	if found {
		return s
	}
	out := make([]TypeID, 0, len(s)+1)
	out = append(out, s[:k]...)
	out = append(out, x)
	return append(out, s[k:]...)
}

// subset reports whether sorted a ⊆ sorted b.
func subset(a, b []TypeID) bool {
	if len(a) > len(b) {
		return false
	}
	k := 0
	for _, x := range a {
		for k < len(b) && b[k] < x {
			k++
		}
		if k == len(b) || b[k] != x {
			return false
		}
		k++
	}
	return true
}

// minimal sorts the pairs and keeps the ⊆-minimal ones of each T (one copy
// of equal ones).
func minimal(a antichain) antichain {
	slices.SortFunc(a, func(x, y witnessPair) int {
		if x.T != y.T {
			return int(x.T - y.T)
		}
		if len(x.S) != len(y.S) {
			return len(x.S) - len(y.S)
		}
		return slices.Compare(x.S, y.S)
	})
	out := a[:0]
	for k, p := range a {
		dominated := false
		// Pairs of the same T with smaller or equal size come first.
		for m := len(out) - 1; m >= 0 && out[m].T == p.T; m-- {
			if subset(out[m].S, p.S) {
				dominated = true
				break
			}
		}
		_ = k
		if !dominated {
			out = append(out, p)
		}
	}
	return out
}

// covers reports whether some pair of a is below (T, S): then every since
// formula that (T, S) makes true is true by a's pairs too.
func (a antichain) covers(p witnessPair) bool {
	for _, q := range a {
		if q.T == p.T && subset(q.S, p.S) {
			return true
		}
	}
	return false
}

// WordTypes computes the types of every position of a word, for levels
// 0..k: types[l][i] is the depth-l type of position i. The word is read with
// the table's atoms (letters and predicates).
// The k+1 rows of n ids are charged to depth-type-bytes before they are
// allocated, so a huge k is refused by the limit, not by the runtime.
func (t *Table) WordTypes(b *budget.Budget, w []int, k int) ([][]TypeID, error) {
	n := len(w)
	need := rowsBytes(k, n)
	if err := t.mem.Add(need); err != nil {
		t.mem.Release(need)
		return nil, err
	}
	defer t.mem.Release(need)
	types := make([][]TypeID, k+1)
	types[0] = make([]TypeID, n)
	labels := make([]int32, n)
	for i, a := range w {
		labels[i] = t.atoms.label(a, i+1, n)
		types[0][i] = t.labelType(labels[i])
	}
	pasts := make([]antichain, n)
	futures := make([]antichain, n)
	for l := 1; l <= k; l++ {
		prev := types[l-1]
		var a antichain
		for i := 0; i < n; i++ {
			if i > 0 {
				a = advance(a, prev[i-1])
			}
			pasts[i] = a
		}
		if t.frag.hasUntil() {
			a = nil
			for i := n - 1; i >= 0; i-- {
				if i < n-1 {
					a = advance(a, prev[i+1])
				}
				futures[i] = a
			}
		}
		cur := make([]TypeID, n)
		for i := range n {
			id, err := t.intern(l, labels[i], pasts[i], futures[i])
			if err != nil {
				return nil, err
			}
			cur[i] = id
		}
		if err := b.Step(int64(n)); err != nil {
			return nil, err
		}
		types[l] = cur
	}
	return types, nil
}

// rowsBytes is the memory of k+1 rows of n type ids with their slice
// headers, saturating at the largest int64.
func rowsBytes(k, n int) int64 {
	row := int64(24 + 4*n)
	if int64(k) >= math.MaxInt64/row-1 {
		return math.MaxInt64
	}
	return (int64(k) + 1) * row
}

// WordType is the depth-k type of a word's last position: two non-empty
// words get the same WordType exactly when every formula of the fragment of
// depth ≤ k, read at the last position, gives them the same verdict.
func (t *Table) WordType(b *budget.Budget, w []int, k int) (TypeID, error) {
	types, err := t.WordTypes(b, w, k)
	if err != nil {
		return 0, err
	}
	return types[k][len(w)-1], nil
}

// typeHash is a hash of the canonical form of a type, independent of the
// numbering of the table: the label and, for each antichain, the sorted
// hashes of its pairs, each pair hashed from its type's hash and the sorted
// hashes of its set. Equal types of two tables get equal hashes.
func (t *Table) typeHash(seed maphash.Seed, l int, id TypeID) uint64 {
	memo := make([]map[TypeID]uint64, l+1)
	for i := range memo {
		memo[i] = map[TypeID]uint64{}
	}
	var hash func(l int, id TypeID) uint64
	var buf []byte
	pairHashes := func(l int, a antichain) []uint64 {
		hs := make([]uint64, len(a))
		for k, p := range a {
			set := make([]uint64, len(p.S))
			for m, s := range p.S {
				set[m] = hash(l-1, s)
			}
			slices.Sort(set)
			b := binary.LittleEndian.AppendUint64(nil, hash(l-1, p.T))
			for _, x := range set {
				b = binary.LittleEndian.AppendUint64(b, x)
			}
			hs[k] = maphash.Bytes(seed, b)
		}
		slices.Sort(hs)
		return hs
	}
	hash = func(l int, id TypeID) uint64 {
		if h, ok := memo[l][id]; ok {
			return h
		}
		// The pairs' hashes first: they recurse, and buf is shared.
		var sides [][]uint64
		if l > 0 {
			info := t.info(l, id)
			sides = [][]uint64{pairHashes(l, info.past), pairHashes(l, info.future)}
		}
		buf = binary.AppendVarint(buf[:0], int64(l))
		buf = binary.AppendVarint(buf, int64(t.Label(l, id)))
		for _, hs := range sides {
			buf = binary.AppendUvarint(buf, uint64(len(hs)))
			for _, x := range hs {
				buf = binary.LittleEndian.AppendUint64(buf, x)
			}
		}
		h := maphash.Bytes(seed, buf)
		memo[l][id] = h
		return h
	}
	return hash(l, id)
}
