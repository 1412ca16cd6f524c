package transformer

import (
	"math/big"

	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/position"
)

// ForwardDense runs the forward pass as the definition of §4.1 states it:
// every position computes its score against every unmasked position,
// O(n²·d) per head. Scores are compared exactly: the pass computes in
// float64 while every operation is provably exact (each product and sum is
// checked error-free with FMA and TwoSum, so no rounding ever happens), and
// otherwise reruns in exact rational arithmetic. Layer norm is always
// computed exactly. The pass runs within b (see Runner.SetBudget).
func (m *Model) ForwardDense(b *budget.Budget, w []int) (*Activations, error) {
	r, err := m.runner(b)
	if err != nil {
		return nil, err
	}
	return r.ForwardDense(w)
}

// AcceptsDense runs the dense forward pass and the output layer within b.
func (m *Model) AcceptsDense(b *budget.Budget, w []int) (bool, error) {
	r, err := m.runner(b)
	if err != nil {
		return false, err
	}
	return r.AcceptsDense(w)
}

// denseFloat is the dense pass in checked float64 arithmetic. It returns
// errInexact as soon as some operation would round.
func (r *Runner) denseFloat(w []int) ([][]float64, error) { return r.denseFloatPattern(w, nil) }

// denseFloatPattern is denseFloat; when pattern is not nil (as newPattern
// makes it) it also records in pattern[l][h][i] the position head h of
// layer l attends to at position i, -1 when the mask leaves none. Its work
// (a unit per score) is charged to the runner's budget, whose context
// stops it.
func (r *Runner) denseFloatPattern(w []int, pattern [][][]int) ([][]float64, error) {
	m := r.m
	if err := m.checkWord(w); err != nil {
		return nil, err
	}
	n, d := len(w), m.Width
	if err := r.bud.Err(); err != nil {
		return nil, err
	}
	var c checked
	xs, err := r.embedFloat(w)
	if err != nil {
		return nil, err
	}
	for l := range m.Layers {
		layer := &m.Layers[l]
		att := make([][]float64, n)
		for i := range att {
			att[i] = make([]float64, d)
		}
		for h := range layer.Heads {
			hd := &layer.Heads[h]
			fh := &r.layers[l].heads[h]
			keys := make([][]float64, n)
			vals := make([][]float64, n)
			for j := range n {
				keys[j] = c.matVec(fh.S, xs[j])
				vals[j] = c.matVec(fh.V, xs[j])
			}
			nzq := make([]int, 0, d)
			for i := range n {
				nzq = nzq[:0]
				for k, v := range xs[i] {
					if v != 0 {
						nzq = append(nzq, k)
					}
				}
				best, bestScore := -1, 0.0
				lo, hi := maskRange(hd.Mask, i, n)
				if err := r.bud.Step(int64(hi-lo) + 1); err != nil {
					return nil, err
				}
				for j := lo; j < hi; j++ {
					s := 0.0
					kj := keys[j]
					for _, k := range nzq {
						if kj[k] != 0 {
							s = c.add(s, c.mul(xs[i][k], kj[k]))
						}
					}
					if best < 0 || s > bestScore || (s == bestScore && hd.Tiebreak == position.Rightmost) {
						best, bestScore = j, s
					}
				}
				if pattern != nil {
					pattern[l][h][i] = best
				}
				if best >= 0 {
					for k, v := range vals[best] {
						att[i][k] = c.add(att[i][k], v)
					}
				}
			}
			if c.inexact {
				return nil, errInexact
			}
		}
		for i := range n {
			x := make([]float64, d)
			for k := range x {
				x[k] = c.add(xs[i][k], att[i][k])
			}
			y, err := r.finishFloat(l, x, nil, &c)
			if err != nil {
				return nil, err
			}
			xs[i] = y
		}
	}
	return xs, nil
}

// denseExact is the dense pass in exact rational arithmetic.
func (m *Model) denseExact(b *budget.Budget, w []int) (*Activations, error) {
	return m.denseExactPattern(b, w, nil, nil)
}

// denseExactPattern is denseExact, recording the attended positions in
// pattern as denseFloatPattern does, and, when trace is not nil, every
// intermediate value (Model.Trace). It runs within the budget's
// rational-bits (checked on every activation vector) and its work and
// context (checked at every position of every layer).
func (m *Model) denseExactPattern(b *budget.Budget, w []int, pattern [][][]int, trace *Trace) (*Activations, error) {
	if err := m.checkWord(w); err != nil {
		return nil, err
	}
	n := len(w)
	a := Arith{MaxBits: b.Max(RationalBits)}
	step := func() error { return a.Charge(b) }
	if err := b.Err(); err != nil {
		return nil, err
	}
	xs := make([]Vec, n)
	for i, s := range w {
		xs[i] = copyVec(m.Embedding[s])
		if len(m.Position) > 0 {
			addInto(xs[i], m.positionVector(i+1, n))
		}
		a.checkBits(xs[i])
		if err := step(); err != nil {
			return nil, err
		}
	}
	if trace != nil {
		trace.Embed = copyVecs(xs)
	}
	for l := range m.Layers {
		layer := &m.Layers[l]
		var lt LayerTrace
		if trace != nil {
			lt.Attended = make([][]int, len(layer.Heads))
			for h := range lt.Attended {
				lt.Attended[h] = make([]int, n)
			}
		}
		cs := make([]Vec, n)
		for i := range cs {
			cs[i] = copyVec(xs[i])
		}
		for h := range layer.Heads {
			hd := &layer.Heads[h]
			keys := make([]Vec, n)
			for j := range n {
				keys[j] = a.MatVec(hd.Score, xs[j])
			}
			for i := range n {
				if err := step(); err != nil {
					return nil, err
				}
				best := -1
				var bestScore *big.Rat
				for j := range n {
					if !hd.Mask.Allows(i, j) {
						continue
					}
					s := a.Dot(xs[i], keys[j])
					if best < 0 {
						best, bestScore = j, s
						continue
					}
					if cmp := s.Cmp(bestScore); cmp > 0 || (cmp == 0 && hd.Tiebreak == position.Rightmost) {
						best, bestScore = j, s
					}
				}
				if pattern != nil {
					pattern[l][h][i] = best
				}
				if trace != nil {
					lt.Attended[h][i] = best
				}
				if best >= 0 {
					addInto(cs[i], a.MatVec(hd.Value, xs[best]))
				}
			}
		}
		if trace != nil {
			lt.Mid = make([]Vec, n)
		}
		for i := range n {
			mid := a.midLayer(layer, cs[i])
			if trace != nil {
				lt.Mid[i] = copyVec(mid)
			}
			xs[i] = a.postLayer(layer, mid)
			if err := step(); err != nil {
				return nil, err
			}
		}
		if trace != nil {
			lt.Post = copyVecs(xs)
			trace.Layers = append(trace.Layers, lt)
		}
	}
	return newActivations(identityClasses(n), nil, xs), nil
}

// maskRange returns the positions [lo, hi) that mask lets position i (0-based)
// attend to in a word of length n.
func maskRange(mask position.Mask, i, n int) (lo, hi int) {
	switch mask {
	case position.MaskFuture:
		return 0, i
	case position.MaskFutureOrSelf:
		return 0, i + 1
	case position.MaskPast:
		return i + 1, n
	case position.MaskPastOrSelf:
		return i, n
	}
	return 0, n
}
