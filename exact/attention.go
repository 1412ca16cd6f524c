package exact

// This file adds an attention operation to the bimachine over letters.
// Forward operations (masks j<i, j<=i) refine the left machine and
// backward ones (j>i, j>=i) the right machine by one construction, written
// once over the side it refines; the tables' layout is read through
// strides, and the new machine's states, tables and projection are the
// sides' (summaries, refined).

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
func (b *bimachine) extend(op *attn[bool]) error {
	left := op.forward
	nOwn, dOwn := b.machine(left)
	nOther, dOther := b.machine(!left)
	sOwn, sA, sOther := b.strides(left, nOwn, nOther)
	sigma := b.width
	replace := op.rightmost == left
	na := 1 << len(op.atoms)
	w := nOther * na
	z := newSummaries(b.bud, left, w, int64(sigma*nOther))
	if _, err := z.intern(0, make([]byte, w)); err != nil {
		return err
	}
	var delta [][]int
	var val [][]bool // per new state: its values at (a, other) = a*nOther + other
	next := make([]byte, w)
	memo := make([]*cellsMemo, nOwn)
	for i := 0; i < len(z.sums); i++ {
		q, sum := z.proj[i], z.sums[i]
		if memo[q] == nil {
			m, err := newCellsMemo(z, sigma*nOther, na)
			if err != nil {
				return err
			}
			memo[q] = m
		}
		mq := memo[q]
		row := make([]int, sigma)
		vals := make([]bool, sigma*nOther)
		for a := 0; a < sigma; a++ {
			// Each symbol's summary reads every (other state, atoms) slot.
			if err := b.bud.Step(int64(w)); err != nil {
				return err
			}
			for o := 0; o < nOther; o++ {
				c := q*sOwn + a*sA + o*sOther
				prev := dOther[o][a]
				cell := a*nOther + o
				for al := 0; al < na; al++ {
					old := sum[prev*na+al]
					nv := old
					if replace || old == none {
						if sv := mq.selects(op, b.tab, c, cell*na+al, uint32(al)); sv != none {
							nv = sv
						}
					}
					next[o*na+al] = nv
				}
				al, def := mq.at(op, b.tab, c, cell)
				sel := next[o*na+al]
				if op.strict {
					sel = sum[prev*na+al]
				}
				if sel == none {
					vals[a*nOther+o] = def
				} else {
					vals[a*nOther+o] = sel == valTrue
				}
			}
			j, err := z.intern(dOwn[q][a], next)
			if err != nil {
				return err
			}
			row[a] = j
		}
		delta = append(delta, row)
		val = append(val, vals)
	}
	return b.refined(op.out, left, z, delta, val)
}

// cellsMemo is what an attention step's expressions say at the cells
// (q, a, o) of one old state q of the machine it refines. They read only
// the tables at the cell and the atoms' assignment, so every new state
// projecting to q reuses them rather than evaluating them again.
type cellsMemo struct {
	slots []byte  // per (cell, α): 0 not yet evaluated, else 1 + the value selected (none: the score is false)
	alpha []int32 // per cell: the atoms' assignment there, −1 until evaluated
	def   []bool  // per cell: the default value
}

// newCellsMemo makes the memo of n cells and na atom assignments, its
// bytes reserved in z.
func newCellsMemo(z *summaries, n, na int) (*cellsMemo, error) {
	if err := z.reserve(int64(n*na + 5*n)); err != nil {
		return nil, err
	}
	m := &cellsMemo{slots: make([]byte, n*na), alpha: make([]int32, n), def: make([]bool, n)}
	for k := range m.alpha {
		m.alpha[k] = -1
	}
	return m, nil
}

// selects is the value the position at cell c selects under atom
// assignment al (slot k): code(v) where the score holds, none where not.
func (m *cellsMemo) selects(op *attn[bool], tab [][]bool, c, k int, al uint32) byte {
	if m.slots[k] == 0 {
		sv := none
		if op.s(tab, c, al) {
			sv = code(op.v(tab, c, al))
		}
		m.slots[k] = 1 + sv
	}
	return m.slots[k] - 1
}

// at is the atoms' assignment at cell c (index cell) and the default value there.
func (m *cellsMemo) at(op *attn[bool], tab [][]bool, c, cell int) (int, bool) {
	if m.alpha[cell] < 0 {
		m.alpha[cell] = int32(alphaAt(op.atoms, tab, c))
		m.def[cell] = op.d(tab, c, 0)
	}
	return int(m.alpha[cell]), m.def[cell]
}
