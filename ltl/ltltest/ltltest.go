// Package ltltest draws random LTL formulas for property tests of the
// packages that consume formulas (exact semantics, the MONA cross-check),
// as brasptest does for B-RASP programs.
package ltltest

import (
	"math/rand/v2"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/ltl"
)

// Unary and Binary are the operators RandomFormula draws from: every operator
// of brasp's LTL, the strict since/until twice as likely as the others.
var (
	Unary = []ltl.Op{ltl.OpNot, ltl.OpNext, ltl.OpWeakNext, ltl.OpYesterday, ltl.OpWeakYesterday,
		ltl.OpEventually, ltl.OpGlobally, ltl.OpOnce, ltl.OpHistorically}
	Binary = []ltl.Op{ltl.OpAnd, ltl.OpOr, ltl.OpImplies, ltl.OpIff, ltl.OpSince, ltl.OpUntil,
		ltl.OpSinceNS, ltl.OpUntilNS, ltl.OpSince, ltl.OpUntil}
)

// RandomFormula draws a formula in pool with about size operators. Its
// leaves are symbols of the pool's alphabet, constants and the predicates
// first and last, and with mod also MOD_r_m for m = 2, 3.
func RandomFormula(rng *rand.Rand, pool *ltl.Pool, size int, mod bool) *ltl.Formula {
	if size <= 1 {
		leaves := []func() *ltl.Formula{
			func() *ltl.Formula { return pool.Predicate(ltl.Predicate{Kind: brasp.First}) },
			func() *ltl.Formula { return pool.Predicate(ltl.Predicate{Kind: brasp.Last}) },
		}
		if mod {
			leaves = append(leaves, func() *ltl.Formula {
				return pool.Predicate(ltl.Predicate{Kind: brasp.Mod, R: rng.IntN(2), M: 2 + rng.IntN(2)})
			})
		}
		leaves = append(leaves, func() *ltl.Formula { return pool.Const(rng.IntN(2) == 0) })
		// A symbol half of the time, each other leaf equally often.
		if k := rng.IntN(2 * len(leaves)); k < len(leaves) {
			return leaves[k]()
		}
		return pool.Symbol(rng.IntN(len(pool.Alphabet())))
	}
	if rng.IntN(3) == 0 {
		return pool.Unary(Unary[rng.IntN(len(Unary))], RandomFormula(rng, pool, size-1, mod))
	}
	l := 1 + rng.IntN(size-1)
	return pool.Binary(Binary[rng.IntN(len(Binary))], RandomFormula(rng, pool, l, mod), RandomFormula(rng, pool, size-l, mod))
}
