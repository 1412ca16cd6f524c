package transformer

import (
	"fmt"

	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/position"
)

// The fast forward pass, written once over its arithmetic. By Lemma 4.3 a
// layer has finitely many distinct activation vectors (classes), so the
// pass keeps, for every position, only the id of its class in the current
// layer (classIDs: a byte per position while a layer has at most 256
// classes), overwriting the ids in place layer after layer. A classKernel
// computes on classes: the embedding of a symbol at a position, the ranks
// of the scores between classes for a head, and the class a combination
// (own class, attended classes) gives in the next layer; fast_float.go has
// the kernel in checked float64, fast_exact.go the one in exact rationals.
//
// A layer without heads maps each class to one class of the next layer:
// one pass rewrites the ids. Otherwise a layer is computed in at most three
// scans of the ids. Heads without a
// mask attend, from every position, to the best position of the whole
// word for the query's class: one scan finds it for every class. Heads
// masked to the future (j < i or j ≤ i) are scanned left to right, heads
// masked to the past right to left, each keeping the best class so far per
// query class. When a layer has heads of both directions, a right-to-left
// scan first numbers the classes its past-masked heads attend to at each
// position (a tupleIndex) and stores that number per position; the final
// scan, in the other direction, combines every head's choice with the
// position's own class and overwrites the id. So the memory per position
// is the word, the class ids, and, for layers with both directions, the
// numbers of the attended tuples.

// classKernel computes the fast pass on classes (see above). Its class ids
// are dense: the classes of the current layer are 0..numClasses()−1.
type classKernel interface {
	// embed returns the layer-0 class of symbol s at 0-based position i of
	// a word of length n.
	embed(s, i, n int) (int32, error)
	// ranks returns, for head h of layer l, the rank of every class's
	// score for every query class of the current layer (0 for the least).
	ranks(l, h int) ([][]int32, error)
	// combine returns the next layer's class of a position whose own class
	// is own and whose heads attend to the classes chosen (−1 for none).
	combine(l int, own int32, chosen []int32) (int32, error)
	// advance makes the next layer's classes the current ones.
	advance()
	// numClasses is the number of classes of the current layer.
	numClasses() int
	// activations returns the final vectors with the classes of the
	// positions.
	activations(cls classIDs) *Activations
}

// scanStep is how many positions a scan covers between two looks at the
// budget.
const scanStep = 1 << 16

// fastPass runs the fast pass on the word of n symbols given by sym, with
// kernel k, within b's work and context.
func (r *Runner) fastPass(b *budget.Budget, n int, sym func(i int) int, k classKernel) (*Activations, error) {
	m := r.m
	if n == 0 {
		return nil, ErrEmptyWord
	}
	if err := b.Err(); err != nil {
		return nil, err
	}
	cls := newClassIDs(n)
	// Layer 0: the class of (symbol, position key), computed once each.
	bySym := make([]int32, len(m.Embedding))
	for s := range bySym {
		bySym[s] = -1
	}
	type embKey struct {
		sym int
		pos positionKey
	}
	byKey := map[embKey]int32{}
	for i := range n {
		s := sym(i)
		if s < 0 || s >= len(m.Embedding) {
			return nil, fmt.Errorf("position %d: symbol index %d is not in the alphabet (size %d)", i+1, s, len(m.Embedding))
		}
		var c int32
		if len(m.Position) == 0 {
			c = bySym[s]
			if c < 0 {
				var err error
				if c, err = k.embed(s, i, n); err != nil {
					return nil, err
				}
				bySym[s] = c
			}
		} else {
			key := embKey{s, keyOf(i+1, n, r.period)}
			var ok bool
			if c, ok = byKey[key]; !ok {
				var err error
				if c, err = k.embed(s, i, n); err != nil {
					return nil, err
				}
				byKey[key] = c
			}
		}
		cls.set(i, c)
		if i%scanStep == scanStep-1 {
			if err := b.Step(scanStep); err != nil {
				return nil, err
			}
		}
	}
	var aux classIDs
	for l := range m.Layers {
		if err := r.fastLayer(b, l, k, &cls, &aux); err != nil {
			return nil, err
		}
		k.advance()
	}
	return k.activations(cls), nil
}

// headScan is the running state of one head's scan: the class of the best
// position so far for every query class (−1 if none yet).
type headScan struct {
	h           int
	rank        [][]int32
	best        []int32 // the state's vector (read only while memo is set)
	strict      bool    // the position itself is masked (j < i or j > i)
	preferLater bool    // ties go to the position met later in the scan
	memo        *scanMemo
	state       int32 // best's state in memo
}

func newHeadScan(h int, hd *Head, rank [][]int32) *headScan {
	s := &headScan{h: h, rank: rank, best: make([]int32, len(rank))}
	for q := range s.best {
		s.best[q] = -1
	}
	s.strict = hd.Mask == position.MaskFuture || hd.Mask == position.MaskPast
	forward := hd.Mask == position.MaskFuture || hd.Mask == position.MaskFutureOrSelf || hd.Mask == position.MaskNone
	s.preferLater = (hd.Tiebreak == position.Rightmost) == forward
	s.memo = newScanMemo(s.best)
	s.best = s.memo.vecs[0]
	return s
}

// update makes the position of class cj, met now, the best one for every
// query class that ranks it higher than its best so far: a move of the
// memo's table, computed the first time it is made.
func (s *headScan) update(cj int32) {
	if s.memo == nil {
		s.apply(s.best, cj)
		return
	}
	m := s.memo
	slot := int(s.state)*m.k + int(cj)
	if t := m.next[slot]; t >= 0 {
		s.state, s.best = t, m.vecs[t]
		return
	}
	copy(m.tmp, s.best)
	s.apply(m.tmp, cj)
	t := m.intern(m.tmp)
	if t < 0 { // too many states: go on without the table
		s.best = append([]int32(nil), m.tmp...)
		s.memo = nil
		return
	}
	m.next[slot] = t
	s.state, s.best = t, m.vecs[t]
}

// apply is update on the vector best itself.
func (s *headScan) apply(best []int32, cj int32) {
	for q, bq := range best {
		if bq < 0 {
			best[q] = cj
			continue
		}
		rj, rb := s.rank[q][cj], s.rank[q][bq]
		if rj > rb || (rj == rb && s.preferLater) {
			best[q] = cj
		}
	}
}

// visit updates the scan with the position of class own and returns the
// class it attends to.
func (s *headScan) visit(own int32) int32 {
	if s.strict {
		c := s.best[own]
		s.update(own)
		return c
	}
	s.update(own)
	return s.best[own]
}

// fastLayer overwrites the class ids of layer l with those of layer l+1
// (see the description above); aux is scratch kept between layers.
func (r *Runner) fastLayer(b *budget.Budget, l int, k classKernel, cls, aux *classIDs) error {
	layer := &r.m.Layers[l]
	n := cls.len()
	H := len(layer.Heads)
	K := k.numClasses()
	if H == 0 {
		// Every class occurs at some position, and the next class of a
		// position depends on its own class only.
		trans := make([]int32, K)
		for c := range trans {
			var err error
			if trans[c], err = k.combine(l, int32(c), nil); err != nil {
				return err
			}
		}
		switch {
		case cls.u8 != nil:
			translate(cls.u8, trans)
		case cls.u16 != nil:
			translate(cls.u16, trans)
		default:
			translate(cls.u32, trans)
		}
		return b.Step(int64(n))
	}
	var forward, backward, whole []*headScan
	for h := range layer.Heads {
		hd := &layer.Heads[h]
		rank, err := k.ranks(l, h)
		if err != nil {
			return err
		}
		s := newHeadScan(h, hd, rank)
		switch hd.Mask {
		case position.MaskNone:
			whole = append(whole, s)
		case position.MaskPast, position.MaskPastOrSelf:
			backward = append(backward, s)
		default:
			forward = append(forward, s)
		}
	}
	step := func(i int) error {
		if i%scanStep == scanStep-1 {
			return b.Step(scanStep)
		}
		return nil
	}
	// Unmasked heads: the best position of the whole word per query class.
	if len(whole) > 0 {
		for i := range n {
			c := cls.get(i)
			for _, s := range whole {
				s.update(c)
			}
			if err := step(i); err != nil {
				return err
			}
		}
	}
	chosen := make([]int32, H)
	// Heads scanned apart: the past-masked ones when both directions occur.
	var apart *tupleIndex
	inline := forward
	reverse := false
	switch {
	case len(forward) == 0:
		inline, reverse = backward, true
	case len(backward) > 0:
		apart = newTupleIndex(K+1, len(backward))
		if aux.len() != n {
			*aux = newClassIDs(n)
		}
		t := make([]int32, len(backward))
		for i := n - 1; i >= 0; i-- {
			c := cls.get(i)
			for j, s := range backward {
				t[j] = s.visit(c)
			}
			id, _ := apart.lookup(t)
			aux.set(i, id)
			if err := step(n - 1 - i); err != nil {
				return err
			}
		}
	}
	f := &finalScan{k: k, l: l, inline: inline, whole: whole, backward: backward, apart: apart, aux: aux,
		combos: newTupleIndex(K+1, H+1), chosen: chosen, tuple: make([]int32, H+1), reverse: reverse}
	for p := 0; p < n; {
		var c int32
		var err error
		switch {
		case cls.u8 != nil:
			p, c, err = scanIDs(b, f, cls.u8, p)
		case cls.u16 != nil:
			p, c, err = scanIDs(b, f, cls.u16, p)
		default:
			p, c, err = scanIDs(b, f, cls.u32, p)
		}
		if err != nil {
			return err
		}
		if p < n { // c does not fit: widen, and go on after p
			cls.set(f.position(p, n), c)
			p++
		}
	}
	return nil
}

// finalScan is the state of a layer's last scan (see fastLayer): the heads
// it scans, those it reads off per class (whole) or per position (apart,
// aux), and the combinations met so far with their next-layer classes.
type finalScan struct {
	k                       classKernel
	l                       int
	inline, whole, backward []*headScan
	apart                   *tupleIndex
	aux                     *classIDs
	combos                  *tupleIndex
	next                    []int32 // next layer's class by combination id
	chosen, tuple           []int32 // scratch
	reverse                 bool
}

// position is the p-th position the scan visits in a word of length n.
func (f *finalScan) position(p, n int) int {
	if f.reverse {
		return n - 1 - p
	}
	return p
}

// class visits position i, of class own, and returns its next-layer class.
func (f *finalScan) class(i int, own int32) (int32, error) {
	for _, s := range f.inline {
		f.chosen[s.h] = s.visit(own)
	}
	for _, s := range f.whole {
		f.chosen[s.h] = s.best[own]
	}
	if f.apart != nil {
		for j, c := range f.apart.tuple(f.aux.get(i)) {
			f.chosen[f.backward[j].h] = c
		}
	}
	f.tuple[0] = own
	copy(f.tuple[1:], f.chosen)
	id, isNew := f.combos.lookup(f.tuple)
	if isNew {
		c, err := f.k.combine(f.l, own, f.chosen)
		if err != nil {
			return 0, err
		}
		f.next = append(f.next, c)
	}
	return f.next[id], nil
}

// scanIDs runs the final scan from its p-th position on, overwriting each
// position's class id in ids with its next-layer class. It stops at the
// first class that does not fit T, returning the scan index of its
// position (visited but not written) and the class; otherwise it returns
// len(ids). Written once per width so that the inner loop indexes the ids
// directly.
func scanIDs[T uint8 | uint16 | uint32](b *budget.Budget, f *finalScan, ids []T, p int) (int, int32, error) {
	n := len(ids)
	limit := int64(^T(0))
	for ; p < n; p++ {
		i := f.position(p, n)
		c, err := f.class(i, int32(ids[i]))
		if err != nil {
			return 0, 0, err
		}
		if int64(c) > limit {
			return p, c, nil
		}
		ids[i] = T(c)
		if p&(scanStep-1) == scanStep-1 {
			if err := b.Step(scanStep); err != nil {
				return 0, 0, err
			}
		}
	}
	return n, 0, nil
}

// translate replaces every id c in ids by trans[c] (no larger than the
// number of ids' classes, so it fits T).
func translate[T uint8 | uint16 | uint32](ids []T, trans []int32) {
	for i, c := range ids {
		ids[i] = T(trans[c])
	}
}
