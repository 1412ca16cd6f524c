package exact

import (
	"strconv"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/bdd"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
)

// transitions is how Moore minimisation reads the transitions D of a
// machine's states: a row of successors per letter, or a diagram whose
// leaves are the successors.
type transitions[D any] interface {
	// round starts a refinement round with the current classes.
	round(class []int)
	// key appends to buf what transitions d say under the round's classes.
	key(buf []byte, d D) []byte
	// cost is the work key does, for the budget.
	cost() int64
	// quotient returns the transitions of the classes' representatives
	// rep, successors replaced by their classes.
	quotient(delta []D, class, rep []int) []D
	// err reports an error met on the way (the diagram budget).
	err() error
}

// minimize merges left states that no live table and no future step can
// tell apart (same rows of every live table, equivalent successors), and
// likewise right states, by Moore's partition refinement. This is the
// "minimise after every step" that keeps the machines small.
func (s *sides[C, D]) minimizeWith(live []int, tr transitions[D]) error {
	for _, left := range []bool{true, false} {
		if err := s.minimizeSide(live, left, tr); err != nil {
			return err
		}
	}
	return nil
}

// minimizeSide minimises the left or the right machine: the signature of a
// state is its cells in every live table (diagrams, so equal functions are
// equal nodes), then its class and its successors' classes.
func (s *sides[C, D]) minimizeSide(live []int, left bool, tr transitions[D]) error {
	n, delta := s.machine(left)
	nOther, _ := s.machine(!left)
	sOwn, sA, sOther := s.strides(left, n, nOther)
	class, m, err := refine(s.bud, delta, tr, func(q int, buf []byte) ([]byte, error) {
		for _, k := range live {
			t := s.tab[k]
			for a := 0; a < s.width; a++ {
				// chargeBlocks written out: no closure per row, whose
				// captured buf costs a write barrier per block.
				for lo := 0; lo < nOther; lo += tableBlock {
					hi := min(lo+tableBlock, nOther)
					if err := s.bud.Step(int64(1 + hi - lo)); err != nil {
						return nil, err
					}
					buf = appendCells(buf, t, q*sOwn+a*sA, sOther, lo, hi)
				}
			}
		}
		return buf, nil
	})
	if err != nil {
		return err
	}
	if m < n {
		rep := representatives(class, m)
		for _, k := range live {
			t, err := s.project(s.tab[k], left, rep, n, nOther)
			if err != nil {
				return err
			}
			s.tab[k] = t
		}
		s.setMachine(left, m, tr.quotient(delta, class, rep))
	}
	return tr.err()
}

// appendCells appends the cells base + o·stride of t for o in [lo, hi):
// a byte per Boolean, the node of a diagram.
func appendCells[C cell](buf []byte, t []C, base, stride, lo, hi int) []byte {
	switch t := any(t).(type) {
	case []bool:
		for o := lo; o < hi; o++ {
			buf = append(buf, boolByte(t[base+o*stride]))
		}
	case []bdd.Node:
		for o := lo; o < hi; o++ {
			buf = appendInt(buf, int(t[base+o*stride]))
		}
	}
	return buf
}

func boolByte(x bool) byte {
	if x {
		return 1
	}
	return 0
}

// refine is Moore's algorithm: classes of states with equal signatures
// (which sig appends to buf, charging its work to the budget), refined by
// the classes of successors until stable (by automata.Refine past
// hopcroftAfter rounds when the transitions are rows of letters). Class 0 contains state 0, and
// classes are numbered by first member.
// hopcroftAfter is the number of Moore rounds after which refine finishes
// rows of letters with Hopcroft's algorithm (fewer rounds cost less than
// its inverse transitions).
const hopcroftAfter = 4

func refine[D any](bud *budget.Budget, delta []D, tr transitions[D], sig func(q int, buf []byte) ([]byte, error)) ([]int, int, error) {
	n := len(delta)
	class := make([]int, n)
	ids := map[string]int{}
	var buf []byte
	for q := range n {
		var err error
		if buf, err = sig(q, buf[:0]); err != nil {
			return nil, 0, err
		}
		id, ok := ids[string(buf)]
		if !ok {
			id = len(ids)
			ids[string(buf)] = id
		}
		class[q] = id
	}
	count := len(ids)
	rows, _ := any(delta).([][]int)
	lr, _ := any(tr).(*letterRows)
	for round := 0; ; round++ {
		if round == hopcroftAfter && rows != nil && lr != nil {
			// Rows of letters needing many rounds (a counter of n states
			// needs n of them): Hopcroft's refinement of the classes so
			// far, whose cost does not grow with the rounds.
			return automata.Refine(bud, rows, lr.sigma, class)
		}
		// Each round reads every transition, charged state by state; there
		// are at most n rounds.
		tr.round(class)
		ids := map[string]int{}
		next := make([]int, n)
		for q := range n {
			if err := bud.Step(tr.cost()); err != nil {
				return nil, 0, err
			}
			buf = appendInt(buf[:0], class[q])
			buf = tr.key(buf, delta[q])
			id, ok := ids[string(buf)]
			if !ok {
				id = len(ids)
				ids[string(buf)] = id
			}
			next[q] = id
		}
		if err := tr.err(); err != nil {
			return nil, 0, err
		}
		class = next
		if len(ids) == count {
			return class, count, nil
		}
		count = len(ids)
	}
}

// letterRows are the transitions of the bimachine over letters: a row of
// successors per state.
type letterRows struct {
	sigma int
	class []int
}

func (r *letterRows) round(class []int) { r.class = class }
func (r *letterRows) cost() int64       { return int64(r.sigma + 1) }
func (r *letterRows) err() error        { return nil }

func (r *letterRows) key(buf []byte, row []int) []byte {
	for _, q := range row {
		buf = appendInt(buf, r.class[q])
	}
	return buf
}

func (r *letterRows) quotient(delta [][]int, class, rep []int) [][]int {
	return quotient(delta, class, rep)
}

func appendInt(buf []byte, x int) []byte {
	return append(buf, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
}

func representatives(class []int, n int) []int {
	rep := make([]int, n)
	for i := range rep {
		rep[i] = -1
	}
	for q, c := range class {
		if rep[c] < 0 {
			rep[c] = q
		}
	}
	return rep
}

func quotient(delta [][]int, class, rep []int) [][]int {
	out := make([][]int, len(rep))
	for c, q := range rep {
		row := make([]int, len(delta[q]))
		for a, r := range delta[q] {
			row[a] = class[r]
		}
		out[c] = row
	}
	return out
}

// dfa reads off the language: w is accepted iff the output table holds at
// (ℓ_n, w_n, r = 0). The DFA's state after a non-empty prefix is the left
// state after it together with the output at its last position.
func (b *bimachine) dfa(p *brasp.Program, out int) (*automata.DFA, error) {
	t := b.tab[out]
	// States: 0 = start (ε, rejecting); 1 + 2ℓ + bit.
	n := 1 + 2*b.nL
	d := automata.NewDFA(p.Alphabet, n)
	for a := 0; a < b.width; a++ {
		d.Delta[0][a] = 1 + 2*b.dL[0][a] + int(boolByte(t[b.cell(0, a, 0)]))
	}
	for l := 0; l < b.nL; l++ {
		for bit := 0; bit < 2; bit++ {
			q := 1 + 2*l + bit
			d.Accept[q] = bit == 1
			for a := 0; a < b.width; a++ {
				d.Delta[q][a] = 1 + 2*b.dL[l][a] + int(boolByte(t[b.cell(l, a, 0)]))
			}
		}
	}
	m, err := automata.Minimize(b.bud, d)
	if err != nil {
		return nil, err
	}
	return renamed(m), nil
}

// renamed names the states q0, q1, ... in order.
func renamed(d *automata.DFA) *automata.DFA {
	for q := range d.States {
		d.States[q] = "q" + strconv.Itoa(q)
	}
	return d
}
