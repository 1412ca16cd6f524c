package exact

import (
	"github.com/brasp-dev/brasp/bdd"
)

// This file adds an attention operation to the bimachine over propositions
// and minimises its machines: bimachine.extend and bimachine.minimize with
// the letter dimension a decision diagram.

// extend adds an attention operation to the machine of its direction, as
// bimachine.extend does. The new state (q, φ) reads a valuation a; for
// each state o of the other machine and atom assignment α, the summary
// before the position is φ[δ_other(o, a)][α], a function of a read off
// the other machine's diagram of o with its leaves relabelled (two
// diagrams: "some position selected" and "its value is 1"), and the
// position itself updates it where the score's diagram holds. The
// successor on a is (δ_own(q, a), the updated summaries): one diagram
// whose leaves are the interned successors, built from q's diagram one
// summary code at a time (leafDiagram).
func (s *symMachine) extend(op *attn[bdd.Node]) error {
	m := s.m
	left := op.forward
	nOwn, dOwn := s.machine(left)
	nOther, dOther := s.machine(!left)
	sOwn, _, sOther := s.strides(left, nOwn, nOther)
	replace := op.rightmost == left
	na := 1 << len(op.atoms)
	w := nOther * na
	// The new machine's table needs a node per other state.
	z := newSummaries(s.bud, left, w, int64(4*nOther))
	intern := func(q int, sum []byte) (int, error) {
		if err := s.bud.Step(1); err != nil {
			return 0, err
		}
		return z.intern(q, sum)
	}
	if _, err := intern(0, make([]byte, w)); err != nil {
		return err
	}
	var delta []bdd.Node
	var vals [][]bdd.Node // per new state: its value per other state
	// Per (other state o, α) at o·na + α: selected before the position
	// and its value (dOld, vOld); after it (dNew, vNew; vNew implies dNew).
	dOld, vOld := make([]bdd.Node, w), make([]bdd.Node, w)
	dNew, vNew := make([]bdd.Node, w), make([]bdd.Node, w)
	var memo bdd.NodeMap[bdd.Node]
	ld := newLeafDiagram(m, s.k)
	fromMemo := map[bdd.Node]leafRef{}
	slotOf := map[[2]bdd.Node]int{}
	slot := make([]int, w)
	scratch := make([]byte, w)
	toMemo := map[leafRef]bdd.Node{}
	for i := 0; i < len(z.sums); i++ {
		q, sum := z.proj[i], z.sums[i]
		row := make([]bdd.Node, nOther)
		for o := range nOther {
			c := q*sOwn + o*sOther
			for al := range na {
				x := o*na + al
				memo.Clear()
				dOld[x] = s.relabel(dOther[o], &memo, func(p int) bdd.Node { return boolNode(sum[p*na+al] != none) })
				memo.Clear()
				vOld[x] = s.relabel(dOther[o], &memo, func(p int) bdd.Node { return boolNode(sum[p*na+al] == valTrue) })
				sc := op.s(s.tab, c, uint32(al))
				take := sc
				if !replace {
					take = m.And(sc, m.Not(dOld[x]))
				}
				dNew[x] = m.Or(dOld[x], sc)
				vNew[x] = m.Ite(take, op.v(s.tab, c, uint32(al)), vOld[x])
			}
			// The value at the position itself: the summary (before it for
			// a strict mask) under the atoms' values there, else the default.
			selD, selV := bdd.False, bdd.False
			for al := range na {
				g := bdd.True
				for b, a := range op.atoms {
					if al>>b&1 == 1 {
						g = m.And(g, s.tab[a][c])
					} else {
						g = m.And(g, m.Not(s.tab[a][c]))
					}
				}
				x := o*na + al
				dx, vx := dNew[x], vNew[x]
				if op.strict {
					dx, vx = dOld[x], vOld[x]
				}
				selD = m.Or(selD, m.And(g, dx))
				selV = m.Or(selV, m.And(g, vx))
			}
			row[o] = m.Ite(selD, selV, op.d(s.tab, c, 0))
		}
		ld.reset()
		clear(fromMemo)
		succ := ld.from(s, dOwn[q], fromMemo)
		// Codes with the same pair of diagrams are equal on every
		// valuation (about half of them on compiled LTLf): one product
		// each, slot[x] the code's place in the tuple.
		clear(slotOf)
		nslots := 0
		for x := range w {
			pair := [2]bdd.Node{dNew[x], vNew[x]}
			j, ok := slotOf[pair]
			if !ok {
				j = nslots
				nslots++
				slotOf[pair] = j
				before := ld.memo.n
				succ = ld.extend(succ, dNew[x], vNew[x])
				if err := s.bud.Step(int64(ld.memo.n-before) + 1); err != nil {
					return err
				}
				if err := s.bud.Check(maxTableBytes, ld.bytes(), z.side+" (the scratch diagram of one state's successors)"); err != nil {
					return err
				}
			}
			slot[x] = j
		}
		clear(toMemo)
		var err error
		next := ld.to(succ, toMemo, func(e int32) bdd.Node {
			if err != nil {
				return bdd.False
			}
			q, codes := ld.tuple(e, nslots)
			sum := scratch
			for x, j := range slot {
				sum[x] = codes[j]
			}
			var j int
			if j, err = intern(q, sum); err != nil {
				return bdd.False
			}
			return m.Terminal(j)
		})
		if err != nil {
			return err
		}
		if err := s.bud.Step(int64(ld.size() + 1)); err != nil {
			return err
		}
		if err := m.Err(); err != nil {
			return err
		}
		delta = append(delta, next)
		vals = append(vals, row)
	}
	return s.refined(op.out, left, z, delta, vals)
}

// minimize minimises both machines (sides.minimizeWith): a state's
// successors under a round's classes are its transition diagram with each
// leaf replaced by its class's terminal.
func (s *symMachine) minimize(live []int) error {
	return s.minimizeWith(live, &symRows{s: s})
}

// symRows are the transitions of the bimachine over propositions.
type symRows struct {
	s     *symMachine
	class []int
	memo  bdd.NodeMap[bdd.Node]
}

func (r *symRows) round(class []int) { r.class = class; r.memo.Clear() }

// cost: a round over thousands of dense diagrams takes seconds, so each
// state's relabelling is charged as it is done.
func (r *symRows) cost() int64 { return 1 }
func (r *symRows) err() error  { return r.s.m.Err() }

func (r *symRows) toClass(p int) bdd.Node { return r.s.m.Terminal(r.class[p]) }

func (r *symRows) key(buf []byte, d bdd.Node) []byte {
	return appendInt(buf, int(r.s.relabel(d, &r.memo, r.toClass)))
}

func (r *symRows) quotient(delta []bdd.Node, class, rep []int) []bdd.Node {
	r.round(class)
	nd := make([]bdd.Node, len(rep))
	for c, q := range rep {
		nd[c] = r.s.relabel(delta[q], &r.memo, r.toClass)
	}
	return nd
}
