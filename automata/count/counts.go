package count

import (
	"math"
	"math/big"
	"strconv"

	"github.com/brasp-dev/brasp/budget"
)

// Counts calls emit with, for every length n from lo to hi (0 ≤ lo ≤ hi),
// how many words of length n the automaton accepts and rejects and how
// many there are (|Σ|^n), exactly; the numbers are valid until emit
// returns.
//
// Unlike Count's table, which keeps every length for the sampler, Counts
// keeps one row: v_n[q], the number of words of length n leading from the
// start to q, rolled forward (v_n[r] = Σ over the edges q → r of
// weight(q → r) · v_{n-1}[q]), so its memory is a few rows of counts of
// hi·log2|Σ| bits, and the accepted words of length n are the sum of v_n
// over the accepting states. A range starting far out reaches v_lo by
// powers of the matrix of edge weights (v_lo = e_start · M^lo, by
// repeated squaring) when that costs fewer word operations than rolling
// there (a few states and a long lo), so one length of 10^6 takes the
// logarithm of its length in matrix products.
//
// Its rows (and matrices) are charged to count-table-bytes before they are
// built, and its work to the budget as it goes.
func (a *Automaton) Counts(b *budget.Budget, lo, hi int, emit func(n int, accepted, rejected, total *big.Int) error) error {
	states := a.NumStates()
	letterBits := int64(a.letters.BitLen())
	rowBytes := satMul(int64(states), wordBytes(satMul(int64(hi), letterBits)))
	jump := lo > 0 && a.powerCost(lo) < rollCost(int64(a.edges()), lo, letterBits)
	need := satMul(3, rowBytes)
	if jump {
		need = satAdd(need, satMul(3*int64(states), rowBytes))
	}
	meter := b.Meter(TableBytes, "the counts of the words up to length "+strconv.Itoa(hi))
	if err := meter.Add(need); err != nil {
		return err
	}
	var acc, rej, total, term big.Int
	v := make([]big.Int, states)
	// emit gives length n, whose row is v.
	emitRow := func(n int) error {
		acc.SetInt64(0)
		for q, ok := range a.accept {
			if ok {
				acc.Add(&acc, &v[q])
			}
		}
		rej.Sub(&total, &acc)
		return emit(n, &acc, &rej, &total)
	}
	n := 0
	if jump {
		v[a.start].SetInt64(1)
		if err := a.power(b, v, lo); err != nil {
			return err
		}
		n = lo
		total.Exp(&a.letters, big.NewInt(int64(n)), nil)
		if err := emitRow(n); err != nil {
			return err
		}
	} else {
		// While every count of a length fits in 64 bits (|Σ|^n does),
		// the row is a row of machine words.
		nSmall := a.fitsSmall(hi)
		row, next := make([]uint64, states), make([]uint64, states)
		row[a.start] = 1
		for {
			for q, c := range row {
				v[q].SetUint64(c)
			}
			total.Exp(&a.letters, big.NewInt(int64(n)), nil)
			if n >= lo {
				if err := emitRow(n); err != nil {
					return err
				}
			}
			if n == hi || n+1 >= nSmall {
				break
			}
			clear(next)
			for q, out := range a.out {
				for i := range out {
					next[out[i].to] += out[i].small * row[q]
				}
			}
			row, next = next, row
			n++
			if err := b.Step(int64(1 + a.edges())); err != nil {
				return err
			}
		}
	}
	next := make([]big.Int, states)
	for n < hi {
		for q := range next {
			next[q].SetInt64(0)
		}
		for q, out := range a.out {
			if v[q].Sign() == 0 {
				continue
			}
			for i := range out {
				to := &next[out[i].to]
				if out[i].small == 1 {
					to.Add(to, &v[q])
				} else {
					to.Add(to, term.Mul(&out[i].weight, &v[q]))
				}
				if err := b.Step(1 + int64(v[q].BitLen())/64); err != nil {
					return err
				}
			}
		}
		v, next = next, v
		total.Mul(&total, &a.letters)
		n++
		if n >= lo {
			if err := emitRow(n); err != nil {
				return err
			}
		}
	}
	return nil
}

// edges is the number of edges of the automaton.
func (a *Automaton) edges() int {
	e := 0
	for _, out := range a.out {
		e += len(out)
	}
	return e
}

// rollCost estimates the word operations of rolling a row of e edges from
// length 0 to n: at length m each edge adds a count of m·letterBits bits.
func rollCost(e int64, n int, letterBits int64) float64 {
	return float64(e) * float64(n) * float64(n) * float64(letterBits) / 128
}

// powerCost estimates the word operations of e_start · M^n by repeated
// squaring: about two products of s×s matrices of counts of up to
// n·log2|Σ| bits per bit of n, dominated by the last (Karatsuba: words to
// the power 1.585), the earlier ones a geometric series.
func (a *Automaton) powerCost(n int) float64 {
	s := float64(a.NumStates())
	words := float64(n)*float64(a.letters.BitLen())/64 + 1
	return 4 * s * s * s * math.Pow(words, 1.585)
}

// power sets v (e_start) to e_start · M^n, where M[q][r] is the weight of
// the edge q → r: the matrix is squared bit by bit of n, and v multiplied
// by it where a bit is set, from the lowest bit up (M^n = Π M^(2^i)).
func (a *Automaton) power(b *budget.Budget, v []big.Int, n int) error {
	states := a.NumStates()
	m := newMatrix(states)
	for q, out := range a.out {
		for i := range out {
			m[q][out[i].to].Set(&out[i].weight)
		}
	}
	sq := newMatrix(states)
	next := make([]big.Int, states)
	var term big.Int
	for {
		if n&1 == 1 {
			for r := range next {
				next[r].SetInt64(0)
				for q := range v {
					if v[q].Sign() != 0 && m[q][r].Sign() != 0 {
						next[r].Add(&next[r], term.Mul(&v[q], &m[q][r]))
						if err := b.Step(1 + int64(term.BitLen())/64); err != nil {
							return err
						}
					}
				}
			}
			copy(v, next)
			next = make([]big.Int, states)
		}
		n >>= 1
		if n == 0 {
			return nil
		}
		for q := range sq {
			for r := range sq[q] {
				sq[q][r].SetInt64(0)
				for k := range states {
					if m[q][k].Sign() != 0 && m[k][r].Sign() != 0 {
						sq[q][r].Add(&sq[q][r], term.Mul(&m[q][k], &m[k][r]))
						if err := b.Step(1 + int64(term.BitLen())/64); err != nil {
							return err
						}
					}
				}
			}
		}
		m, sq = sq, m
	}
}

// newMatrix is an s×s matrix of zeros.
func newMatrix(s int) [][]big.Int {
	m := make([][]big.Int, s)
	for q := range m {
		m[q] = make([]big.Int, s)
	}
	return m
}
