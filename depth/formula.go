package depth

import (
	"fmt"
	"slices"

	"github.com/brasp-dev/brasp/ltl"
)

// synthesizer writes characteristic formulas of types: χ_l(τ) holds at a
// position exactly when its depth-l type is τ, among the types that occur.
// Two different types of one level differ either in their label (an atom
// tells them apart) or in their antichains: some pair (T, S) of one is
// covered by no pair of the other, and then "⋁χ(S) since χ(T)" holds at the
// first and not at the second (Table's doc). The formulas of level l have
// temporal depth l and use only since, so the language, a union of depth-k
// types, is written at depth k.
type synthesizer struct {
	tab   *Table
	pool  *ltl.Pool
	occ   [][]TypeID
	chi   []map[TypeID]*ltl.Formula
	since map[string]*ltl.Formula
}

func newSynthesizer(tab *Table, occ [][]TypeID) *synthesizer {
	s := &synthesizer{tab: tab, pool: ltl.NewPool(tab.atoms.Alphabet), occ: occ, since: map[string]*ltl.Formula{}}
	s.chi = make([]map[TypeID]*ltl.Formula, len(occ))
	for l := range s.chi {
		s.chi[l] = map[TypeID]*ltl.Formula{}
	}
	return s
}

// language is the formula true exactly on the final types marked true.
func (s *synthesizer) language(k int, finals map[TypeID]bool) *ltl.Formula {
	var in, out []TypeID
	for t, acc := range finals {
		if acc {
			in = append(in, t)
		} else {
			out = append(out, t)
		}
	}
	sortTypes(in)
	sortTypes(out)
	f := s.pool.False()
	for _, t := range in {
		g := s.pool.True()
		for _, u := range out {
			g = s.and(g, s.distinguish(k, t, u))
		}
		f = s.or(f, g)
	}
	return f
}

// char is χ_l(t) among the occurring types of level l.
func (s *synthesizer) char(l int, t TypeID) *ltl.Formula {
	if f, ok := s.chi[l][t]; ok {
		return f
	}
	var f *ltl.Formula
	if l == 0 {
		f = s.label(s.tab.labelOf[t])
	} else {
		f = s.pool.True()
		for _, u := range s.occ[l] {
			if u != t {
				f = s.and(f, s.distinguish(l, t, u))
			}
		}
	}
	s.chi[l][t] = f
	return f
}

// distinguish is a formula of depth ≤ l true at type t and false at type u.
func (s *synthesizer) distinguish(l int, t, u TypeID) *ltl.Formula {
	lt, lu := s.tab.Label(l, t), s.tab.Label(l, u)
	if lt != lu {
		return s.labelDifference(lt, lu)
	}
	if l == 0 {
		panic(fmt.Sprintf("depth: level-0 types %d and %d have one label", t, u))
	}
	a, b := s.tab.info(l, t).past, s.tab.info(l, u).past
	for _, p := range a {
		if !b.covers(p) {
			return s.sinceOf(l, p)
		}
	}
	for _, p := range b {
		if !a.covers(p) {
			return s.pool.Unary(ltl.OpNot, s.sinceOf(l, p))
		}
	}
	panic(fmt.Sprintf("depth: level-%d types %d and %d are equal", l, t, u))
}

// sinceOf is "⋁_{x∈S} χ_{l−1}(x) since χ_{l−1}(T)".
func (s *synthesizer) sinceOf(l int, p witnessPair) *ltl.Formula {
	key := fmt.Sprint(l, p.T, p.S)
	if f, ok := s.since[key]; ok {
		return f
	}
	between := s.pool.False()
	for _, x := range p.S {
		between = s.or(between, s.char(l-1, x))
	}
	f := s.pool.Binary(ltl.OpSince, between, s.char(l-1, p.T))
	s.since[key] = f
	return f
}

// label is the conjunction of the atoms of a label and the negations of the
// others.
func (s *synthesizer) label(lab int32) *ltl.Formula {
	atoms := s.tab.atoms
	f := s.pool.Symbol(atoms.letterOf(lab))
	for k, p := range atoms.Predicates {
		a := s.pool.Predicate(p)
		if !atoms.holds(lab, k) {
			a = s.pool.Unary(ltl.OpNot, a)
		}
		f = s.and(f, a)
	}
	return f
}

// labelDifference is one atom (or its negation) true at label a, false at b.
func (s *synthesizer) labelDifference(a, b int32) *ltl.Formula {
	atoms := s.tab.atoms
	if atoms.letterOf(a) != atoms.letterOf(b) {
		return s.pool.Symbol(atoms.letterOf(a))
	}
	for k, p := range atoms.Predicates {
		if atoms.holds(a, k) != atoms.holds(b, k) {
			f := s.pool.Predicate(p)
			if !atoms.holds(a, k) {
				f = s.pool.Unary(ltl.OpNot, f)
			}
			return f
		}
	}
	panic("depth: equal labels")
}

func (s *synthesizer) and(x, y *ltl.Formula) *ltl.Formula { return s.join(ltl.OpAnd, ltl.OpTrue, x, y) }

func (s *synthesizer) or(x, y *ltl.Formula) *ltl.Formula { return s.join(ltl.OpOr, ltl.OpFalse, x, y) }

// join is x op y with op's unit dropped (true for and, false for or).
func (s *synthesizer) join(op, unit ltl.Op, x, y *ltl.Formula) *ltl.Formula {
	switch {
	case x.Op == unit:
		return y
	case y.Op == unit:
		return x
	}
	return s.pool.Binary(op, x, y)
}

func sortTypes(s []TypeID) { slices.Sort(s) }
