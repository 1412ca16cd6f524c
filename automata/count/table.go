package count

import (
	"math/big"
	"math/bits"
	"strconv"

	"github.com/brasp-dev/brasp/budget"
)

// Side is which words of a length are counted or drawn.
type Side int

const (
	// Accept: the words the automaton accepts.
	Accept Side = iota
	// Reject: the words it rejects.
	Reject
)

func (s Side) String() string {
	if s == Accept {
		return "accept"
	}
	return "reject"
}

// Table holds, for every length n from 0 to Max and each side, the number
// of words of length n leading from each state to a state of that side.
type Table struct {
	a   *Automaton
	max int
	// small[s][n] for the lengths n < len(small[s]), where the total
	// |Σ|^n fits in 64 bits; big[s][n-len(small[s])] beyond.
	small [2][][]uint64
	big   [2][][]big.Int
	// meter holds the table's bytes, and those of its Sampler and of the
	// distinct words Generate keeps: one count-table-bytes limit for all.
	meter *budget.Meter
}

// Max is the longest length counted.
func (t *Table) Max() int { return t.max }

// Automaton is the automaton counted.
func (t *Table) Automaton() *Automaton { return t.a }

// wordBytes is the bytes of one big.Int of the given bits: its header and
// its words.
func wordBytes(bitLen int64) int64 { return 24 + 8*((bitLen+63)/64) }

// fitsSmall returns the number of lengths 0, 1, ... whose total |Σ|^n fits
// in a uint64, up to max+1.
func (a *Automaton) fitsSmall(max int) int {
	if !a.letters.IsUint64() {
		return 1 // only length 0
	}
	l := a.letters.Uint64()
	total := uint64(1)
	for n := 1; n <= max; n++ {
		hi, lo := bits.Mul64(total, l)
		if hi != 0 {
			return n
		}
		total = lo
	}
	return max + 1
}

// TableSize is the bytes Count's table up to max takes (an estimate from
// above: every count of length n taken as large as |Σ|^n).
func (a *Automaton) TableSize(max int) int64 {
	nSmall := a.fitsSmall(max)
	states := int64(a.NumStates())
	size := 2 * states * int64(nSmall) * 8
	letterBits := int64(a.letters.BitLen())
	for n := int64(nSmall); n <= int64(max); n++ {
		size = satAdd(size, satMul(2*states, wordBytes(satMul(n, letterBits))))
	}
	return size
}

// satAdd and satMul are addition and multiplication of sizes that stop at
// the largest int64 instead of wrapping.
func satAdd(x, y int64) int64 {
	if s := x + y; s >= x {
		return s
	}
	return 1<<63 - 1
}

func satMul(x, y int64) int64 {
	if x == 0 || y == 0 {
		return 0
	}
	if x > (1<<63-1)/y {
		return 1<<63 - 1
	}
	return x * y
}

// Count builds the table of the lengths 0..max, charging its size
// (TableSize) to the count-table-bytes limit first (the limit of its
// Sampler and of Generate's distinct words too) and its work to the
// budget as it goes.
func (a *Automaton) Count(b *budget.Budget, max int) (*Table, error) {
	meter := b.Meter(TableBytes, "the table counting and drawing the words up to length "+strconv.Itoa(max))
	if err := meter.Add(a.TableSize(max)); err != nil {
		return nil, err
	}
	t := &Table{a: a, max: max, meter: meter}
	nSmall := a.fitsSmall(max)
	states := a.NumStates()
	for s := range 2 {
		zero := make([]uint64, states)
		for q, acc := range a.accept {
			if acc == (s == int(Accept)) {
				zero[q] = 1
			}
		}
		t.small[s] = append(t.small[s], zero)
		for n := 1; n < nSmall; n++ {
			prev, row := t.small[s][n-1], make([]uint64, states)
			for q, out := range a.out {
				var c uint64
				for i := range out {
					c += out[i].small * prev[out[i].to]
				}
				row[q] = c
				if err := b.Step(int64(1 + len(out))); err != nil {
					return nil, err
				}
			}
			t.small[s] = append(t.small[s], row)
		}
		var prev []big.Int
		if nSmall <= max {
			prev = make([]big.Int, states)
			for q, c := range t.small[s][nSmall-1] {
				prev[q].SetUint64(c)
			}
		}
		var term big.Int
		for n := nSmall; n <= max; n++ {
			row := make([]big.Int, states)
			for q, out := range a.out {
				for i := range out {
					term.Mul(&out[i].weight, &prev[out[i].to])
					row[q].Add(&row[q], &term)
				}
				if err := b.Step(int64(1 + len(out))); err != nil {
					return nil, err
				}
			}
			t.big[s] = append(t.big[s], row)
			prev = row
		}
	}
	return t, nil
}

// at sets z to W_s[n][q] and returns it.
func (t *Table) at(z *big.Int, s Side, n, q int) *big.Int {
	if n < len(t.small[s]) {
		return z.SetUint64(t.small[s][n][q])
	}
	return z.Set(&t.big[s][n-len(t.small[s])][q])
}

// Words is the number of words of length n on side s (0 ≤ n ≤ Max).
func (t *Table) Words(s Side, n int) *big.Int {
	return t.at(new(big.Int), s, n, t.a.start)
}

// Total is the number of words of length n, |Σ|^n.
func (t *Table) Total(n int) *big.Int {
	return new(big.Int).Exp(&t.a.letters, big.NewInt(int64(n)), nil)
}
