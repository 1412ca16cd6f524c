package ltl

import "math/rand/v2"

// RandomFormulaForTest exposes the random formula generator to the external
// tests (package ltl_test), which may import packages that import ltl.
func RandomFormulaForTest(r *rand.Rand, p *Pool, size int) *Formula {
	return randomFormula(r, p, size, genOptions{ops: allOps, predicates: true})
}
