package exact

import (
	"slices"

	"github.com/brasp-dev/brasp/bdd"
)

// This file adds an attention operation to the bimachine over propositions
// and minimises its machines: bimachine.extend and bimachine.minimize with
// the letter dimension a decision diagram.

func (s *symMachine) machine(left bool) (int, []bdd.Node) {
	if left {
		return s.nL, s.dL
	}
	return s.nR, s.dR
}

func (s *symMachine) setMachine(left bool, n int, delta []bdd.Node) {
	if left {
		s.nL, s.dL = n, delta
	} else {
		s.nR, s.dR = n, delta
	}
}

// cellAt is the cell of (own state, other side's state) seen from one side,
// for nOwn states on that side and nOther on the other.
func cellAt(left bool, own, other, nOwn, nOther int) int {
	if left {
		return own*nOther + other
	}
	return other*nOwn + own
}

// project returns table t with the states of one side replaced: new state
// i takes the cells of old state pick[i] (of nOld).
func project(t []bdd.Node, left bool, pick []int, nOld, nOther int) []bdd.Node {
	n := len(pick)
	nt := make([]bdd.Node, n*nOther)
	for i, q := range pick {
		for o := range nOther {
			nt[cellAt(left, i, o, n, nOther)] = t[cellAt(left, q, o, nOld, nOther)]
		}
	}
	return nt
}

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
func (s *symMachine) extend(op *symAttn) error {
	m := s.m
	left := op.forward
	nOwn, dOwn := s.machine(left)
	nOther, dOther := s.machine(!left)
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
	var key []byte
	// intern numbers the state (q, sum); sum may be scratch memory, copied
	// when the state is new.
	intern := func(q int, sum []byte) (int, error) {
		if err := s.bud.Step(1); err != nil {
			return 0, err
		}
		key = appendInt(append(key[:0], sum...), q)
		if id, ok := index[string(key)]; ok {
			return id, nil
		}
		if err := s.bud.Check(maxStates, int64(len(sums)+1), side); err != nil {
			return 0, err
		}
		// The summary is held twice (the list and the index's key), and
		// the new machine's table needs a node per other state.
		if err := s.bud.Check(maxTableBytes, int64(len(sums)+1)*int64(2*w+4*nOther), side+" (its summaries and tables)"); err != nil {
			return 0, err
		}
		if err := s.bud.Step(int64(w)); err != nil {
			return 0, err
		}
		index[string(key)] = len(sums)
		sums = append(sums, slices.Clone(sum))
		proj = append(proj, q)
		return len(sums) - 1, nil
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
	for i := 0; i < len(sums); i++ {
		q, sum := proj[i], sums[i]
		row := make([]bdd.Node, nOther)
		for o := range nOther {
			c := cellAt(left, q, o, nOwn, nOther)
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
				if err := s.bud.Check(maxTableBytes, ld.bytes(), side+" (the scratch diagram of one state's successors)"); err != nil {
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
	n := len(sums)
	if left {
		if err := s.checkTables(n, nOther); err != nil {
			return err
		}
	} else if err := s.checkTables(nOther, n); err != nil {
		return err
	}
	for k, t := range s.tab {
		if t != nil {
			s.tab[k] = project(t, left, proj, nOwn, nOther)
		}
	}
	nt := make([]bdd.Node, n*nOther)
	for i, row := range vals {
		for o, x := range row {
			nt[cellAt(left, i, o, n, nOther)] = x
		}
	}
	s.tab[op.out] = nt
	s.setMachine(left, n, delta)
	return nil
}

// minimize merges the states of both machines that no live table and no
// future step can tell apart, as bimachine.minimize does.
func (s *symMachine) minimize(live []int) error {
	for _, left := range []bool{true, false} {
		if err := s.minimizeSide(live, left); err != nil {
			return err
		}
	}
	return nil
}

// minimizeSide is Moore's refinement on one machine: a state's first
// signature is its cells in every live table (diagrams, so equal functions
// are equal nodes), then its class and its transition diagram with each
// leaf replaced by its class's terminal, until no class splits.
func (s *symMachine) minimizeSide(live []int, left bool) error {
	m := s.m
	n, delta := s.machine(left)
	nOther, _ := s.machine(!left)
	class := make([]int, n)
	ids := map[string]int{}
	var buf []byte
	for q := range n {
		buf = buf[:0]
		for _, k := range live {
			t := s.tab[k]
			err := chargeBlocks(s.bud, nOther, func(lo, hi int) {
				for o := lo; o < hi; o++ {
					buf = appendInt(buf, int(t[cellAt(left, q, o, n, nOther)]))
				}
			})
			if err != nil {
				return err
			}
		}
		id, ok := ids[string(buf)]
		if !ok {
			id = len(ids)
			ids[string(buf)] = id
		}
		class[q] = id
	}
	count := len(ids)
	var memo bdd.NodeMap[bdd.Node]
	toClass := func(p int) bdd.Node { return m.Terminal(class[p]) }
	for {
		memo.Clear()
		next := make([]int, n)
		pairs := map[[2]int]int{}
		for q := range n {
			// A round over thousands of dense diagrams takes seconds:
			// each state's relabelling is charged as it is done.
			if err := s.bud.Step(1); err != nil {
				return err
			}
			key := [2]int{class[q], int(s.relabel(delta[q], &memo, toClass))}
			id, ok := pairs[key]
			if !ok {
				id = len(pairs)
				pairs[key] = id
			}
			next[q] = id
		}
		if err := m.Err(); err != nil {
			return err
		}
		class = next
		if len(pairs) == count {
			break
		}
		count = len(pairs)
	}
	if count == n {
		return nil
	}
	rep := representatives(class, count)
	memo.Clear()
	nd := make([]bdd.Node, count)
	for c, q := range rep {
		nd[c] = s.relabel(delta[q], &memo, toClass)
	}
	for _, k := range live {
		s.tab[k] = project(s.tab[k], left, rep, n, nOther)
	}
	s.setMachine(left, count, nd)
	return m.Err()
}
