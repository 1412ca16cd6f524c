package transformer

import (
	"cmp"
	"encoding/binary"
	"math"
	"sort"

	"github.com/brasp-dev/brasp/position"
)

// The fast pass in checked float64 arithmetic (Runner.Forward's first
// choice); fast_exact.go has the same pass in exact rationals, dense.go
// the dense passes.

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

// floatClasses interns the float64 activation vectors of one layer.
type floatClasses struct {
	vecs         [][]float64
	index        map[string]int32
	limit, layer int
	buf          []byte // scratch for keys
}

// intern returns the class of x, adding it if new; past limit classes it
// returns a *ClassLimitError.
func (t *floatClasses) intern(x []float64) (int32, error) {
	t.buf = floatKey(t.buf, x)
	if c, ok := t.index[string(t.buf)]; ok {
		return c, nil
	}
	if len(t.vecs) >= t.limit {
		return 0, &ClassLimitError{Layer: t.layer, Limit: t.limit}
	}
	c := int32(len(t.vecs))
	t.index[string(t.buf)] = c
	t.vecs = append(t.vecs, x)
	return c, nil
}

// fastFloat is the fast pass in checked float64 arithmetic.
func (r *Runner) fastFloat(w []int, opts FastOptions) (*Activations, error) {
	m := r.m
	if err := m.checkWord(w); err != nil {
		return nil, err
	}
	limit := opts.maxClasses()
	n := len(w)
	classes := &floatClasses{index: map[string]int32{}, limit: limit}
	cls := make([]int32, n)
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
		c, err := classes.intern(x)
		if err != nil {
			return nil, err
		}
		embClass[k] = c
		cls[i] = c
	}
	var c checked
	for l := range m.Layers {
		layer := &m.Layers[l]
		vecs := classes.vecs
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
			scores := make([]float64, K)
			for q := range K {
				for k := range K {
					scores[k] = c.dot(vecs[q], keys[k])
				}
				rank[q] = denseRanks(scores, cmp.Compare[float64])
			}
			if c.inexact {
				return nil, errInexact
			}
			chosen[h] = scanHead(layer.Heads[h].Mask, layer.Heads[h].Tiebreak, rank, cls)
		}
		combo := map[string]int32{}
		key := make([]byte, 4*(H+1))
		next := &floatClasses{index: map[string]int32{}, limit: limit, layer: l + 1, buf: classes.buf}
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
			id, err := next.intern(y)
			if err != nil {
				return nil, err
			}
			combo[string(key)] = id
			if slot >= 0 {
				table[slot] = id
			}
			newCls[i] = id
		}
		classes, cls = next, newCls
	}
	class := make([]int, n)
	for i, c := range cls {
		class[i] = int(c)
	}
	return newActivations(class, classes.vecs, nil), nil
}

// denseRanks returns the rank of every score among the distinct scores
// (0 for the smallest), as cmp orders them.
func denseRanks[T any](scores []T, cmp func(a, b T) int) []int32 {
	order := make([]int, len(scores))
	for k := range order {
		order[k] = k
	}
	sort.Slice(order, func(a, b int) bool { return cmp(scores[order[a]], scores[order[b]]) < 0 })
	r := make([]int32, len(scores))
	cur := int32(0)
	for p, k := range order {
		if p > 0 && cmp(scores[order[p-1]], scores[k]) != 0 {
			cur++
		}
		r[k] = cur
	}
	return r
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
