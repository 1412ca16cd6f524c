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
	for i := 0; i < len(z.sums); i++ {
		q, sum := z.proj[i], z.sums[i]
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
				for al := 0; al < na; al++ {
					old := sum[prev*na+al]
					nv := old
					if (replace || old == none) && op.s(b.tab, c, uint32(al)) {
						nv = code(op.v(b.tab, c, uint32(al)))
					}
					next[o*na+al] = nv
				}
				al := int(alphaAt(op.atoms, b.tab, c))
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
