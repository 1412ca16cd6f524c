package depth

import (
	"fmt"
	"slices"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/brasp"
)

// Atoms are the atomic formulas of the logic: one per letter, and the
// position predicates the language may read (first, last, MOD_r_m and
// eventually periodic tables PERIODIC_<prefix>_<period>). The
// label of a position is the set of atoms true there; it is its depth-0
// type.
type Atoms struct {
	Alphabet   alphabet.Alphabet
	Predicates []brasp.Predicate
}

// reads reports whether every position predicate p reads is an atom.
func (a Atoms) reads(p *brasp.Program) bool {
	for _, v := range p.Vectors {
		if v.Kind == brasp.PredicateVector && !slices.Contains(a.Predicates, v.Pred) {
			return false
		}
	}
	return true
}

// period is the least common multiple of the MOD predicates' moduli and
// the tables' periods, prefix the longest table prefix: after the prefix,
// the label of a position depends on its index only modulo period (and on
// whether it is first or last).
func (a Atoms) period() int {
	m := 1
	for _, p := range a.Predicates {
		switch p.Kind {
		case brasp.Mod:
			m = lcm(m, p.M)
		case brasp.Periodic:
			m = lcm(m, len(p.Table.Period))
		}
	}
	return m
}

func (a Atoms) prefix() int {
	k := 0
	for _, p := range a.Predicates {
		if p.Kind == brasp.Periodic {
			k = max(k, len(p.Table.Prefix))
		}
	}
	return k
}

// positionClass is a 1-based position i folded onto the positions that
// have the same predicates (apart from first and last): i itself while
// i ≤ prefix+period, then the one of prefix+1..prefix+period congruent to
// i modulo period. Successive classes follow nextClass.
type positionClass struct{ period, prefix int }

func (a Atoms) classes() positionClass { return positionClass{a.period(), a.prefix()} }

// next is the class of position i+1 given that of i.
func (c positionClass) next(p int) int {
	if p+1 <= c.prefix+c.period {
		return p + 1
	}
	return p + 1 - c.period
}

// rep is a position of class p that is not the first one (unless p is
// within the prefix, where p is the position itself): every predicate but
// first and last holds at rep(p) exactly when it holds at the positions of
// class p.
func (c positionClass) rep(p int) int {
	if p <= c.prefix {
		return p
	}
	return p + c.period
}

// check refuses predicates that are not regular (Mid): their types are not
// finite-state, so the exact search does not apply.
func (a Atoms) check() error {
	if len(a.Alphabet) == 0 {
		return fmt.Errorf("empty alphabet")
	}
	for _, p := range a.Predicates {
		switch p.Kind {
		case brasp.First, brasp.Last, brasp.Mod, brasp.Periodic:
		default:
			return fmt.Errorf("position predicate %s is not regular: depth bounds need first, last, MOD_r_m or PERIODIC_ tables", p.Name())
		}
	}
	return nil
}

// label is a position's atoms, packed: the letter times 2^len(Predicates)
// plus one bit per predicate. pos is 1-based, as in brasp.Predicate.Holds;
// n is the word's length (only Last reads it).
func (a Atoms) label(letter, pos, n int) int32 {
	l := int32(letter) << len(a.Predicates)
	for k, p := range a.Predicates {
		if p.Holds(pos, n) {
			l |= 1 << k
		}
	}
	return l
}

// letterOf and holds read a packed label back.
func (a Atoms) letterOf(l int32) int { return int(l >> len(a.Predicates)) }

func (a Atoms) holds(l int32, k int) bool { return l>>k&1 != 0 }

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func lcm(a, b int) int { return a / gcd(a, b) * b }
