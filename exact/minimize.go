package exact

import (
	"strconv"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
)

// minimize merges left states that no live table and no future step can
// tell apart (same rows of every live table, equivalent successors), and
// likewise right states, by Moore's partition refinement. This is the
// "minimise after every step" that keeps the machines small.
func (b *bimachine) minimize(live []int) error {
	for _, left := range []bool{true, false} {
		if err := b.minimizeSide(live, left); err != nil {
			return err
		}
	}
	return nil
}

// minimizeSide minimises the left or the right machine: the signature of a
// state is its cells in every live table.
func (b *bimachine) minimizeSide(live []int, left bool) error {
	n, delta := b.machine(left)
	nOther, _ := b.machine(!left)
	sOwn, sA, sOther := b.strides(left, n, nOther)
	class, m, err := refine(b.bud, n, b.sigma, delta, func(q int, buf []byte) ([]byte, error) {
		for _, k := range live {
			t := b.tab[k]
			for a := 0; a < b.sigma; a++ {
				err := b.blocks(nOther, func(lo, hi int) {
					for o := lo; o < hi; o++ {
						buf = append(buf, boolByte(t[q*sOwn+a*sA+o*sOther]))
					}
				})
				if err != nil {
					return nil, err
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
			t, err := b.project(b.tab[k], left, rep, n, nOther)
			if err != nil {
				return err
			}
			b.tab[k] = t
		}
		b.setMachine(left, m, quotient(delta, class, rep))
	}
	return nil
}

func boolByte(x bool) byte {
	if x {
		return 1
	}
	return 0
}

// refine is Moore's algorithm: classes of states with equal signatures
// (which sig appends to buf, charging its work to the budget), refined by
// the classes of successors until stable. Class 0 contains state 0, and
// classes are numbered by first member.
func refine(bud *budget.Budget, n, sigma int, delta [][]int, sig func(q int, buf []byte) ([]byte, error)) ([]int, int, error) {
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
	for {
		// Each round reads every transition, charged state by state; there
		// are at most n rounds.
		ids := map[string]int{}
		next := make([]int, n)
		for q := range n {
			if err := bud.Step(int64(sigma + 1)); err != nil {
				return nil, 0, err
			}
			buf = buf[:0]
			buf = appendInt(buf, class[q])
			for a := range sigma {
				buf = appendInt(buf, class[delta[q][a]])
			}
			id, ok := ids[string(buf)]
			if !ok {
				id = len(ids)
				ids[string(buf)] = id
			}
			next[q] = id
		}
		class = next
		if len(ids) == count {
			return class, count, nil
		}
		count = len(ids)
	}
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
	for a := 0; a < b.sigma; a++ {
		d.Delta[0][a] = 1 + 2*b.dL[0][a] + int(boolByte(t[b.cell(0, a, 0)]))
	}
	for l := 0; l < b.nL; l++ {
		for bit := 0; bit < 2; bit++ {
			q := 1 + 2*l + bit
			d.Accept[q] = bit == 1
			for a := 0; a < b.sigma; a++ {
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
