package exact

import (
	"fmt"
	"slices"

	"github.com/brasp-dev/brasp/bdd"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
)

// sides is the part of a bimachine that does not depend on what a table
// cell is: the left and right machines (complete DFAs with start state 0),
// the tables, their layout, projection, the table checks, Moore
// minimisation and the bookkeeping of an attention step. The bimachine
// over letters (cells bool, a state's transitions a row of successors per
// letter) and the one over propositions (cells and transitions decision
// diagrams over the propositions) embed it and add what differs: how a
// cell is computed and how an attention step finds a state's successors.
//
// Table layout: the cell of (ℓ, a, r) is (ℓ·width + a)·nR + r, where a
// runs over the letters a table spells out: the alphabet over letters, a
// single one over propositions (there the letter is inside the cell).
type sides[C cell, D any] struct {
	width  int
	nL, nR int
	dL, dR []D
	tab    [][]C // per table index; nil when not computed or dead
	bud    *budget.Budget
}

// cell is what a table holds: a Boolean, or a decision diagram.
type cell interface{ bool | bdd.Node }

// cellFn evaluates an expression at a cell of the tables, with the
// (i)-atoms of a score or value given by the bits of alpha.
type cellFn[C cell] func(t [][]C, c int, alpha uint32) C

// attn is one directed attention operation: forward ones (masks j<i,
// j<=i) refine the left machine, backward ones (j>i, j>=i) the right
// machine.
type attn[C cell] struct {
	out                        int // table written
	forward, strict, rightmost bool
	s, v, d                    cellFn[C]
	atoms                      []int
}

// step is one operation of the compiled program: an attention operation
// or a position-wise computation of table out.
type step[C cell] struct {
	att *attn[C]
	out int
	pw  cellFn[C]
}

// compileSteps compiles the planned steps with compile, the expression
// compiler of one kind of cell.
func compileSteps[C cell](plans []stepPlan, compile func(e brasp.Expr, idx map[int]int) cellFn[C]) []step[C] {
	steps := make([]step[C], len(plans))
	for t, pl := range plans {
		st := step[C]{out: pl.out}
		if a := pl.att; a != nil {
			st.att = &attn[C]{out: pl.out, forward: a.forward, strict: a.strict, rightmost: a.rightmost,
				s: compile(a.score, a.idx), v: compile(a.value, a.idx), d: compile(a.def, nil), atoms: a.atoms}
		} else {
			st.pw = compile(pl.expr, nil)
		}
		steps[t] = st
	}
	return steps
}

func (s *sides[C, D]) numTables() int  { return len(s.tab) }
func (s *sides[C, D]) kept(k int) bool { return s.tab[k] != nil }
func (s *sides[C, D]) drop(k int)      { s.tab[k] = nil }

// machine is the left (left = true) or right machine.
func (s *sides[C, D]) machine(left bool) (n int, delta []D) {
	if left {
		return s.nL, s.dL
	}
	return s.nR, s.dR
}

// setMachine replaces the left or right machine.
func (s *sides[C, D]) setMachine(left bool, n int, delta []D) {
	if left {
		s.nL, s.dL = n, delta
	} else {
		s.nR, s.dR = n, delta
	}
}

// strides says where cells lie in a table seen from one side: the cell of
// (own state, letter a, other side's state) is own*sOwn + a*sA +
// other*sOther, for nOwn states on that side and nOther on the other.
func (s *sides[C, D]) strides(left bool, nOwn, nOther int) (sOwn, sA, sOther int) {
	if left {
		return s.width * nOther, nOther, 1
	}
	return 1, nOwn, s.width * nOwn
}

// blocks is chargeBlocks on the bimachine's budget.
func (s *sides[C, D]) blocks(n int, f func(lo, hi int)) error { return chargeBlocks(s.bud, n, f) }

// positionwise computes table out cell by cell with pw.
func (s *sides[C, D]) positionwise(out int, pw cellFn[C]) error {
	if err := s.checkTables(s.nL, s.nR); err != nil {
		return err
	}
	tab := make([]C, s.nL*s.width*s.nR)
	err := s.blocks(len(tab), func(lo, hi int) {
		for c := lo; c < hi; c++ {
			tab[c] = pw(s.tab, c, 0)
		}
	})
	s.tab[out] = tab
	return err
}

// checkTables checks that the live tables and a new one fit within
// exact-bytes for machines of nL left and nR right states (a diagram cell
// is a node reference; the diagrams themselves are charged to bdd-bytes).
func (s *sides[C, D]) checkTables(nL, nR int) error {
	live := 1
	for _, t := range s.tab {
		if t != nil {
			live++
		}
	}
	var c C
	_, diagrams := any(c).(bdd.Node)
	size := int64(1)
	if diagrams {
		size = 4
	}
	need := int64(live) * int64(nL) * int64(s.width) * int64(nR) * size
	if need <= s.bud.Max(maxTableBytes) {
		return s.bud.Err() // the message is written only for a table too large
	}
	what := fmt.Sprintf("%d of %d left states × %d symbols × %d right states", live, nL, s.width, nR)
	if diagrams {
		what = fmt.Sprintf("%d of %d left states × %d right states, a decision diagram per cell", live, nL, nR)
	}
	return s.bud.Check(maxTableBytes, need, "the truth tables ("+what+")")
}

// project returns table t with the states of one side replaced: new state
// i takes the cells of old state pick[i] (of nOld), the other side (nOther
// states) unchanged. The copying is charged to the budget a block at a
// time.
func (s *sides[C, D]) project(t []C, left bool, pick []int, nOld, nOther int) ([]C, error) {
	n := len(pick)
	if left {
		row := s.width * nOther
		nt := make([]C, n*row)
		for i, q := range pick {
			err := s.blocks(row, func(lo, hi int) {
				copy(nt[i*row+lo:i*row+hi], t[q*row+lo:q*row+hi])
			})
			if err != nil {
				return nil, err
			}
		}
		return nt, nil
	}
	nt := make([]C, nOther*s.width*n)
	for la := 0; la < nOther*s.width; la++ {
		err := s.blocks(n, func(lo, hi int) {
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

// summaries numbers the states (q, φ) of a machine an attention step
// builds: q the old state, φ the summary of the positions on one side, one
// byte per (other side's state, atom assignment).
type summaries struct {
	bud   *budget.Budget
	side  string // the machine refined, for messages
	w     int    // bytes of a summary
	bytes int64  // bytes of the new machine's table per state, besides its summary
	extra int64  // bytes the step holds besides (reserve)
	index map[string]int
	sums  [][]byte
	proj  []int // the old state of each new one
	key   []byte
}

func newSummaries(bud *budget.Budget, left bool, w int, bytes int64) *summaries {
	side := "the right machine"
	if left {
		side = "the left machine"
	}
	return &summaries{bud: bud, side: side, w: w, bytes: bytes, index: map[string]int{}}
}

// checkBytes checks n states' summaries and tables, the step's extra
// bytes and more bytes against the table-bytes limit.
func (z *summaries) checkBytes(n, more int64) error {
	return z.bud.Check(maxTableBytes, n*(int64(2*z.w)+z.bytes)+z.extra+more, z.side+" (its summaries and tables)")
}

// reserve counts n more bytes the step holds (a memo of its expressions)
// against the table-bytes limit, with the states interned so far.
func (z *summaries) reserve(n int64) error {
	if err := z.checkBytes(int64(len(z.sums)), n); err != nil {
		return err
	}
	z.extra += n
	return nil
}

// intern numbers the state (q, sum); sum may be scratch memory, copied
// when the state is new.
func (z *summaries) intern(q int, sum []byte) (int, error) {
	z.key = appendInt(append(z.key[:0], sum...), q)
	if id, ok := z.index[string(z.key)]; ok {
		return id, nil
	}
	if err := z.bud.Check(maxStates, int64(len(z.sums)+1), z.side); err != nil {
		return 0, err
	}
	// The summary is held twice (the list and the index's key).
	if err := z.checkBytes(int64(len(z.sums)+1), 0); err != nil {
		return 0, err
	}
	if err := z.bud.Step(int64(z.w)); err != nil {
		return 0, err
	}
	z.index[string(z.key)] = len(z.sums)
	z.sums = append(z.sums, slices.Clone(sum))
	z.proj = append(z.proj, q)
	return len(z.sums) - 1, nil
}

// refined ends an attention step: the new machine of its side has the
// states z numbered, with transitions delta; every table is projected onto
// them, and table out gets vals (per new state, its cells at a·nOther + o
// for letter a and other side's state o).
func (s *sides[C, D]) refined(op int, left bool, z *summaries, delta []D, vals [][]C) error {
	nOwn, _ := s.machine(left)
	nOther, _ := s.machine(!left)
	n := len(z.sums)
	if left {
		if err := s.checkTables(n, nOther); err != nil {
			return err
		}
	} else if err := s.checkTables(nOther, n); err != nil {
		return err
	}
	for k, t := range s.tab {
		if t != nil {
			nt, err := s.project(t, left, z.proj, nOwn, nOther)
			if err != nil {
				return err
			}
			s.tab[k] = nt
		}
	}
	sOwn, sA, sOther := s.strides(left, n, nOther)
	nt := make([]C, n*s.width*nOther)
	for i, v := range vals {
		err := s.blocks(len(v), func(lo, hi int) {
			for j := lo; j < hi; j++ {
				a, o := j/nOther, j%nOther
				nt[i*sOwn+a*sA+o*sOther] = v[j]
			}
		})
		if err != nil {
			return err
		}
	}
	s.tab[op] = nt
	s.setMachine(left, n, delta)
	return nil
}
