package ltl

import (
	"math/rand/v2"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/brasp"
)

// holdsRef is the semantics of the package documentation written as the
// definition, quantifiers and all; it is the oracle for the fast evaluator.
// Positions are 0-based here.
func holdsRef(f *Formula, w []int, i int, memo map[[2]int]bool) bool {
	key := [2]int{f.id, i}
	if v, ok := memo[key]; ok {
		return v
	}
	n := len(w)
	h := func(g *Formula, k int) bool { return holdsRef(g, w, k, memo) }
	var v bool
	switch f.Op {
	case OpTrue:
		v = true
	case OpFalse:
		v = false
	case OpSymbol:
		v = w[i] == f.Symbol
	case OpPredicate:
		switch f.Pred.Kind {
		case brasp.First:
			v = i == 0
		case brasp.Last:
			v = i == n-1
		case brasp.Mod:
			v = (i+1)%f.Pred.M == f.Pred.R
		case brasp.Mid:
			v = n%2 == 1 && i+1 == (n+1)/2
		}
	case OpNot:
		v = !h(f.X, i)
	case OpAnd:
		v = h(f.X, i) && h(f.Y, i)
	case OpOr:
		v = h(f.X, i) || h(f.Y, i)
	case OpImplies:
		v = !h(f.X, i) || h(f.Y, i)
	case OpIff:
		v = h(f.X, i) == h(f.Y, i)
	case OpSince, OpSinceNS:
		strict := f.Op == OpSince
		for j := 0; j <= i && !v; j++ {
			if strict && j == i || !h(f.Y, j) {
				continue
			}
			all := true
			hi := i
			if strict {
				hi = i - 1
			}
			for k := j + 1; k <= hi; k++ {
				all = all && h(f.X, k)
			}
			v = all
		}
	case OpUntil, OpUntilNS:
		strict := f.Op == OpUntil
		for j := i; j < n && !v; j++ {
			if strict && j == i || !h(f.Y, j) {
				continue
			}
			all := true
			lo := i
			if strict {
				lo = i + 1
			}
			for k := lo; k < j; k++ {
				all = all && h(f.X, k)
			}
			v = all
		}
	case OpNext:
		v = i+1 < n && h(f.X, i+1)
	case OpWeakNext:
		v = i+1 >= n || h(f.X, i+1)
	case OpYesterday:
		v = i > 0 && h(f.X, i-1)
	case OpWeakYesterday:
		v = i == 0 || h(f.X, i-1)
	case OpEventually:
		for j := i; j < n && !v; j++ {
			v = h(f.X, j)
		}
	case OpGlobally:
		v = true
		for j := i; j < n && v; j++ {
			v = h(f.X, j)
		}
	case OpOnce:
		for j := 0; j <= i && !v; j++ {
			v = h(f.X, j)
		}
	case OpHistorically:
		v = true
		for j := 0; j <= i && v; j++ {
			v = h(f.X, j)
		}
	default:
		panic("holdsRef: " + f.Op.String())
	}
	memo[key] = v
	return v
}

func randomWord(r *rand.Rand, k, n int) []int {
	w := make([]int, n)
	for i := range w {
		w[i] = r.IntN(k)
	}
	return w
}

// genOptions says which operators random formulas may use.
type genOptions struct {
	ops        []Op
	predicates bool
}

var allOps = []Op{OpNot, OpAnd, OpOr, OpImplies, OpIff, OpSince, OpUntil, OpSinceNS, OpUntilNS,
	OpNext, OpWeakNext, OpYesterday, OpWeakYesterday, OpEventually, OpGlobally, OpOnce, OpHistorically}

// randomFormula builds a random formula of roughly the given size, raw (as a
// parser would), so that every operator occurs as written.
func randomFormula(r *rand.Rand, p *Pool, size int, opt genOptions) *Formula {
	if size <= 1 {
		switch x := r.IntN(10); {
		case x == 0:
			return p.Const(r.IntN(2) == 0)
		case x == 1 && opt.predicates:
			preds := []Predicate{{Kind: brasp.First}, {Kind: brasp.Last}, {Kind: brasp.Mid}, {Kind: brasp.Mod, R: r.IntN(2), M: 2}, {Kind: brasp.Mod, R: r.IntN(3), M: 3}}
			return p.Predicate(preds[r.IntN(len(preds))])
		}
		return p.Symbol(r.IntN(len(p.Alphabet())))
	}
	op := opt.ops[r.IntN(len(opt.ops))]
	if op.Arity() == 1 {
		return p.Unary(op, randomFormula(r, p, size-1, opt))
	}
	left := r.IntN(size-1) + 0
	return p.Binary(op, randomFormula(r, p, left, opt), randomFormula(r, p, size-1-left, opt))
}

func mustAlphabet(syms ...string) alphabet.Alphabet {
	a, err := alphabet.New(syms...)
	if err != nil {
		panic(err)
	}
	return a
}
