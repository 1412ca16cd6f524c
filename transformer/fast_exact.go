package transformer

import (
	"encoding/binary"
	"fmt"
	"math/big"

	"github.com/brasp-dev/brasp/budget"
)

// DefaultMaxClasses is the default limit on the number of distinct
// activation vectors the fast forward pass tracks per layer.
const DefaultMaxClasses = 1 << 14

// FastOptions configures the fast forward pass.
type FastOptions struct {
	// MaxClasses bounds the number of distinct activation vectors per
	// layer (DefaultMaxClasses if 0). Lemma 4.3 bounds it for every model,
	// but the bound is doubly exponential in the depth.
	MaxClasses int
}

// maxClasses is MaxClasses with its default filled in.
func (o FastOptions) maxClasses() int {
	if o.MaxClasses <= 0 {
		return DefaultMaxClasses
	}
	return o.MaxClasses
}

// ClassLimitError reports that the fast pass met more distinct activation
// vectors than FastOptions.MaxClasses allows.
type ClassLimitError struct {
	Layer, Limit int
}

func (e *ClassLimitError) Error() string {
	return fmt.Sprintf("fast forward pass: layer %d has more than MaxClasses = %d distinct activation vectors", e.Layer, e.Limit)
}

// classTable interns exact activation vectors. With a memo it also gives
// each class its id in the memo's layer (ids).
type classTable struct {
	vecs  []Vec
	index map[string]int
	limit int
	layer int
	memo  *exactMemo
	ids   []int32 // the memo's id of every class (with a memo)
}

func newClassTable(layer, limit int, memo *exactMemo) *classTable {
	return &classTable{index: map[string]int{}, limit: limit, layer: layer, memo: memo}
}

func (t *classTable) intern(v Vec) (int, error) { return t.internKey(vecKey(v), v, -1) }

// internKey interns v, whose vecKey is key and whose id in the memo's
// layer is id (−1 when not known).
func (t *classTable) internKey(key string, v Vec, id int32) (int, error) {
	if c, ok := t.index[key]; ok {
		return c, nil
	}
	if len(t.vecs) >= t.limit {
		return 0, &ClassLimitError{Layer: t.layer, Limit: t.limit}
	}
	t.index[key] = len(t.vecs)
	t.vecs = append(t.vecs, v)
	if t.memo != nil {
		if id < 0 {
			id = t.memo.layers[t.layer].add(key, v)
		}
		t.ids = append(t.ids, id)
	}
	return len(t.vecs) - 1, nil
}

// exactMemo is what the exact fast passes of many words share (a Batch
// keeps one for the words that take the exact fallback): the distinct
// vectors entering every layer, numbered across words, each head's score
// key and value of every vector, the scores between vectors, the
// next-layer vector of every combination (own vector, attended vectors)
// and the verdict of every final vector. A word then computes exactly only
// what no earlier word has. Every entry is kept only once its word's
// pass has charged it to the budget without error, so that an entry is
// what the pass without the memo computes.
type exactMemo struct {
	layers []exactMemoLayer // the vectors entering each layer, then the final ones
}

type exactMemoLayer struct {
	index   map[string]int32 // vecKey → id
	keys    []string         // vecKey of every id
	vecs    []Vec
	score   [][]Vec                 // [head][id]: Score·x (nil until computed)
	value   [][]Vec                 // [head][id]: Value·x
	dots    []map[[2]int32]*big.Rat // [head]: x_q·(Score·x_k) for ids q, k < batchScoreClasses
	combo   map[string]int32        // (own, attended...) ids, −1 for none → id in the next layer
	verdict map[int32]bool          // final layer: the verdict of an id
}

func newExactMemo(m *Model) *exactMemo {
	x := &exactMemo{layers: make([]exactMemoLayer, len(m.Layers)+1)}
	for l := range x.layers {
		L := &x.layers[l]
		L.index, L.combo, L.verdict = map[string]int32{}, map[string]int32{}, map[int32]bool{}
		if l < len(m.Layers) {
			H := len(m.Layers[l].Heads)
			L.score, L.value, L.dots = make([][]Vec, H), make([][]Vec, H), make([]map[[2]int32]*big.Rat, H)
			for h := range L.dots {
				L.dots[h] = map[[2]int32]*big.Rat{}
			}
		}
	}
	return x
}

// add returns the id of v (whose vecKey is key), adding it if new.
func (L *exactMemoLayer) add(key string, v Vec) int32 {
	if id, ok := L.index[key]; ok {
		return id
	}
	id := int32(len(L.vecs))
	L.index[key] = id
	L.keys = append(L.keys, key)
	L.vecs = append(L.vecs, v)
	for h := range L.score {
		L.score[h] = append(L.score[h], nil)
		L.value[h] = append(L.value[h], nil)
	}
	return id
}

// full reports whether the memo has outgrown the bounds of a Batch's cache
// (batchCacheClasses vectors per layer, four times as many combinations).
func (x *exactMemo) full() bool {
	for l := range x.layers {
		if len(x.layers[l].vecs) > batchCacheClasses || len(x.layers[l].combo) > 4*batchCacheClasses {
			return true
		}
	}
	return false
}

// Forward runs the fast forward pass: exact, and linear in the word length.
//
// Positions are grouped by activation vector (finitely many, Lemma 4.3). For
// each head, the exact scores between every pair of distinct vectors are
// ranked once; then a single left-to-right (or right-to-left) scan keeps,
// for every distinct query vector, the best unmasked position so far under
// the head's tie-break. Each distinct combination (own vector, attended
// vectors) is pushed through the residuals, norms and FFN once, exactly.
// The result equals ForwardDense on every word; if the number of distinct
// vectors exceeds opts.MaxClasses the pass stops with a *ClassLimitError.
// The pass runs within b (see Runner.SetBudget; nil for the defaults).
func (m *Model) Forward(b *budget.Budget, w []int, opts FastOptions) (*Activations, error) {
	r, err := m.runner(b)
	if err != nil {
		return nil, err
	}
	return r.Forward(w, opts)
}

// exactKernel is the classKernel in exact rational arithmetic (Arith),
// within the budget's rational-bits (checked on every activation vector)
// and its work and context (charged once per class and head). With a memo
// it computes only what the memo does not hold, and adds to it.
type exactKernel struct {
	m         *Model
	b         *budget.Budget
	a         Arith
	period    positionClasses
	cur, next *classTable
	vals      [][]Vec // [head][class]: Value·x of the current layer
	memo      *exactMemo
	key       []byte // scratch for combination keys
}

func newExactKernel(b *budget.Budget, m *Model, period positionClasses, limit int) *exactKernel {
	return newExactKernelMemo(b, m, period, limit, nil)
}

// newExactKernelMemo is newExactKernel sharing memo (nil for none).
func newExactKernelMemo(b *budget.Budget, m *Model, period positionClasses, limit int, memo *exactMemo) *exactKernel {
	return &exactKernel{m: m, b: b, a: Arith{MaxBits: b.Max(RationalBits)}, period: period, memo: memo,
		cur: newClassTable(0, limit, memo), next: newClassTable(1, limit, memo)}
}

func (k *exactKernel) embed(s, i, n int) (int32, error) {
	x := copyVec(k.m.Embedding[s])
	if len(k.m.Position) > 0 {
		addInto(x, k.m.positionVector(i+1, n))
	}
	k.a.checkBits(x)
	if err := k.a.Charge(k.b); err != nil {
		return 0, err
	}
	c, err := k.cur.intern(x)
	return int32(c), err
}

func (k *exactKernel) ranks(l, h int) ([][]int32, error) {
	hd := &k.m.Layers[l].Heads[h]
	vecs := k.cur.vecs
	K := len(vecs)
	for len(k.vals) <= h {
		k.vals = append(k.vals, nil)
	}
	var L *exactMemoLayer
	if k.memo != nil {
		L = &k.memo.layers[l]
	}
	keys := make([]Vec, K)
	k.vals[h] = make([]Vec, K)
	for q := range K {
		if L != nil {
			if id := k.cur.ids[q]; L.score[h][id] != nil {
				keys[q], k.vals[h][q] = L.score[h][id], L.value[h][id]
				continue
			}
		}
		keys[q] = k.a.MatVec(hd.Score, vecs[q])
		k.vals[h][q] = k.a.MatVec(hd.Value, vecs[q])
		if err := k.a.Charge(k.b); err != nil {
			return nil, err
		}
		if L != nil {
			id := k.cur.ids[q]
			L.score[h][id], L.value[h][id] = keys[q], k.vals[h][q]
		}
	}
	rank := make([][]int32, K)
	scores := make([]*big.Rat, K)
	for q := range K {
		computed := false
		for j := range K {
			if L == nil {
				scores[j] = k.a.Dot(vecs[q], keys[j])
				continue
			}
			pair := [2]int32{k.cur.ids[q], k.cur.ids[j]}
			if s, ok := L.dots[h][pair]; ok {
				scores[j] = s
				continue
			}
			scores[j] = k.a.Dot(vecs[q], keys[j])
			computed = true
		}
		rank[q] = denseRanks(scores, (*big.Rat).Cmp)
		if L != nil && !computed {
			continue
		}
		if err := k.a.Charge(k.b); err != nil {
			return nil, err
		}
		if L != nil {
			for j := range K {
				if pair := [2]int32{k.cur.ids[q], k.cur.ids[j]}; pair[0] < int32(batchScoreClasses) && pair[1] < int32(batchScoreClasses) {
					L.dots[h][pair] = scores[j]
				}
			}
		}
	}
	return rank, nil
}

func (k *exactKernel) combine(l int, own int32, chosen []int32) (int32, error) {
	var L *exactMemoLayer
	if k.memo != nil {
		L = &k.memo.layers[l]
		k.key = binary.LittleEndian.AppendUint32(k.key[:0], uint32(k.cur.ids[own]))
		for _, j := range chosen {
			id := int32(-1)
			if j >= 0 {
				id = k.cur.ids[j]
			}
			k.key = binary.LittleEndian.AppendUint32(k.key, uint32(id))
		}
		if id, ok := L.combo[string(k.key)]; ok {
			next := &k.memo.layers[l+1]
			c, err := k.next.internKey(next.keys[id], next.vecs[id], id)
			return int32(c), err
		}
	}
	c := copyVec(k.cur.vecs[own])
	for h, j := range chosen {
		if j >= 0 {
			addInto(c, k.vals[h][j])
		}
	}
	y := k.a.FinishLayer(&k.m.Layers[l], c)
	if err := k.a.Charge(k.b); err != nil {
		return 0, err
	}
	id, err := k.next.intern(y)
	if err == nil && L != nil {
		L.combo[string(k.key)] = k.next.ids[id]
	}
	return int32(id), err
}

func (k *exactKernel) advance() {
	k.cur, k.next = k.next, newClassTable(k.next.layer+1, k.cur.limit, k.memo)
}

func (k *exactKernel) numClasses() int { return len(k.cur.vecs) }

func (k *exactKernel) activations(cls classIDs) *Activations {
	return newActivations(cls, nil, k.cur.vecs)
}

// Accepts runs the fast forward pass and the output layer. If the fast pass
// meets too many distinct activation vectors it falls back to the dense pass,
// so the verdict is always the model's. The passes run within b.
func (m *Model) Accepts(b *budget.Budget, w []int) (bool, error) {
	r, err := m.runner(b)
	if err != nil {
		return false, err
	}
	return r.Accepts(w)
}

// Transduce runs a transducer model on w (see Runner.Transduce) within b.
func (m *Model) Transduce(b *budget.Budget, w []int) ([]int, error) {
	r, err := m.runner(b)
	if err != nil {
		return nil, err
	}
	return r.Transduce(w)
}
