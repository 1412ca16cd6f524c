package position

import "strings"

// MaxPeriodicTable bounds the length of the prefix and of the period of a
// Periodic predicate.
const MaxPeriodicTable = 4096

// Periodic is a position predicate given by an eventually periodic table, a
// finite-image position predicate of the kind Theorem 5.3 and Corollary 5.5
// of the paper speak of: at 1-based position i it is Prefix[i−1] when
// i ≤ len(Prefix), and Period[(i−len(Prefix)−1) mod len(Period)] after
// that. Both are strings of '0' and '1'; Period is not empty. It is written
// PERIODIC_<period> (purely periodic) or PERIODIC_<prefix>_<period>: for
// example PERIODIC_01 holds at the even positions, PERIODIC_1_0 only at the
// first one, and PERIODIC_0110_1 from position 2 on except 4.
//
// Being eventually periodic, such a predicate is regular: it is definable
// in B-RASP with MOD_r_m predicates (brasp.LowerPeriodic), so programs and
// formulas using it keep their exact semantics as minimal DFAs and compile
// to transformers with rational sinusoidal position embeddings.
type Periodic struct {
	Prefix, Period string
}

// Holds reports whether the predicate holds at 1-based position i ≥ 1.
func (p Periodic) Holds(i int) bool {
	if i <= len(p.Prefix) {
		return p.Prefix[i-1] == '1'
	}
	return p.Period[(i-len(p.Prefix)-1)%len(p.Period)] == '1'
}

// Name is the predicate as programs and formulas write it.
func (p Periodic) Name() string {
	if p.Prefix == "" {
		return "PERIODIC_" + p.Period
	}
	return "PERIODIC_" + p.Prefix + "_" + p.Period
}

// ParsePeriodic recognises PERIODIC_<period> and PERIODIC_<prefix>_<period>
// with tables of '0' and '1' (the period non-empty, each at most
// MaxPeriodicTable long). ok is false for a name that does not start with
// PERIODIC_; err says what is wrong with one that does but is malformed.
func ParsePeriodic(name string) (p Periodic, ok bool, err string) {
	rest, found := strings.CutPrefix(name, "PERIODIC_")
	if !found {
		return Periodic{}, false, ""
	}
	prefix, period, two := strings.Cut(rest, "_")
	if !two {
		prefix, period = "", rest
	}
	switch {
	case period == "":
		return Periodic{}, true, "the period of " + name + " is empty"
	case strings.Trim(prefix, "01") != "" || strings.Trim(period, "01") != "":
		return Periodic{}, true, "the tables of " + name + " must be written with 0 and 1 only (PERIODIC_<period> or PERIODIC_<prefix>_<period>)"
	case len(prefix) > MaxPeriodicTable || len(period) > MaxPeriodicTable:
		return Periodic{}, true, "the tables of " + name + " are longer than MaxPeriodicTable = 4096"
	}
	return Periodic{Prefix: prefix, Period: period}, true, ""
}

// Normal returns the shortest table defining the same predicate: the
// period reduced to its primitive root, then the prefix shortened while its
// last entry equals the period's last (rotating the period). Two tables
// define the same predicate exactly when their normal forms are equal.
func (p Periodic) Normal() Periodic {
	n := len(p.Period)
	for d := 1; d < n; d++ {
		if n%d == 0 && p.Period == strings.Repeat(p.Period[:d], n/d) {
			p.Period = p.Period[:d]
			break
		}
	}
	for len(p.Prefix) > 0 && p.Prefix[len(p.Prefix)-1] == p.Period[len(p.Period)-1] {
		last := len(p.Period) - 1
		p.Period = p.Period[last:] + p.Period[:last]
		p.Prefix = p.Prefix[:len(p.Prefix)-1]
	}
	return p
}
