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
	r, err := NewRunner(m)
	if err != nil {
		return nil, err
	}
	return r.Forward(w, opts)
}

// forwardExact is the fast pass in exact rational arithmetic, within the
// budget's rational-bits (checked on every activation vector) and its work
// and context (checked once per class and layer).
func (m *Model) forwardExact(b *budget.Budget, w []int, opts FastOptions) (*Activations, error) {
	if err := m.checkWord(w); err != nil {
		return nil, err
	}
	limit := opts.maxClasses()
	n := len(w)
	a := Arith{MaxBits: b.Max(RationalBits)}
	step := func() error { return a.Charge(b) }
	if err := b.Err(); err != nil {
		return nil, err
	}
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
			a.checkBits(x)
			if err := step(); err != nil {
				return nil, err
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
			chosen[h], values[h] = fastHead(&a, &layer.Heads[h], table.vecs, cls)
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
			y := a.FinishLayer(layer, c)
			if err := step(); err != nil {
				return nil, err
			}
			id, err := next.intern(y)
			if err != nil {
				return nil, err
			}
			combo[string(key)] = int32(id)
			newCls[i] = int32(id)
		}
		table, cls = next, newCls
	}
	class := make([]int, n)
	for i, c := range cls {
		class[i] = int(c)
	}
	return newActivations(class, nil, table.vecs), nil
}

// fastHead computes, for one head, the class each position attends to (-1
// if none is unmasked) and the value vector of every class. Every class
// occurs at some position, so every class is a query.
func fastHead(a *Arith, hd *Head, vecs []Vec, cls []int32) ([]int32, []Vec) {
	K := len(vecs)
	keys := make([]Vec, K)
	vals := make([]Vec, K)
	for k := range K {
		keys[k] = a.MatVec(hd.Score, vecs[k])
		vals[k] = a.MatVec(hd.Value, vecs[k])
	}
	rank := make([][]int32, K)
	scores := make([]*big.Rat, K)
	for q := range K {
		for k := range K {
			scores[k] = a.Dot(vecs[q], keys[k])
		}
		rank[q] = denseRanks(scores, (*big.Rat).Cmp)
	}
	return scanHead(hd.Mask, hd.Tiebreak, rank, cls), vals
}

// Accepts runs the fast forward pass and the output layer. If the fast pass
// meets too many distinct activation vectors it falls back to the dense pass,
// so the verdict is always the model's.
func (m *Model) Accepts(w []int) (bool, error) {
	r, err := NewRunner(m)
	if err != nil {
		return false, err
	}
	return r.Accepts(w)
}

// Transduce runs a transducer model on w (see Runner.Transduce).
func (m *Model) Transduce(w []int) ([]int, error) {
	r, err := NewRunner(m)
	if err != nil {
		return nil, err
	}
	return r.Transduce(w)
}
