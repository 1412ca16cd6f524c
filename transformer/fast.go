package transformer

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/position"
)

// The fast forward pass, written once over its arithmetic. By Lemma 4.3 a
// layer has finitely many distinct activation vectors (classes), so the
// pass keeps, for every position, only a small id (classIDs: a byte per
// position while there are at most 256 ids), overwriting the ids in place
// layer after layer. A classKernel computes on classes: the embedding of a
// symbol at a position, the ranks of the scores between classes for a
// head, and the class a combination (own class, attended classes) gives in
// the next layer; fast_float.go has the kernel in checked float64,
// fast_exact.go the one in exact rationals.
//
// The stored id of a position is its class read through a class map
// (pending) when the pass has one: a model without position terms starts
// with the word's symbols as ids and the embedding as the map, and a layer
// whose next class depends on the own class only (no heads, or only
// unmasked ones) composes its map into pending instead of rewriting the
// ids. The final activations keep the last map.
//
// Otherwise a layer is computed in at most three scans of the ids. Heads
// without a mask attend, from every position, to the best position of the
// whole word for the query's class: one scan finds it for every class.
// Heads masked to the future (j < i or j ≤ i) are scanned left to right,
// heads masked to the past right to left, each keeping the best class so
// far per query class. When a layer has heads of both directions, a
// right-to-left scan first numbers the classes its past-masked heads
// attend to at each position (a tupleIndex) and overwrites the position's
// id with a token numbering the pair (own class, that number); the final
// scan, in the other direction, combines every head's choice with the
// position's own class and overwrites the id with the next layer's class.
// So the memory per position is the word and one id. Every scan is a
// deterministic automaton over ids whose moves are tabulated as they are
// made (scanTable): once warm, a position costs one table look-up.

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

// word is the input of a fast pass: n symbols, read by at, or directly
// from bytes when the word is stored a byte per symbol.
type word struct {
	n     int
	at    func(i int) int
	bytes []byte
}

// fastPass runs the fast pass on w with kernel k, within b's work and
// context.
func (r *Runner) fastPass(b *budget.Budget, w word, k classKernel) (*Activations, error) {
	if w.n == 0 {
		return nil, ErrEmptyWord
	}
	if err := b.Err(); err != nil {
		return nil, err
	}
	var cls classIDs
	var pending []int32
	var err error
	if len(r.m.Position) == 0 {
		cls, pending, err = r.embedSymbols(b, w, k)
	} else {
		cls, err = r.embedPositions(b, w, k)
	}
	if err != nil {
		return nil, err
	}
	for l := range r.m.Layers {
		if err := r.fastLayer(b, l, k, &cls, &pending); err != nil {
			return nil, err
		}
		k.advance()
	}
	a := k.activations(cls)
	a.classMap = pending
	return a, nil
}

// badSymbol is the error of a symbol index outside the alphabet.
func (r *Runner) badSymbol(i, s int) error {
	return fmt.Errorf("position %d: symbol index %d is not in the alphabet (size %d)", i+1, s, len(r.m.Embedding))
}

// embedSymbols stores the word's symbols as the ids of a model without
// position terms and returns the embedding of the symbols met as the
// class map.
func (r *Runner) embedSymbols(b *budget.Budget, w word, k classKernel) (classIDs, []int32, error) {
	A := len(r.m.Embedding)
	cls := classIDsFor(w.n, A)
	seen := make([]bool, max(A, 256))
	if w.bytes != nil && cls.u8 != nil {
		copy(cls.u8, w.bytes)
		if i := firstByteAtLeast(w.bytes, A); i >= 0 {
			return cls, nil, r.badSymbol(i, int(w.bytes[i]))
		}
		found := 0
		for _, s := range w.bytes {
			if !seen[s] {
				seen[s] = true
				if found++; found == A {
					break
				}
			}
		}
	} else {
		for i := range w.n {
			s := w.at(i)
			if s < 0 || s >= A {
				return cls, nil, r.badSymbol(i, s)
			}
			seen[s] = true
			cls.set(i, int32(s))
		}
	}
	if err := b.Step(int64(w.n)); err != nil {
		return cls, nil, err
	}
	pending := make([]int32, A)
	for s := range pending {
		pending[s] = -1
		if seen[s] {
			c, err := k.embed(s, 0, w.n)
			if err != nil {
				return cls, nil, err
			}
			pending[s] = c
		}
	}
	return cls, pending, nil
}

// firstByteAtLeast returns the index of the first byte of w that is at
// least A, or −1: eight bytes at a time when A ≤ 128 (a byte b < 128 has
// b + 128 − A ≥ 128 exactly when b ≥ A, and no sum carries into the next
// byte).
func firstByteAtLeast(w []byte, A int) int {
	i := 0
	if A <= 128 {
		const ones, highs = 0x0101010101010101, 0x8080808080808080
		add := uint64(128-A) * ones
		for ; i+8 <= len(w); i += 8 {
			x := binary.LittleEndian.Uint64(w[i : i+8])
			if (x|(x+add))&highs != 0 {
				break
			}
		}
	}
	for ; i < len(w); i++ {
		if int(w[i]) >= A {
			return i
		}
	}
	return -1
}

// embedPositions stores the layer-0 class of every position of a model
// with position terms: the class of (symbol, position key), computed once
// each.
func (r *Runner) embedPositions(b *budget.Budget, w word, k classKernel) (classIDs, error) {
	n := w.n
	cls := newClassIDs(n)
	type embKey struct {
		sym int
		pos positionKey
	}
	byKey := map[embKey]int32{}
	for i := range n {
		s := w.at(i)
		if s < 0 || s >= len(r.m.Embedding) {
			return cls, r.badSymbol(i, s)
		}
		key := embKey{s, keyOf(i+1, n, r.period)}
		c, ok := byKey[key]
		if !ok {
			var err error
			if c, err = k.embed(s, i, n); err != nil {
				return cls, err
			}
			byKey[key] = c
		}
		cls.set(i, c)
		if i%scanStep == scanStep-1 {
			if err := b.Step(scanStep); err != nil {
				return cls, err
			}
		}
	}
	return cls, nil
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
	if s.memo = newScanMemo(s.best); s.memo != nil {
		s.best = s.memo.vecs[0]
	}
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

// bestOfWord sets best to the class of the best position of the whole word
// for every query class, where the first and the last position of class c
// are first[c] and last[c]: among the classes of the highest rank, the one
// met last in a left-to-right scan when ties go to the later position,
// else the one met first.
func (s *headScan) bestOfWord(first, last []int) {
	s.memo = nil
	s.best = make([]int32, len(s.rank))
	for q, rank := range s.rank {
		b := 0
		for c := 1; c < len(rank); c++ {
			if r, rb := rank[c], rank[b]; r > rb || r == rb && (s.preferLater && last[c] > last[b] || !s.preferLater && first[c] < first[b]) {
				b = c
			}
		}
		s.best[q] = int32(b)
	}
}

// occurrences returns the first and the last position of each of the K
// classes of the ids of cls (ids distinct ids, read through classOf, −1
// for an id never stored; every class occurs). With ids a byte each and
// few of them, each stored id is searched for from either end
// (byteOccurrences), so that the search reads the word only as far as
// the id's first and last positions, at the speed of bytes.IndexByte;
// otherwise by one pass from each end that stops when it has found every
// stored id.
func occurrences(b *budget.Budget, cls *classIDs, ids int, classOf func(int32) int32, K int) (first, last []int, err error) {
	stored := make([]bool, ids)
	count := 0
	for id := range ids {
		if stored[id] = classOf(int32(id)) >= 0; stored[id] {
			count++
		}
	}
	var f, l []int
	switch {
	case cls.u8 != nil && ids <= maxByteSearches:
		f, l = byteOccurrences(cls.u8, stored)
	case cls.u8 != nil:
		f, l = idOccurrences(cls.u8, ids, count)
	case cls.u16 != nil:
		f, l = idOccurrences(cls.u16, ids, count)
	default:
		f, l = idOccurrences(cls.u32, ids, count)
	}
	if err := b.Step(int64(cls.len())); err != nil {
		return nil, nil, err
	}
	first, last = make([]int, K), make([]int, K)
	for c := range K {
		first[c], last[c] = -1, -1
	}
	for id := range ids {
		if f[id] < 0 {
			continue
		}
		c := classOf(int32(id))
		if first[c] < 0 || f[id] < first[c] {
			first[c] = f[id]
		}
		last[c] = max(last[c], l[id])
	}
	return first, last, nil
}

// maxByteSearches bounds the ids byteOccurrences searches for one by one:
// past it one pass from each end costs less than a search per id.
const maxByteSearches = 16

// byteOccurrences returns the first and the last position of every id
// marked stored (−1 for the others and for those absent), searching for
// each from the front (bytes.IndexByte) and from the back (lastByte).
func byteOccurrences(ids []uint8, stored []bool) (first, last []int) {
	first, last = make([]int, len(stored)), make([]int, len(stored))
	for id, ok := range stored {
		first[id], last[id] = -1, -1
		if ok {
			if first[id] = bytes.IndexByte(ids, byte(id)); first[id] >= 0 {
				last[id] = lastByte(ids, byte(id))
			}
		}
	}
	return first, last
}

// lastByte returns the index of the last c in w, or −1: block after block
// from the end, each tested for c by bytes.IndexByte before it is searched
// byte by byte.
func lastByte(w []byte, c byte) int {
	const block = 1 << 12
	for end := len(w); end > 0; end -= block {
		start := max(0, end-block)
		if bytes.IndexByte(w[start:end], c) >= 0 {
			return start + bytes.LastIndexByte(w[start:end], c)
		}
	}
	return -1
}

// idOccurrences returns the first and the last position of every id below
// k (−1 for those absent), where stored ids occur: each search stops once
// it has found that many.
func idOccurrences[T uint8 | uint16 | uint32](ids []T, k, stored int) (first, last []int) {
	first, last = make([]int, k), make([]int, k)
	for id := range first {
		first[id], last[id] = -1, -1
	}
	found := 0
	for i := 0; i < len(ids) && found < stored; i++ {
		if id := ids[i]; first[id] < 0 {
			first[id] = i
			found++
		}
	}
	found = 0
	for i := len(ids) - 1; i >= 0 && found < stored; i-- {
		if id := ids[i]; last[id] < 0 {
			last[id] = i
			found++
		}
	}
	return first, last
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

// fastLayer overwrites the ids of layer l with those of layer l+1, or
// composes the layer's class map into pending (see the description above).
func (r *Runner) fastLayer(b *budget.Budget, l int, k classKernel, cls *classIDs, pending *[]int32) error {
	layer := &r.m.Layers[l]
	K := k.numClasses()
	ids := K // the number of distinct stored ids
	if *pending != nil {
		ids = len(*pending)
	}
	classOf := func(id int32) int32 {
		if p := *pending; p != nil {
			return p[id]
		}
		return id
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
	H := len(layer.Heads)
	chosen := make([]int32, H)
	// Unmasked heads: the best position of the whole word per query class.
	if len(whole) > 0 {
		first, last, err := occurrences(b, cls, ids, classOf, K)
		if err != nil {
			return err
		}
		for _, s := range whole {
			s.bestOfWord(first, last)
		}
	}
	if len(forward) == 0 && len(backward) == 0 {
		// The next class of a position depends on its own class only, and
		// every class occurs at some position.
		trans := make([]int32, K)
		for c := range trans {
			for _, s := range whole {
				chosen[s.h] = s.best[c]
			}
			var err error
			if trans[c], err = k.combine(l, int32(c), chosen); err != nil {
				return err
			}
		}
		*pending = composeMaps(*pending, trans)
		return b.Step(int64(K))
	}
	f := &finalScan{k: k, l: l, inline: forward, whole: whole, backward: backward,
		combos: newTupleIndex(K+1, H+1), chosen: chosen, tuple: make([]int32, H+1)}
	// Heads scanned apart: the past-masked ones when both directions occur.
	reverse := false
	decode := func(id int32) (int32, int32) { return classOf(id), -1 }
	switch {
	case len(forward) == 0:
		f.inline, reverse = backward, true
	case len(backward) > 0:
		f.apart = newTupleIndex(K+1, len(backward))
		tokens := &pairIndex{index: map[[2]int32]int32{}}
		t := make([]int32, len(backward))
		scan := newScanTable(ids, cls.len(), cls.u8 != nil, backward, func(id int32) (int32, error) {
			c := classOf(id)
			for j, s := range backward {
				t[j] = s.visit(c)
			}
			aux, _ := f.apart.lookup(t)
			return tokens.lookup(c, aux), nil
		})
		if err := scan.run(b, cls, true); err != nil {
			return err
		}
		ids = len(tokens.pairs)
		decode = func(id int32) (int32, int32) { p := tokens.pairs[id]; return p[0], p[1] }
	}
	scan := newScanTable(ids, cls.len(), cls.u8 != nil, f.inline, func(id int32) (int32, error) {
		return f.class(decode(id))
	})
	if err := scan.run(b, cls, reverse); err != nil {
		return err
	}
	*pending = nil
	return nil
}

// composeMaps returns the map id → second[first[id]] (second itself when
// first is nil); −1 (an id never stored) stays −1.
func composeMaps(first, second []int32) []int32 {
	if first == nil {
		return second
	}
	out := make([]int32, len(first))
	for id, c := range first {
		out[id] = -1
		if c >= 0 {
			out[id] = second[c]
		}
	}
	return out
}

// pairIndex numbers pairs of ids densely in order of first occurrence.
type pairIndex struct {
	index map[[2]int32]int32
	pairs [][2]int32
}

func (x *pairIndex) lookup(a, b int32) int32 {
	p := [2]int32{a, b}
	if id, ok := x.index[p]; ok {
		return id
	}
	id := int32(len(x.pairs))
	x.index[p] = id
	x.pairs = append(x.pairs, p)
	return id
}

// finalScan is the state of a layer's last scan (see fastLayer): the heads
// it scans, those it reads off per class (whole) or per position (apart),
// and the combinations met so far with their next-layer classes.
type finalScan struct {
	k                       classKernel
	l                       int
	inline, whole, backward []*headScan
	apart                   *tupleIndex
	combos                  *tupleIndex
	next                    []int32 // next layer's class by combination id
	chosen, tuple           []int32 // scratch
}

// class visits a position of class own whose past-masked heads, scanned
// apart, attended to the tuple numbered aux (−1 when none are), and
// returns its next-layer class.
func (f *finalScan) class(own, aux int32) (int32, error) {
	for _, s := range f.inline {
		f.chosen[s.h] = s.visit(own)
	}
	for _, s := range f.whole {
		f.chosen[s.h] = s.best[own]
	}
	if aux >= 0 {
		for j, c := range f.apart.tuple(aux) {
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
