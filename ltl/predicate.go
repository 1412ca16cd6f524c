package ltl

import "github.com/brasp-dev/brasp/brasp"

// Predicate is a position predicate (first, last, MOD_r_m, Mid, PERIODIC_u_v), shared with
// B-RASP so that the converters carry predicates across unchanged.
type Predicate = brasp.Predicate

// predicateName is how p is written as an LTL atom.
func predicateName(p Predicate) string { return p.Name() }
