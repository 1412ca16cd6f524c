package transformer

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"sort"
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

// ClassLimitError reports that the fast pass met more distinct activation
// vectors than FastOptions.MaxClasses allows.
type ClassLimitError struct {
	Layer, Limit int
}

func (e *ClassLimitError) Error() string {
	return fmt.Sprintf("fast forward pass: layer %d has more than MaxClasses = %d distinct activation vectors", e.Layer, e.Limit)
}

// classTable interns exact activation vectors.
type classTable struct {
	vecs  []Vec
	index map[string]int
	limit int
	layer int
}

func (t *classTable) intern(v Vec) (int, error) {
	k := vecKey(v)
	if c, ok := t.index[k]; ok {
		return c, nil
	}
	if len(t.vecs) >= t.limit {
		return 0, &ClassLimitError{Layer: t.layer, Limit: t.limit}
	}
	t.index[k] = len(t.vecs)
	t.vecs = append(t.vecs, v)
	return len(t.vecs) - 1, nil
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
func (m *Model) Forward(w []int, opts FastOptions) (*Activations, error) {
	if err := m.checkWord(w); err != nil {
		return nil, err
	}
	limit := opts.MaxClasses
	if limit <= 0 {
		limit = DefaultMaxClasses
	}
	n := len(w)
	period, err := positionPeriod(m.Position)
	if err != nil {
		return nil, err
	}
	// Layer 0: word embedding plus position embedding, grouped by
	// (symbol, position key).
	table := &classTable{index: map[string]int{}, limit: limit}
	cls := make([]int32, n)
	type embKey struct {
		sym int
		pos positionKey
	}
	embClass := map[embKey]int{}
	for i := range w {
		var pk positionKey
		if len(m.Position) > 0 {
			pk = keyOf(i+1, n, period)
		}
		k := embKey{w[i], pk}
		c, ok := embClass[k]
		if !ok {
			x := copyVec(m.Embedding[w[i]])
			if len(m.Position) > 0 {
				addInto(x, m.positionVector(i+1, n))
			}
			if c, err = table.intern(x); err != nil {
				return nil, err
			}
			embClass[k] = c
		}
		cls[i] = int32(c)
	}
	for l := range m.Layers {
		layer := &m.Layers[l]
		next := &classTable{index: map[string]int{}, limit: limit, layer: l + 1}
		H := len(layer.Heads)
		chosen := make([][]int32, H) // chosen[h][i]: class attended to, or -1
		values := make([][]Vec, H)   // values[h][k]: Value·x for class k
		for h := range layer.Heads {
			chosen[h], values[h] = m.fastHead(&layer.Heads[h], table.vecs, cls)
		}
		// Combine per distinct (own class, chosen classes) tuple.
		combo := map[string]int32{}
		key := make([]byte, 4*(H+1))
		newCls := make([]int32, n)
		for i := range n {
			binary.LittleEndian.PutUint32(key, uint32(cls[i]))
			for h := range H {
				binary.LittleEndian.PutUint32(key[4*(h+1):], uint32(chosen[h][i]))
			}
			if c, ok := combo[string(key)]; ok {
				newCls[i] = c
				continue
			}
			c := copyVec(table.vecs[cls[i]])
			for h := range H {
				if k := chosen[h][i]; k >= 0 {
					addInto(c, values[h][k])
				}
			}
			y := m.finishLayer(layer, c)
			id, err := next.intern(y)
			if err != nil {
				return nil, err
			}
			combo[string(key)] = int32(id)
			newCls[i] = int32(id)
		}
		table, cls = next, newCls
	}
	out := &Activations{Vectors: table.vecs, Class: make([]int, n)}
	for i, c := range cls {
		out.Class[i] = int(c)
	}
	return out, nil
}

// finishLayer applies the attention norm, the FFN with its residual, and
// the FFN norm to the attention residual c.
func (m *Model) finishLayer(layer *Layer, c Vec) Vec {
	if layer.AttentionNorm != nil {
		c = applyNorm(layer.AttentionNorm, c)
	}
	y := c
	if layer.FFN != nil {
		y = applyFFN(layer.FFN, c)
	}
	if layer.FFNNorm != nil {
		y = applyNorm(layer.FFNNorm, y)
	}
	return y
}

// fastHead computes, for one head, the class each position attends to (-1
// if none is unmasked) and the value vector of every class.
func (m *Model) fastHead(hd *Head, vecs []Vec, cls []int32) ([]int32, []Vec) {
	K := len(vecs)
	keys := make([]Vec, K)
	vals := make([]Vec, K)
	present := make([]bool, K)
	for _, c := range cls {
		present[c] = true
	}
	for k := range K {
		if present[k] {
			keys[k] = matVec(hd.Score, vecs[k])
			vals[k] = matVec(hd.Value, vecs[k])
		}
	}
	// rank[q][k]: the rank of score(q,k) among the scores of query class q.
	queries := []int32{}
	qIndex := make([]int32, K)
	for k := range K {
		qIndex[k] = -1
		if present[k] {
			qIndex[k] = int32(len(queries))
			queries = append(queries, int32(k))
		}
	}
	Q := len(queries)
	rank := make([][]int32, Q)
	for qi, q := range queries {
		scores := make([]*big.Rat, K)
		order := []int{}
		for k := range K {
			if present[k] {
				scores[k] = dot(vecs[q], keys[k])
				order = append(order, k)
			}
		}
		sort.Slice(order, func(a, b int) bool { return scores[order[a]].Cmp(scores[order[b]]) < 0 })
		r := make([]int32, K)
		cur := int32(0)
		for p, k := range order {
			if p > 0 && scores[order[p-1]].Cmp(scores[k]) != 0 {
				cur++
			}
			r[k] = cur
		}
		rank[qi] = r
	}
	n := len(cls)
	chosen := make([]int32, n)
	best := make([]int32, Q) // best position so far per query class, -1 if none
	for qi := range best {
		best[qi] = -1
	}
	// better reports whether position j (class cj) should replace the current
	// best position b for query qi, given the scan direction.
	forward := hd.Mask == MaskFuture || hd.Mask == MaskFutureOrSelf || hd.Mask == MaskNone
	preferLater := hd.Tiebreak == Rightmost == forward // ties go to the position met later in the scan
	update := func(j int) {
		cj := cls[j]
		for qi := range Q {
			b := best[qi]
			if b < 0 {
				best[qi] = int32(j)
				continue
			}
			rj, rb := rank[qi][cj], rank[qi][cls[b]]
			if rj > rb || (rj == rb && preferLater) {
				best[qi] = int32(j)
			}
		}
	}
	pick := func(i int) {
		b := best[qIndex[cls[i]]]
		if b < 0 {
			chosen[i] = -1
		} else {
			chosen[i] = cls[b]
		}
	}
	switch hd.Mask {
	case MaskNone:
		for j := range n {
			update(j)
		}
		for i := range n {
			pick(i)
		}
	case MaskFuture:
		for i := range n {
			pick(i)
			update(i)
		}
	case MaskFutureOrSelf:
		for i := range n {
			update(i)
			pick(i)
		}
	case MaskPast:
		for i := n - 1; i >= 0; i-- {
			pick(i)
			update(i)
		}
	case MaskPastOrSelf:
		for i := n - 1; i >= 0; i-- {
			update(i)
			pick(i)
		}
	}
	return chosen, vals
}

// Accepts runs the fast forward pass and the output layer. If the fast pass
// meets too many distinct activation vectors it falls back to the dense pass,
// so the verdict is always the model's.
func (m *Model) Accepts(w []int) (bool, error) {
	a, err := m.Forward(w, FastOptions{})
	if _, ok := err.(*ClassLimitError); ok {
		return m.AcceptsDense(w)
	}
	if err != nil {
		return false, err
	}
	return m.decide(a.At(len(w) - 1)), nil
}

func sqrtFloat(f float64) float64 { return math.Sqrt(f) }
