package transformer

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/position"
)

// Limits of the memory a Batch keeps from one word to the next. They are
// variables so that tests can make the cache small.
var (
	// batchCacheClasses bounds the activation vectors a Batch remembers per
	// layer (and the combinations per layer, times four); past it the
	// cache is cleared before the next word.
	batchCacheClasses = 1 << 14
	// batchScoreClasses bounds the class ids whose head scores a Batch
	// caches (a square table per head); scores of later classes are
	// recomputed for every word.
	batchScoreClasses = 256
)

// Batch runs one model on many words with the fast forward pass, reusing
// its scratch memory and everything it has computed on earlier words: the
// distinct activation vectors of every layer (interned once, with their
// score keys and value vectors per head), the scores between them, the
// result of every (own vector, attended vectors) combination and the
// verdict of every final vector. A word then costs one scan per head and
// one table look-up per position and layer, and no allocation once the
// model's vectors have been met.
//
// The verdicts are those of Runner.Accepts: the pass computes in checked
// float64 and, on a word where some operation would round (or where the
// runner cannot compute in float64), falls back to Runner.Accepts, whose
// exact-rational pass decides; past FastOptions.MaxClasses distinct
// vectors in a layer it falls back to the dense pass. A Batch is not safe
// for concurrent use; use one per goroutine.
type Batch struct {
	r    *Runner
	opts FastOptions

	layers   []batchLayer // the classes entering each layer, then the final ones
	symClass []int32      // layer-0 class by symbol (models without position terms), -1 unknown
	posClass map[batchEmbKey]int32

	c        checked
	stamp    uint32
	cls, nxt []int32   // local class of every position in the current / next layer
	chosen   [][]int32 // per head: local class attended to at every position, -1 if none
	best     []int32   // per query class: class of the best position so far, -1 if none
	scores   []float64 // K×K scores between the word's classes for one head
	key      []byte

	exact *exactMemo // what the words that took the exact fallback computed
}

type batchEmbKey struct {
	sym int
	pos positionKey
}

// batchLayer holds the distinct activation vectors entering one layer.
// Class ids are global (stable across words); local ids number the classes
// of the current word in order of first occurrence.
type batchLayer struct {
	heads     int
	vecs      [][]float64
	index     map[uint64]int32 // hash → first class with that hash
	chain     []int32          // next class with the same hash, -1 at the end
	keys      [][][]float64    // [head][class]: Score·x
	vals      [][][]float64    // [head][class]: Value·x
	scoreRows [][][]float64    // [head][class q]: scores x_q·(Score·x_k) for k < len(row)
	combo     map[string]int32 // (own, attended...) global ids → class of the next layer
	verdict   []int8           // final layer: 0 unknown, 1 accept, 2 reject

	localOf    []int32
	localStamp []uint32
	present    []int32 // global id of every local class
	table      []int32 // (own, attended...) local ids → local class of the next layer
	tableStamp []uint32
}

// NewBatch returns a Batch running r's model with the given options.
func (r *Runner) NewBatch(opts FastOptions) *Batch {
	b := &Batch{r: r, opts: opts}
	b.reset()
	return b
}

// AcceptsBatch decides every word of words with one Batch and stores the
// verdicts in out, which must have the same length. It stops at the first
// word that is not a word over the model's alphabet, and when bud is
// cancelled or out of work (one unit per position).
func (r *Runner) AcceptsBatch(bud *budget.Budget, words [][]int, out []bool) error {
	return r.NewBatch(FastOptions{}).Accepts(bud, words, out)
}

// Accepts decides every word of words and stores the verdicts in out, which
// must have the same length (see Runner.AcceptsBatch).
func (b *Batch) Accepts(bud *budget.Budget, words [][]int, out []bool) error {
	if len(out) != len(words) {
		return fmt.Errorf("accepts batch: %d words but %d results", len(words), len(out))
	}
	if b.r.m.Output.Weight == nil {
		return errNoAccept
	}
	for k, w := range words {
		if err := bud.Step(int64(len(w)) + 1); err != nil {
			return err
		}
		ok, err := b.Accept(w)
		if err != nil {
			return fmt.Errorf("word %d: %w", k+1, err)
		}
		out[k] = ok
	}
	return nil
}

// Accept decides one word: Runner.Accepts, reusing the batch's memory.
func (b *Batch) Accept(w []int) (bool, error) {
	m := b.r.m
	if m.Output.Weight == nil {
		return false, errNoAccept
	}
	if err := m.checkWord(w); err != nil {
		return false, err
	}
	if !b.r.floatOK {
		return b.acceptExact(w)
	}
	ok, err := b.fast(w)
	if err == nil {
		return ok, nil
	}
	if errors.Is(err, errInexact) {
		// Values computed on this word may be rounded: forget them all.
		b.reset()
		return b.acceptExact(w)
	}
	var cle *ClassLimitError
	if errors.As(err, &cle) {
		return b.r.AcceptsDense(w)
	}
	return false, err
}

// acceptExact is Runner.Accepts with the fast pass in exact rationals
// (where Runner.Accepts falls back when float64 would round), sharing what
// it computes with the batch's other words through an exactMemo.
func (b *Batch) acceptExact(w []int) (bool, error) {
	r := b.r
	if b.exact == nil || b.exact.full() {
		b.exact = newExactMemo(r.m)
	}
	k := newExactKernelMemo(r.bud, r.m, r.period, b.opts.maxClasses(), b.exact)
	a, err := r.fastPass(r.bud, word{n: len(w), at: func(i int) int { return w[i] }}, k)
	var cle *ClassLimitError
	if errors.As(err, &cle) {
		return r.AcceptsDense(w)
	}
	if err != nil {
		return false, err
	}
	final := &b.exact.layers[len(r.m.Layers)]
	id := k.cur.ids[a.ClassOf(len(w)-1)]
	ok, known := final.verdict[id]
	if !known {
		ok = r.m.decide(final.vecs[id])
		final.verdict[id] = ok
	}
	return ok, nil
}

// reset forgets every cached class.
func (b *Batch) reset() {
	m := b.r.m
	b.layers = make([]batchLayer, len(m.Layers)+1)
	for l := range b.layers {
		L := &b.layers[l]
		if l < len(m.Layers) {
			L.heads = len(m.Layers[l].Heads)
		}
		L.index = map[uint64]int32{}
		L.combo = map[string]int32{}
		L.keys = make([][][]float64, L.heads)
		L.vals = make([][][]float64, L.heads)
		L.scoreRows = make([][][]float64, L.heads)
	}
	b.symClass = make([]int32, len(m.Alphabet))
	for k := range b.symClass {
		b.symClass[k] = -1
	}
	b.posClass = map[batchEmbKey]int32{}
	b.c = checked{}
}

// full reports whether the cache has outgrown its bounds.
func (b *Batch) full() bool {
	for l := range b.layers {
		if len(b.layers[l].vecs) > batchCacheClasses || len(b.layers[l].combo) > 4*batchCacheClasses {
			return true
		}
	}
	return false
}

// hashFloats hashes a vector (FNV-1a over the bits, −0 identified with +0).
func hashFloats(x []float64) uint64 {
	h := uint64(14695981039346656037)
	for _, v := range x {
		if v == 0 {
			v = 0
		}
		h ^= math.Float64bits(v)
		h *= 1099511628211
	}
	return h
}

func equalFloats(a, b []float64) bool {
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// intern returns the global class of x in layer l, adding it (with its
// keys and values per head) if it is new. x is kept, not copied.
func (b *Batch) intern(l int, x []float64) (int32, error) {
	L := &b.layers[l]
	h := hashFloats(x)
	first, ok := L.index[h]
	if ok {
		for id := first; id >= 0; id = L.chain[id] {
			if equalFloats(L.vecs[id], x) {
				return id, nil
			}
		}
	}
	id := int32(len(L.vecs))
	if l < len(b.r.layers) {
		for hd := range L.heads {
			fh := &b.r.layers[l].heads[hd]
			L.keys[hd] = append(L.keys[hd], b.c.matVec(fh.S, x))
			L.vals[hd] = append(L.vals[hd], b.c.matVec(fh.V, x))
		}
		if b.c.inexact {
			return 0, errInexact
		}
	}
	L.vecs = append(L.vecs, x)
	if ok {
		L.chain = append(L.chain, first)
	} else {
		L.chain = append(L.chain, -1)
	}
	L.index[h] = id
	L.localOf = append(L.localOf, 0)
	L.localStamp = append(L.localStamp, 0)
	L.verdict = append(L.verdict, 0)
	return id, nil
}

// mark gives the global class id of layer l a local id for the current
// word, failing past the class limit.
func (b *Batch) mark(l int, id int32, limit int) (int32, error) {
	L := &b.layers[l]
	if L.localStamp[id] == b.stamp {
		return L.localOf[id], nil
	}
	if len(L.present) >= limit {
		return 0, &ClassLimitError{Layer: l, Limit: limit}
	}
	L.localStamp[id] = b.stamp
	L.localOf[id] = int32(len(L.present))
	L.present = append(L.present, id)
	return L.localOf[id], nil
}

// score is x_q·(Score_h·x_k) for global classes q and k of layer l.
func (b *Batch) score(l, h int, q, k int32) float64 {
	L := &b.layers[l]
	if int(q) < batchScoreClasses && int(k) < batchScoreClasses {
		row := L.scoreRows[h][q]
		if int(k) >= len(row) {
			for j := len(row); j < min(len(L.vecs), batchScoreClasses); j++ {
				row = append(row, b.dot(L.vecs[q], L.keys[h][j]))
			}
			L.scoreRows[h][q] = row
		}
		return row[k]
	}
	return b.dot(L.vecs[q], L.keys[h][k])
}

func (b *Batch) dot(x, y []float64) float64 { return b.c.dot(x, y) }

// fast is the fast pass in checked float64 over the cache; it returns the
// verdict, errInexact, or a *ClassLimitError.
func (b *Batch) fast(w []int) (bool, error) {
	r, m := b.r, b.r.m
	if b.full() {
		b.reset()
	}
	b.stamp++
	if b.stamp == 0 { // the stamps wrapped: clear them
		for l := range b.layers {
			clear(b.layers[l].localStamp)
			clear(b.layers[l].tableStamp)
		}
		b.stamp = 1
	}
	for l := range b.layers {
		b.layers[l].present = b.layers[l].present[:0]
	}
	limit := b.opts.maxClasses()
	n := len(w)
	if cap(b.cls) < n {
		b.cls = make([]int32, n)
		b.nxt = make([]int32, n)
	}
	cls, nxt := b.cls[:n], b.nxt[:n]

	// Layer 0: the classes of the embedded positions.
	for i, s := range w {
		var id int32 = -1
		var k batchEmbKey
		if len(m.Position) == 0 {
			id = b.symClass[s]
		} else {
			k = batchEmbKey{s, keyOf(i+1, n, r.period)}
			if c, ok := b.posClass[k]; ok {
				id = c
			}
		}
		if id < 0 {
			x, err := r.embedOne(s, i, n)
			if err != nil {
				return false, err
			}
			if id, err = b.intern(0, x); err != nil {
				return false, err
			}
			if len(m.Position) == 0 {
				b.symClass[s] = id
			} else {
				b.posClass[k] = id
			}
		}
		lid, err := b.mark(0, id, limit)
		if err != nil {
			return false, err
		}
		cls[i] = lid
	}

	for l := range m.Layers {
		layer := &m.Layers[l]
		cur := &b.layers[l]
		K := len(cur.present)
		H := cur.heads
		for len(b.chosen) < H {
			b.chosen = append(b.chosen, nil)
		}
		for h := range H {
			if cap(b.chosen[h]) < n {
				b.chosen[h] = make([]int32, n)
			}
			b.chosen[h] = b.chosen[h][:n]
			for len(cur.scoreRows[h]) < min(len(cur.vecs), batchScoreClasses) {
				cur.scoreRows[h] = append(cur.scoreRows[h], nil)
			}
			if cap(b.scores) < K*K {
				b.scores = make([]float64, K*K)
			}
			sc := b.scores[:K*K]
			for q, gq := range cur.present {
				for k, gk := range cur.present {
					sc[q*K+k] = b.score(l, h, gq, gk)
				}
			}
			if b.c.inexact {
				return false, errInexact
			}
			if cap(b.best) < K {
				b.best = make([]int32, K)
			}
			scanClasses(layer.Heads[h].Mask, layer.Heads[h].Tiebreak, sc, K, cls, b.best[:K], b.chosen[h])
		}

		// Combine every position's (own class, attended classes).
		var table []int32
		var stamps []uint32
		if size := comboTableSize(K, H); size > 0 {
			if len(cur.table) < size {
				cur.table = make([]int32, size)
				cur.tableStamp = make([]uint32, size)
			}
			table, stamps = cur.table, cur.tableStamp
		}
		if cap(b.key) < 4*(H+1) {
			b.key = make([]byte, 4*(H+1))
		}
		key := b.key[:4*(H+1)]
		for i := range n {
			slot := -1
			if table != nil {
				slot = int(cls[i])
				for h := range H {
					slot = slot*(K+1) + int(b.chosen[h][i]+1)
				}
				if stamps[slot] == b.stamp {
					nxt[i] = table[slot]
					continue
				}
			}
			own := cur.present[cls[i]]
			binary.LittleEndian.PutUint32(key, uint32(own))
			for h := range H {
				g := int32(-1)
				if c := b.chosen[h][i]; c >= 0 {
					g = cur.present[c]
				}
				binary.LittleEndian.PutUint32(key[4*(h+1):], uint32(g))
			}
			gid, ok := cur.combo[string(key)]
			if !ok {
				x := append([]float64(nil), cur.vecs[own]...)
				for h := range H {
					if c := b.chosen[h][i]; c >= 0 {
						for d, v := range cur.vals[h][cur.present[c]] {
							x[d] = b.c.add(x[d], v)
						}
					}
				}
				y, err := r.finishFloat(l, x, nil, &b.c)
				if err != nil {
					return false, err
				}
				if gid, err = b.intern(l+1, y); err != nil {
					return false, err
				}
				cur.combo[string(key)] = gid
			}
			lid, err := b.mark(l+1, gid, limit)
			if err != nil {
				return false, err
			}
			if slot >= 0 {
				stamps[slot] = b.stamp
				table[slot] = lid
			}
			nxt[i] = lid
		}
		cls, nxt = nxt, cls
	}

	final := &b.layers[len(m.Layers)]
	id := final.present[cls[n-1]]
	if final.verdict[id] == 0 {
		final.verdict[id] = 2
		if m.decide(floatsToVec(final.vecs[id])) {
			final.verdict[id] = 1
		}
	}
	return final.verdict[id] == 1, nil
}

// scanClasses is scanHead over the word's local classes with their float
// scores sc[q*K+k] (exact, so comparing them is comparing their ranks):
// chosen[i] is the class of the position that position i attends to, -1 if
// the mask leaves none. best is scratch of length K.
func scanClasses(mask position.Mask, tb position.Tiebreak, sc []float64, K int, cls, best, chosen []int32) {
	n := len(cls)
	for k := range best {
		best[k] = -1
	}
	forward := mask == position.MaskFuture || mask == position.MaskFutureOrSelf || mask == position.MaskNone
	preferLater := (tb == position.Rightmost) == forward
	update := func(j int) {
		cj := cls[j]
		for q := range K {
			bq := best[q]
			if bq < 0 {
				best[q] = cj
				continue
			}
			sj, sb := sc[q*K+int(cj)], sc[q*K+int(bq)]
			if sj > sb || (sj == sb && preferLater) {
				best[q] = cj
			}
		}
	}
	switch mask {
	case position.MaskNone:
		for j := range n {
			update(j)
		}
		for i := range n {
			chosen[i] = best[cls[i]]
		}
	case position.MaskFuture:
		for i := range n {
			chosen[i] = best[cls[i]]
			update(i)
		}
	case position.MaskFutureOrSelf:
		for i := range n {
			update(i)
			chosen[i] = best[cls[i]]
		}
	case position.MaskPast:
		for i := n - 1; i >= 0; i-- {
			chosen[i] = best[cls[i]]
			update(i)
		}
	case position.MaskPastOrSelf:
		for i := n - 1; i >= 0; i-- {
			update(i)
			chosen[i] = best[cls[i]]
		}
	}
}
