package ltl

import "github.com/brasp-dev/brasp/brasp"

// Predicate is a position predicate (first, last, MOD_r_m, Mid), shared with
// B-RASP so that the converters carry predicates across unchanged.
type Predicate = brasp.Predicate

// predicateHolds reports whether p is true at 0-based position i of a word of
// length n.
func predicateHolds(p Predicate, i, n int) bool { return p.Holds(i+1, n) }

// predicateName is how p is written as an LTL atom.
func predicateName(p Predicate) string { return p.Name() }
