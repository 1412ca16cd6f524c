package count

import (
	"math/big"
	"math/rand/v2"

	"github.com/brasp-dev/brasp/budget"
)

// Sampler draws words uniformly from a Table's automaton: of a given
// length and side (Draw), or among all words of a length (DrawAny). It is
// deterministic for a given random source, and not safe for concurrent
// use.
type Sampler struct {
	t   *Table
	rng *rand.Rand
	// cells[s][m-1][q] is how to choose the edge out of q with m letters
	// still to draw on side s: the edges of non-zero weight with their
	// cumulative weights in picks[off:off+n].
	cells [2][][]cell
	picks []pick
	// scratch for the exact decisions.
	u, c, term, wn big.Int
}

// cell is the choice of an edge out of one state for one remaining length
// and side. When shift is negative the cumulative weights are exact and
// total is their sum; otherwise they are the top 64 bits of the cumulative
// weights, all shifted right by shift bits, the sum being shift+64 bits
// long.
type cell struct {
	off   int
	n     int32
	shift int32
	total uint64
}

// pick is one edge of a cell with the upper end of its interval of
// cumulative weight (exact, or shifted right by the cell's shift).
type pick struct {
	edge  int32
	upper uint64
}

const (
	cellBytes = 8 + 4 + 4 + 8
	pickBytes = 16
)

// Sampler prepares the choices of every state, remaining length and side
// (charged with the table to count-table-bytes), drawing from rng.
func (t *Table) Sampler(b *budget.Budget, rng *rand.Rand) (*Sampler, error) {
	if err := t.a.canSample; err != nil {
		return nil, err
	}
	a := t.a
	meter := t.meter
	sp := &Sampler{t: t, rng: rng}
	states := a.NumStates()
	var w, cum, next big.Int
	for s := Accept; s <= Reject; s++ {
		for m := 1; m <= t.max; m++ {
			row := make([]cell, states)
			if err := meter.Add(int64(states) * cellBytes); err != nil {
				return nil, err
			}
			for q, out := range a.out {
				c := &row[q]
				c.off = len(sp.picks)
				t.at(&w, s, m, q)
				if w.Sign() == 0 {
					continue
				}
				c.shift = -1
				if w.IsUint64() {
					c.total = w.Uint64()
				} else {
					c.shift = int32(w.BitLen() - 64)
				}
				cum.SetInt64(0)
				for i := range out {
					t.at(&next, s, m-1, out[i].to)
					if next.Sign() == 0 {
						continue
					}
					cum.Add(&cum, next.Mul(&next, &out[i].weight))
					p := pick{edge: int32(i)}
					if c.shift < 0 {
						p.upper = cum.Uint64()
					} else {
						p.upper = next.Rsh(&cum, uint(c.shift)).Uint64()
					}
					sp.picks = append(sp.picks, p)
					c.n++
				}
				if err := meter.Add(int64(c.n) * pickBytes); err != nil {
					return nil, err
				}
				if err := b.Step(int64(1 + len(out))); err != nil {
					return nil, err
				}
			}
			sp.cells[s] = append(sp.cells[s], row)
		}
	}
	return sp, nil
}

// Draw appends to w a word of length n (1 ≤ n ≤ the table's Max) drawn
// uniformly among the words of side s, and reports false when there is
// none.
func (sp *Sampler) Draw(s Side, n int, w []uint64) ([]uint64, bool) {
	a := sp.t.a
	q := a.start
	if sp.cells[s][n-1][q].n == 0 {
		return w, false
	}
	for m := n; m >= 1; m-- {
		e := &a.out[q][sp.choose(s, m, q)]
		w = append(w, e.pickLetter(sp.rng))
		q = e.to
	}
	return w, true
}

// DrawAny appends to w a word of length n drawn uniformly among all words
// of that length, and reports whether the automaton accepts it.
func (sp *Sampler) DrawAny(n int, w []uint64) ([]uint64, bool) {
	a := sp.t.a
	q := a.start
	for range n {
		var l uint64
		if a.props >= 0 {
			l = sp.rng.Uint64() >> (64 - a.props) // 0 for no propositions
		} else {
			l = sp.rng.Uint64N(a.letters.Uint64())
		}
		w = append(w, l)
		q = a.step(q, l)
	}
	return w, a.accept[q]
}

// pickLetter draws one of the edge's letters uniformly.
func (e *edge) pickLetter(rng *rand.Rand) uint64 {
	if e.guard != nil {
		return e.guard.pick(rng)
	}
	if len(e.letters) == 1 {
		return e.letters[0]
	}
	return e.letters[rng.Uint64N(uint64(len(e.letters)))]
}

// choose draws the edge out of q with m letters to go on side s, each
// with probability its weight times its successor's count over q's count.
func (sp *Sampler) choose(s Side, m, q int) int {
	c := &sp.cells[s][m-1][q]
	picks := sp.picks[c.off : c.off+int(c.n)]
	if c.shift < 0 {
		h := sp.rng.Uint64N(c.total)
		for _, p := range picks {
			if h < p.upper {
				return int(p.edge)
			}
		}
		panic("count: cumulative weights do not reach the total")
	}
	for {
		// h is the top 64 bits of a uniform draw below 2^(shift+64),
		// kept if below the count.
		h := sp.rng.Uint64()
		j := 0
		for j < len(picks) && h >= picks[j].upper {
			j++
		}
		last := picks[len(picks)-1].upper
		switch {
		case j == len(picks) && h > last:
			continue // the whole draw is above the count
		case j < len(picks) && (j == 0 || h > picks[j-1].upper):
			// The draw's interval [h·2^shift, (h+1)·2^shift) lies inside
			// edge j's interval of cumulative weight.
			return int(picks[j].edge)
		}
		// The interval straddles a boundary: draw the remaining bits.
		if e, ok := sp.exact(s, m, q, h); ok {
			return e
		}
	}
}

// exact completes the draw whose top 64 bits are h with uniform low bits,
// and returns the edge whose interval holds it, or false when the draw is
// not below the count (to be drawn again).
func (sp *Sampler) exact(s Side, m, q int, h uint64) (int, bool) {
	c := &sp.cells[s][m-1][q]
	t, a := sp.t, sp.t.a
	sp.u.SetUint64(h)
	sp.u.Lsh(&sp.u, uint(c.shift))
	low := sp.c.SetInt64(0)
	for i := int32(0); i < c.shift; i += 64 {
		low.Lsh(low, 64)
		low.Or(low, sp.term.SetUint64(sp.rng.Uint64()))
	}
	low.Rsh(low, uint((64-c.shift%64)%64))
	sp.u.Or(&sp.u, low)
	if t.at(&sp.wn, s, m, q); sp.u.Cmp(&sp.wn) >= 0 {
		return 0, false
	}
	cum := sp.c.SetInt64(0)
	out := a.out[q]
	for _, p := range sp.picks[c.off : c.off+int(c.n)] {
		e := &out[p.edge]
		t.at(&sp.term, s, m-1, e.to)
		cum.Add(cum, sp.term.Mul(&sp.term, &e.weight))
		if sp.u.Cmp(cum) < 0 {
			return int(p.edge), true
		}
	}
	panic("count: cumulative weights do not reach the total")
}
