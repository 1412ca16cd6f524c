package depth

import (
	"fmt"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/brasp"
)

// Atoms are the atomic formulas of the logic: one per letter, and the
// position predicates the language may read (first, last, MOD_r_m). The
// label of a position is the set of atoms true there; it is its depth-0
// type.
type Atoms struct {
	Alphabet   alphabet.Alphabet
	Predicates []brasp.Predicate
}

// period is the least common multiple of the MOD predicates' moduli: the
// label of a position depends on its index only modulo period (and on
// whether it is first or last).
func (a Atoms) period() int {
	m := 1
	for _, p := range a.Predicates {
		if p.Kind == brasp.Mod {
			m = lcm(m, p.M)
		}
	}
	return m
}

// check refuses predicates that are not regular (Mid): their types are not
// finite-state, so the exact search does not apply.
func (a Atoms) check() error {
	if len(a.Alphabet) == 0 {
		return fmt.Errorf("empty alphabet")
	}
	for _, p := range a.Predicates {
		switch p.Kind {
		case brasp.First, brasp.Last, brasp.Mod:
		default:
			return fmt.Errorf("position predicate %s is not regular: depth bounds need first, last or MOD_r_m", p.Name())
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
