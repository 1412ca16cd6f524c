package transformer

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sort"
	"sync"

	"github.com/brasp-dev/brasp/position"
)

// Runner runs one model many times: it converts the parameters to float64
// once (when they are exactly representable) so that each forward pass can
// compute in float64 while every operation is provably exact, falling back
// to exact rational arithmetic otherwise. A Runner reads its model on every
// call; the model must not change while the Runner is in use. A Runner is
// safe for concurrent use.
type Runner struct {
	m       *Model
	floatOK bool
	emb     [][]float64
	layers  []floatLayer
	period  int

	mu       sync.Mutex
	posCache map[positionKey][]float64 // float θ_n(i) by position key; nil entry: inexact
}

type floatLayer struct {
	heads            []floatHead
	ffn              *floatFFN
	attNorm, ffnNorm *floatNorm
}

type floatHead struct {
	S, V floatMatrix
}

type floatFFN struct {
	w1, w2 floatMatrix
	b1, b2 []float64
}

// NewRunner validates m and prepares it for repeated forward passes.
func NewRunner(m *Model) (*Runner, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	r := &Runner{m: m, floatOK: true, posCache: map[positionKey][]float64{}}
	var err error
	if r.period, err = positionPeriod(m.Position); err != nil {
		return nil, err
	}
	ok := func(b bool) {
		if !b {
			r.floatOK = false
		}
	}
	for _, e := range m.Embedding {
		f, exact := e.Float64s()
		ok(exact)
		r.emb = append(r.emb, f)
	}
	for l := range m.Layers {
		layer := &m.Layers[l]
		fl := floatLayer{attNorm: newFloatNorm(layer.AttentionNorm), ffnNorm: newFloatNorm(layer.FFNNorm)}
		for h := range layer.Heads {
			S, ok1 := toFloats(layer.Heads[h].Score)
			V, ok2 := toFloats(layer.Heads[h].Value)
			ok(ok1 && ok2)
			fl.heads = append(fl.heads, floatHead{S, V})
		}
		if f := layer.FFN; f != nil {
			var ff floatFFN
			var e [4]bool
			ff.w1, e[0] = toFloats(f.W1)
			ff.w2, e[1] = toFloats(f.W2)
			ff.b1, e[2] = f.B1.Float64s()
			ff.b2, e[3] = f.B2.Float64s()
			ok(e[0] && e[1] && e[2] && e[3])
			fl.ffn = &ff
		}
		r.layers = append(r.layers, fl)
	}
	return r, nil
}

// Model returns the model the runner runs.
func (r *Runner) Model() *Model { return r.m }

// Forward is Model.Forward (the fast pass), computed in float64 when that
// is provably exact.
func (r *Runner) Forward(w []int, opts FastOptions) (*Activations, error) {
	if r.floatOK {
		a, err := r.fastFloat(w, opts)
		if !errors.Is(err, errInexact) {
			return a, err
		}
	}
	return r.m.forwardExact(w, opts)
}

// ForwardDense is Model.ForwardDense.
func (r *Runner) ForwardDense(w []int) (*Activations, error) {
	if r.floatOK {
		xs, err := r.denseFloat(w)
		if err == nil {
			class := make([]int, len(w))
			for i := range class {
				class[i] = i
			}
			return newActivations(class, xs, nil), nil
		}
		if !errors.Is(err, errInexact) {
			return nil, err
		}
	}
	return r.m.denseExact(w)
}

// Accepts runs the fast pass and the output layer, falling back to the
// dense pass if the fast one meets too many distinct activation vectors.
func (r *Runner) Accepts(w []int) (bool, error) {
	if r.m.Output.Weight == nil {
		return false, errNoAccept
	}
	a, err := r.Forward(w, FastOptions{})
	var cle *ClassLimitError
	if errors.As(err, &cle) {
		return r.AcceptsDense(w)
	}
	if err != nil {
		return false, err
	}
	return r.m.decide(a.At(len(w) - 1)), nil
}

// AcceptsDense runs the dense pass and the output layer.
func (r *Runner) AcceptsDense(w []int) (bool, error) {
	if r.m.Output.Weight == nil {
		return false, errNoAccept
	}
	if r.floatOK {
		xs, err := r.denseFloat(w)
		if err == nil {
			return r.m.decide(floatsToVec(xs[len(xs)-1])), nil
		}

		if !errors.Is(err, errInexact) {
			return false, err
		}
	}
	a, err := r.m.denseExact(w)
	if err != nil {
		return false, err
	}
	return r.m.decide(a.At(len(w) - 1)), nil
}

// embedFloat returns the float64 embedding of every position, or
// errInexact.
func (r *Runner) embedFloat(w []int) ([][]float64, error) {
	xs := make([][]float64, len(w))
	for i, s := range w {
		x, err := r.embedOne(s, i, len(w))
		if err != nil {
			return nil, err
		}
		xs[i] = x
	}
	return xs, nil
}

// embedOne returns emb(s) + θ_n(i+1) in float64, or errInexact.
func (r *Runner) embedOne(s, i, n int) ([]float64, error) {
	m := r.m
	if len(m.Position) == 0 {
		return append([]float64(nil), r.emb[s]...), nil
	}
	k := keyOf(i+1, n, r.period)
	r.mu.Lock()
	pv, ok := r.posCache[k]
	if !ok {
		pv, _ = m.positionVector(i+1, n).Float64s()
		r.posCache[k] = pv
	}
	r.mu.Unlock()
	if pv == nil {
		return nil, errInexact
	}
	var c checked
	x := make([]float64, m.Width)
	for j := range x {
		x[j] = c.add(r.emb[s][j], pv[j])
	}
	if c.inexact {
		return nil, errInexact
	}
	return x, nil
}

// finishFloat applies norm, FFN and norm to the attention residual x (in
// place when possible), or reports errInexact.
func (r *Runner) finishFloat(l int, x []float64, c *checked) ([]float64, error) {
	layer := &r.m.Layers[l]
	if layer.AttentionNorm != nil {
		y, ok := normFloat(r.layers[l].attNorm, x)
		if !ok {
			return nil, errInexact
		}
		x = y
	}
	if f := r.layers[l].ffn; f != nil {
		hid := c.matVec(f.w1, x)
		for k := range hid {
			hid[k] = max(c.add(hid[k], f.b1[k]), 0)
		}
		out := c.matVec(f.w2, hid)
		for k := range x {
			x[k] = c.add(x[k], c.add(out[k], f.b2[k]))
		}
	}
	if layer.FFNNorm != nil {
		y, ok := normFloat(r.layers[l].ffnNorm, x)
		if !ok {
			return nil, errInexact
		}
		x = y
	}
	if c.inexact {
		return nil, errInexact
	}
	return x, nil
}

// floatKey is an exact key for a float64 vector (−0 and +0 identified).
func floatKey(buf []byte, x []float64) []byte {
	buf = buf[:0]
	for _, v := range x {
		if v == 0 {
			v = 0
		}
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
	}
	return buf
}

// fastFloat is the fast pass in checked float64 arithmetic.
func (r *Runner) fastFloat(w []int, opts FastOptions) (*Activations, error) {
	m := r.m
	if err := m.checkWord(w); err != nil {
		return nil, err
	}
	limit := opts.maxClasses()
	n := len(w)
	var vecs [][]float64
	index := map[string]int32{}
	cls := make([]int32, n)
	var buf []byte
	type embKey struct {
		sym int
		pos positionKey
	}
	embClass := map[embKey]int32{}
	for i, s := range w {
		var k embKey
		k.sym = s
		if len(m.Position) > 0 {
			k.pos = keyOf(i+1, n, r.period)
		}
		if c, ok := embClass[k]; ok {
			cls[i] = c
			continue
		}
		x, err := r.embedOne(s, i, n)
		if err != nil {
			return nil, err
		}
		buf = floatKey(buf, x)
		c, ok := index[string(buf)]
		if !ok {
			if len(vecs) >= limit {
				return nil, &ClassLimitError{Layer: 0, Limit: limit}
			}
			c = int32(len(vecs))
			index[string(buf)] = c
			vecs = append(vecs, x)
		}
		embClass[k] = c
		cls[i] = c
	}
	var c checked
	for l := range m.Layers {
		layer := &m.Layers[l]
		H := len(layer.Heads)
		chosen := make([][]int32, H)
		values := make([][][]float64, H)
		for h := range H {
			fh := &r.layers[l].heads[h]
			K := len(vecs)
			keys := make([][]float64, K)
			values[h] = make([][]float64, K)
			for k := range K {
				keys[k] = c.matVec(fh.S, vecs[k])
				values[h][k] = c.matVec(fh.V, vecs[k])
			}
			rank := make([][]int32, K)
			for q := range K {
				scores := make([]float64, K)
				order := make([]int, K)
				for k := range K {
					s := 0.0
					for d, v := range vecs[q] {
						if v != 0 && keys[k][d] != 0 {
							s = c.add(s, c.mul(v, keys[k][d]))
						}
					}
					scores[k] = s
					order[k] = k
				}
				sort.Slice(order, func(a, b int) bool { return scores[order[a]] < scores[order[b]] })
				rq := make([]int32, K)
				cur := int32(0)
				for p, k := range order {
					if p > 0 && scores[order[p-1]] != scores[k] {
						cur++
					}
					rq[k] = cur
				}
				rank[q] = rq
			}
			if c.inexact {
				return nil, errInexact
			}
			chosen[h] = scanHead(layer.Heads[h].Mask, layer.Heads[h].Tiebreak, rank, cls)
		}
		combo := map[string]int32{}
		key := make([]byte, 4*(H+1))
		next := [][]float64{}
		nextIndex := map[string]int32{}
		newCls := make([]int32, n)
		// With few classes, combinations (own class, attended classes) are
		// numbered densely and looked up in a table instead of a map.
		K := len(vecs)
		var table []int32
		if size := comboTableSize(K, H); size > 0 {
			table = make([]int32, size)
			for k := range table {
				table[k] = -1
			}
		}
		for i := range n {
			slot := -1
			if table != nil {
				slot = int(cls[i])
				for h := range H {
					slot = slot*(K+1) + int(chosen[h][i]+1)
				}
				if id := table[slot]; id >= 0 {
					newCls[i] = id
					continue
				}
			}
			binary.LittleEndian.PutUint32(key, uint32(cls[i]))
			for h := range H {
				binary.LittleEndian.PutUint32(key[4*(h+1):], uint32(chosen[h][i]))
			}
			if id, ok := combo[string(key)]; ok {
				newCls[i] = id
				if slot >= 0 {
					table[slot] = id
				}
				continue
			}
			x := append([]float64(nil), vecs[cls[i]]...)
			for h := range H {
				if k := chosen[h][i]; k >= 0 {
					for d, v := range values[h][k] {
						x[d] = c.add(x[d], v)
					}
				}
			}
			y, err := r.finishFloat(l, x, &c)
			if err != nil {
				return nil, err
			}
			buf = floatKey(buf, y)
			id, ok := nextIndex[string(buf)]
			if !ok {
				if len(next) >= limit {
					return nil, &ClassLimitError{Layer: l + 1, Limit: limit}
				}
				id = int32(len(next))
				nextIndex[string(buf)] = id
				next = append(next, y)
			}
			combo[string(key)] = id
			if slot >= 0 {
				table[slot] = id
			}
			newCls[i] = id
		}
		vecs, cls = next, newCls
	}
	class := make([]int, n)
	for i, c := range cls {
		class[i] = int(c)
	}
	return newActivations(class, vecs, nil), nil
}

// scanHead returns, for every position, the class of the position the head
// attends to (-1 if none is unmasked), given the rank of every key class's
// score for every query class. One scan over the positions keeps, for each
// query class, the best position so far under the tie-break.
func scanHead(mask position.Mask, tb position.Tiebreak, rank [][]int32, cls []int32) []int32 {
	n := len(cls)
	K := len(rank)
	chosen := make([]int32, n)
	present := make([]bool, K)
	for _, c := range cls {
		present[c] = true
	}
	var queries []int32
	for k := range K {
		if present[k] {
			queries = append(queries, int32(k))
		}
	}
	best := make([]int32, K) // best position so far per query class, -1 if none
	for k := range best {
		best[k] = -1
	}
	forward := mask == position.MaskFuture || mask == position.MaskFutureOrSelf || mask == position.MaskNone
	preferLater := (tb == position.Rightmost) == forward // ties go to the position met later in the scan
	update := func(j int) {
		cj := cls[j]
		for _, q := range queries {
			b := best[q]
			if b < 0 {
				best[q] = int32(j)
				continue
			}
			rj, rb := rank[q][cj], rank[q][cls[b]]
			if rj > rb || (rj == rb && preferLater) {
				best[q] = int32(j)
			}
		}
	}
	pick := func(i int) {
		if b := best[cls[i]]; b < 0 {
			chosen[i] = -1
		} else {
			chosen[i] = cls[b]
		}
	}
	switch mask {
	case position.MaskNone:
		for j := range n {
			update(j)
		}
		for i := range n {
			pick(i)
		}
	case position.MaskFuture:
		for i := range n {
			pick(i)
			update(i)
		}
	case position.MaskFutureOrSelf:
		for i := range n {
			update(i)
			pick(i)
		}
	case position.MaskPast:
		for i := n - 1; i >= 0; i-- {
			pick(i)
			update(i)
		}
	case position.MaskPastOrSelf:
		for i := n - 1; i >= 0; i-- {
			update(i)
			pick(i)
		}
	}
	return chosen
}

// comboTableSize returns K·(K+1)^H if it is at most 1<<16, else 0.
func comboTableSize(K, H int) int {
	size := K
	for range H {
		size *= K + 1
		if size > 1<<16 {
			return 0
		}
	}
	return size
}

// errNoAccept is returned when an acceptor verdict is asked of a transducer
// without acceptor output.
var errNoAccept = errors.New("the model is a transducer without an accept output (use Transduce)")

// Transduce runs the fast pass (falling back to the dense one if it meets
// too many distinct activation vectors) and the transducer's output layer:
// the output symbol at each position, as indices into
// Model().Transduction.Symbols.
func (r *Runner) Transduce(w []int) ([]int, error) {
	t := r.m.Transduction
	if t == nil {
		return nil, fmt.Errorf("the model is an acceptor, not a transducer")
	}
	a, err := r.Forward(w, FastOptions{})
	var cle *ClassLimitError
	if errors.As(err, &cle) {
		a, err = r.ForwardDense(w)
	}
	if err != nil {
		return nil, err
	}
	return transduce(t, a)
}

// transduce applies the transducer output layer to every position.
func transduce(t *Transduction, a *Activations) ([]int, error) {
	out := make([]int, a.Len())
	byClass := map[int]int{}
	for i := range out {
		c := a.ClassOf(i)
		if g, ok := byClass[c]; ok {
			out[i] = g
			continue
		}
		x := a.At(i)
		g := -1
		for k := range t.Symbols {
			s := dot(t.Weight[k], x)
			if s.Add(s, t.Bias[k]).Sign() < 0 {
				continue
			}
			if g >= 0 {
				return nil, fmt.Errorf("position %d: output symbols %s and %s both score ≥ 0", i+1, t.Symbols[g], t.Symbols[k])
			}
			g = k
		}
		if g < 0 {
			return nil, fmt.Errorf("position %d: no output symbol scores ≥ 0", i+1)
		}
		byClass[c] = g
		out[i] = g
	}
	return out, nil
}
