package exact

import (
	"fmt"
	"strconv"
)

// This file adds an attention operation to the bimachine. Forward
// operations (masks j<i, j<=i) refine the left machine and backward ones
// (j>i, j>=i) the right machine by one construction, written once over the
// side it refines; the tables' layout is read through strides.

// machine is the bimachine's left (left = true) or right machine.
func (b *bimachine) machine(left bool) (n int, delta [][]int) {
	if left {
		return b.nL, b.dL
	}
	return b.nR, b.dR
}

// setMachine replaces the left or right machine.
func (b *bimachine) setMachine(left bool, n int, delta [][]int) {
	if left {
		b.nL, b.dL = n, delta
	} else {
		b.nR, b.dR = n, delta
	}
}

// strides says where cells lie in a table of the bimachine seen from one
// side: the cell of (own state, symbol a, other side's state) is
// own*sOwn + a*sA + other*sOther, for nOwn states on that side and nOther
// on the other. Tables are laid out as cell(ℓ, a, r) = (ℓσ + a)·nR + r.
func (b *bimachine) strides(left bool, nOwn, nOther int) (sOwn, sA, sOther int) {
	if left {
		return b.sigma * nOther, nOther, 1
	}
	return 1, nOwn, b.sigma * nOwn
}

// project returns table t with the states of one side replaced: new state i
// takes the cells of old state pick[i] (of nOld), the other side (nOther
// states) unchanged. The copying is charged to the budget a block at a
// time.
func (b *bimachine) project(t []bool, left bool, pick []int, nOld, nOther int) ([]bool, error) {
	n := len(pick)
	if left {
		row := b.sigma * nOther
		nt := make([]bool, n*row)
		for i, q := range pick {
			err := b.blocks(row, func(lo, hi int) {
				copy(nt[i*row+lo:i*row+hi], t[q*row+lo:q*row+hi])
			})
			if err != nil {
				return nil, err
			}
		}
		return nt, nil
	}
	nt := make([]bool, nOther*b.sigma*n)
	for la := 0; la < nOther*b.sigma; la++ {
		err := b.blocks(n, func(lo, hi int) {
			for i, q := range pick[lo:hi] {
				nt[la*n+lo+i] = t[la*nOld+q]
			}
		})
		if err != nil {
			return nil, err
		}
	}
	return nt, nil
}

// extend adds an attention operation to the machine of its direction.
//
// Forward: the new left machine's state before position i is (ℓ_i, φ)
// where φ[ρ][α] summarises the positions j < i (the value at the selected
// one, or none) assuming the right machine's state at position i-1 is ρ;
// reading w_i = a, the summary for right state r at position i is
// φ[δR(r, a)] updated with position i. Backward, symmetrically: the new
// right machine's state at position i is (r_i, ψ) where ψ[λ][α] summarises
// the positions j > i assuming the left machine's state at position i+1 is
// λ. α is the assignment of the atoms (the vectors the score and value read
// at i). A position met later in the scan replaces the selected one when
// the tie-break prefers it: rightmost going forward, leftmost going
// backward. A strict mask selects from the summary before the position
// itself is added.
func (b *bimachine) extend(op *attn) error {
	left := op.forward
	nOwn, dOwn := b.machine(left)
	nOther, dOther := b.machine(!left)
	sOwn, sA, sOther := b.strides(left, nOwn, nOther)
	side := "the right machine"
	if left {
		side = "the left machine"
	}
	replace := op.rightmost == left
	na := 1 << len(op.atoms)
	w := nOther * na
	index := map[string]int{}
	var sums [][]byte
	var proj []int
	var delta [][]int
	var val [][]bool // per new state: its values at (a, other) = a*nOther + other
	intern := func(q int, sum []byte) (int, error) {
		key := string(sum) + strconv.Itoa(q)
		if id, ok := index[key]; ok {
			return id, nil
		}
		if err := b.bud.Check(maxStates, int64(len(sums)+1), side); err != nil {
			return 0, err
		}
		// The summary is held twice (the list and the index's key), and
		// the new machine's table needs σ×nOther cells per state.
		if err := b.bud.Check(maxTableBytes, int64(len(sums)+1)*int64(max(2*w, b.sigma*nOther)), side+" (its summaries and tables)"); err != nil {
			return 0, err
		}
		if err := b.bud.Step(int64(w)); err != nil {
			return 0, err
		}
		index[key] = len(sums)
		sums = append(sums, sum)
		proj = append(proj, q)
		return len(sums) - 1, nil
	}
	if _, err := intern(0, make([]byte, w)); err != nil {
		return err
	}
	for i := 0; i < len(sums); i++ {
		q, sum := proj[i], sums[i]
		row := make([]int, b.sigma)
		vals := make([]bool, b.sigma*nOther)
		for a := 0; a < b.sigma; a++ {
			// Each symbol's summary reads every (other state, atoms) slot.
			if err := b.bud.Step(int64(w)); err != nil {
				return err
			}
			next := make([]byte, w)
			for o := 0; o < nOther; o++ {
				c := q*sOwn + a*sA + o*sOther
				prev := dOther[o][a]
				for al := 0; al < na; al++ {
					old := sum[prev*na+al]
					nv := old
					if (replace || old == none) && op.s(b.tab, c, uint32(al)) {
						nv = code(op.v(b.tab, c, uint32(al)))
					}
					next[o*na+al] = nv
				}
				al := int(op.alphaAt(b.tab, c))
				sel := next[o*na+al]
				if op.strict {
					sel = sum[prev*na+al]
				}
				if sel == none {
					vals[a*nOther+o] = op.d(b.tab, c, 0)
				} else {
					vals[a*nOther+o] = sel == valTrue
				}
			}
			j, err := intern(dOwn[q][a], next)
			if err != nil {
				return err
			}
			row[a] = j
		}
		delta = append(delta, row)
		val = append(val, vals)
	}
	n := len(sums)
	if left {
		if err := b.checkTables(n, nOther); err != nil {
			return err
		}
	} else if err := b.checkTables(nOther, n); err != nil {
		return err
	}
	for k, t := range b.tab {
		if t != nil {
			nt, err := b.project(t, left, proj, nOwn, nOther)
			if err != nil {
				return err
			}
			b.tab[k] = nt
		}
	}
	sOwn, sA, sOther = b.strides(left, n, nOther)
	nt := make([]bool, n*b.sigma*nOther)
	for i, v := range val {
		err := b.blocks(len(v), func(lo, hi int) {
			for j := lo; j < hi; j++ {
				a, o := j/nOther, j%nOther
				nt[i*sOwn+a*sA+o*sOther] = v[j]
			}
		})
		if err != nil {
			return err
		}
	}
	b.tab[op.out] = nt
	b.setMachine(left, n, delta)
	return nil
}

// checkTables checks that the live tables and a new one fit within
// exact-bytes for machines of nL left and nR right states.
func (b *bimachine) checkTables(nL, nR int) error {
	need := int64(b.liveTables()+1) * int64(nL) * int64(b.sigma) * int64(nR)
	return b.bud.Check(maxTableBytes, need, fmt.Sprintf("the truth tables (%d of %d left states × %d symbols × %d right states)", b.liveTables()+1, nL, b.sigma, nR))
}

// liveTables is the number of tables currently kept.
func (b *bimachine) liveTables() int {
	n := 0
	for _, t := range b.tab {
		if t != nil {
			n++
		}
	}
	return n
}
