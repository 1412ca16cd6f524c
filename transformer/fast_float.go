package transformer

import (
	"cmp"
	"encoding/binary"
	"math"
	"slices"
)

// The fast pass's kernel in checked float64 arithmetic (Runner.Forward's
// first choice); fast.go has the pass, fast_exact.go its kernel in exact
// rationals, dense.go the dense passes.

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

// intern returns the class of x, adding x (a copy of it when clone is set)
// if new; past limit classes it returns a *ClassLimitError.
func (t *floatClasses) intern(x []float64, clone bool) (int32, error) {
	t.buf = floatKey(t.buf, x)
	if c, ok := t.index[string(t.buf)]; ok {
		return c, nil
	}
	if len(t.vecs) >= t.limit {
		return 0, &ClassLimitError{Layer: t.layer, Limit: t.limit}
	}
	c := int32(len(t.vecs))
	t.index[string(t.buf)] = c
	if clone {
		x = slices.Clone(x)
	}
	t.vecs = append(t.vecs, x)
	return c, nil
}

// floatKernel is the classKernel in checked float64 arithmetic (the fast
// pass's first choice): any rounding makes it report errInexact.
type floatKernel struct {
	r         *Runner
	c         checked
	cur, next *floatClasses
	vals      [][][]float64 // [head][class]: Value·x of the current layer
	x, y      []float64     // combine's scratch
}

func newFloatKernel(r *Runner, limit int) *floatKernel {
	return &floatKernel{r: r,
		cur:  &floatClasses{index: map[string]int32{}, limit: limit},
		next: &floatClasses{index: map[string]int32{}, limit: limit, layer: 1}}
}

func (k *floatKernel) embed(s, i, n int) (int32, error) {
	x, err := k.r.embedOne(s, i, n)
	if err != nil {
		return 0, err
	}
	return k.cur.intern(x, false)
}

func (k *floatKernel) ranks(l, h int) ([][]int32, error) {
	fh := &k.r.layers[l].heads[h]
	vecs := k.cur.vecs
	K := len(vecs)
	for len(k.vals) <= h {
		k.vals = append(k.vals, nil)
	}
	keys := make([][]float64, K)
	k.vals[h] = make([][]float64, K)
	nk, nv := len(fh.S.cols), len(fh.V.cols)
	keyBuf, valBuf := make([]float64, K*nk), make([]float64, K*nv)
	for q := range K {
		keys[q], _ = k.c.affineInto(keyBuf[q*nk:(q+1)*nk:(q+1)*nk], fh.S, vecs[q], nil)
		k.vals[h][q], _ = k.c.affineInto(valBuf[q*nv:(q+1)*nv:(q+1)*nv], fh.V, vecs[q], nil)
	}
	rank := make([][]int32, K)
	rankBuf := make([]int32, K*K)
	scores := make([]float64, K)
	order := make([]int, K)
	for q := range K {
		for j := range K {
			scores[j] = k.c.dot(vecs[q], keys[j])
		}
		rank[q] = rankBuf[q*K : (q+1)*K : (q+1)*K]
		denseRanksInto(rank[q], order, scores, cmp.Compare[float64])
	}
	if k.c.inexact {
		return nil, errInexact
	}
	return rank, nil
}

func (k *floatKernel) combine(l int, own int32, chosen []int32) (int32, error) {
	x := append(k.x[:0], k.cur.vecs[own]...)
	k.x = x
	for h, c := range chosen {
		if c >= 0 {
			for d, v := range k.vals[h][c] {
				x[d] = k.c.add(x[d], v)
			}
		}
	}
	y, err := k.r.finishFloat(l, x, k.y, &k.c)
	if err != nil {
		return 0, err
	}
	if k.r.layers[l].ffn != nil {
		k.y = y // y is in k.y's storage, distinct from k.x's
	}
	return k.next.intern(y, true)
}

func (k *floatKernel) advance() {
	k.cur, k.next = k.next, &floatClasses{index: map[string]int32{}, limit: k.cur.limit, layer: k.next.layer + 1, buf: k.cur.buf}
}

func (k *floatKernel) numClasses() int { return len(k.cur.vecs) }

func (k *floatKernel) activations(cls classIDs) *Activations {
	return newActivations(cls, k.cur.vecs, nil)
}

// denseRanks returns the rank of every score among the distinct scores
// (0 for the smallest), as cmp orders them.
func denseRanks[T any](scores []T, cmp func(a, b T) int) []int32 {
	r := make([]int32, len(scores))
	denseRanksInto(r, make([]int, len(scores)), scores, cmp)
	return r
}

// denseRanksInto is denseRanks writing the ranks into r, with order as
// scratch (both of len(scores)).
func denseRanksInto[T any](r []int32, order []int, scores []T, cmp func(a, b T) int) {
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(a, b int) int { return cmp(scores[a], scores[b]) })
	cur := int32(0)
	for p, k := range order {
		if p > 0 && cmp(scores[order[p-1]], scores[k]) != 0 {
			cur++
		}
		r[k] = cur
	}
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
