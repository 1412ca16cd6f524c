package transformer

import (
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
// and its work and context (charged once per class and head).
type exactKernel struct {
	m         *Model
	b         *budget.Budget
	a         Arith
	period    positionClasses
	cur, next *classTable
	vals      [][]Vec // [head][class]: Value·x of the current layer
}

func newExactKernel(b *budget.Budget, m *Model, period positionClasses, limit int) *exactKernel {
	return &exactKernel{m: m, b: b, a: Arith{MaxBits: b.Max(RationalBits)}, period: period,
		cur:  &classTable{index: map[string]int{}, limit: limit},
		next: &classTable{index: map[string]int{}, limit: limit, layer: 1}}
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
	keys := make([]Vec, K)
	k.vals[h] = make([]Vec, K)
	for q := range K {
		keys[q] = k.a.MatVec(hd.Score, vecs[q])
		k.vals[h][q] = k.a.MatVec(hd.Value, vecs[q])
		if err := k.a.Charge(k.b); err != nil {
			return nil, err
		}
	}
	rank := make([][]int32, K)
	scores := make([]*big.Rat, K)
	for q := range K {
		for j := range K {
			scores[j] = k.a.Dot(vecs[q], keys[j])
		}
		rank[q] = denseRanks(scores, (*big.Rat).Cmp)
		if err := k.a.Charge(k.b); err != nil {
			return nil, err
		}
	}
	return rank, nil
}

func (k *exactKernel) combine(l int, own int32, chosen []int32) (int32, error) {
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
	return int32(id), err
}

func (k *exactKernel) advance() {
	k.cur, k.next = k.next, &classTable{index: map[string]int{}, limit: k.cur.limit, layer: k.next.layer + 1}
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
