package toltlf

import "github.com/brasp-dev/brasp/ltl"

// Anchored reports whether g is first-anchored: O(first ∧ ψ) or
// H(first → ψ) (or H(¬first ∨ ψ)), whose value at every position is ψ's at
// the first position. The translation reads such a formula at the first
// step at no cost of a past operator, so a route estimate should not count
// it as one.
func Anchored(g *ltl.Formula) bool {
	_, ok := anchored(g)
	return ok
}
