package ltl

import (
	"fmt"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/position"
)

// ToBRASP converts f into a B-RASP program that recognises the same language
// (Theorem 3.2, proof in App. B.3). It builds one vector per node of f's DAG,
// so shared subformulas are computed once, and accepts with the vector of f
// itself. Every temporal operator becomes exactly one attention operation:
//
//	φ since ψ   rightmost [j<i,  !φ(j) | ψ(j)] ψ(j) : 0   (the paper's case)
//	φ until ψ   leftmost  [i<j,  !φ(j) | ψ(j)] ψ(j) : 0   (the paper's case)
//	φ S ψ       rightmost [j<=i, !φ(j) | ψ(j)] ψ(j) : 0   (§5.2: the same with a non-strict mask)
//	φ U ψ       leftmost  [i<=j, !φ(j) | ψ(j)] ψ(j) : 0
//	O φ = 1 S φ rightmost [j<=i, φ(j)] φ(j) : 0
//	F φ = 1 U φ leftmost  [i<=j, φ(j)] φ(j) : 0
//	H φ = !O!φ  rightmost [j<=i, !φ(j)] 0 : 1
//	G φ = !F!φ  leftmost  [i<=j, !φ(j)] 0 : 1
//	Y φ = 0 since φ   rightmost [j<i, 1] φ(j) : 0   (strict mask: the nearest j < i)
//	Z φ               rightmost [j<i, 1] φ(j) : 1
//	X φ = 0 until φ   leftmost  [i<j, 1] φ(j) : 0
//	N φ               leftmost  [i<j, 1] φ(j) : 1
//
// (the scores are the paper's !φ(j) | ψ(j) with the constant folded). Symbol
// atoms are the initial vectors Q_σ themselves, position predicates the
// predicate vectors, connectives position-wise operations (φ → ψ as !φ | ψ,
// φ ↔ ψ as (φ & ψ) | (!φ & !ψ)). A constant operand is written as the
// literal 0 or 1, and neutral constants are dropped (!1 | ψ(j) is ψ(j));
// a constant gets a vector of its own only when it is the whole formula. No
// reference to a subformula is ever dropped, so the attention depth of the
// output vector equals the temporal depth of f.
func ToBRASP(f *Formula) (*brasp.Program, error) {
	p, _, err := toBRASP(f)
	return p, err
}

// toBRASP is ToBRASP that also returns the vector computing each subformula.
func toBRASP(f *Formula) (*brasp.Program, map[*Formula]int, error) {
	b := brasp.NewBuilder(f.Alphabet())
	vec := map[*Formula]int{}
	ref := func(g *Formula, at func(int) *brasp.Ref) brasp.Expr {
		switch g.Op {
		case OpTrue, OpFalse:
			return brasp.Bool(g.Op == OpTrue)
		}
		return at(vec[g])
	}
	i := func(g *Formula) brasp.Expr { return ref(g, b.I) }
	j := func(g *Formula) brasp.Expr { return ref(g, b.J) }
	for _, g := range f.Nodes() {
		if (g.Op == OpTrue || g.Op == OpFalse) && g != f {
			continue // written as a literal where it is used
		}
		switch g.Op {
		case OpSymbol:
			vec[g] = b.SymbolVec(g.Symbol)
		case OpPredicate:
			vec[g] = b.Predicate(g.Pred)
		case OpTrue:
			vec[g] = b.Positionwise("T", brasp.Bool(true))
		case OpFalse:
			vec[g] = b.Positionwise("F", brasp.Bool(false))
		case OpNot:
			vec[g] = b.Positionwise("Not", brasp.Negate(i(g.X)))
		case OpAnd:
			vec[g] = b.Positionwise("And", brasp.Conjoin(i(g.X), i(g.Y)))
		case OpOr:
			vec[g] = b.Positionwise("Or", brasp.Disjoin(i(g.X), i(g.Y)))
		case OpImplies:
			vec[g] = b.Positionwise("Implies", brasp.Disjoin(brasp.Negate(i(g.X)), i(g.Y)))
		case OpIff:
			vec[g] = b.Positionwise("Iff", brasp.Disjoin(brasp.Conjoin(i(g.X), i(g.Y)), brasp.Conjoin(brasp.Negate(i(g.X)), brasp.Negate(i(g.Y)))))
		case OpSince, OpUntil, OpSinceNS, OpUntilNS:
			tb, mask := position.Rightmost, position.MaskFuture
			switch g.Op {
			case OpUntil:
				tb, mask = position.Leftmost, position.MaskPast
			case OpSinceNS:
				mask = position.MaskFutureOrSelf
			case OpUntilNS:
				tb, mask = position.Leftmost, position.MaskPastOrSelf
			}
			score := brasp.Disjoin(brasp.Negate(j(g.X)), j(g.Y))
			vec[g] = b.Attend(opVectorName[g.Op], tb, mask, score, j(g.Y), brasp.Bool(false))
		case OpOnce:
			vec[g] = b.Attend("Once", position.Rightmost, position.MaskFutureOrSelf, j(g.X), j(g.X), brasp.Bool(false))
		case OpEventually:
			vec[g] = b.Attend("Eventually", position.Leftmost, position.MaskPastOrSelf, j(g.X), j(g.X), brasp.Bool(false))
		case OpHistorically:
			vec[g] = b.Attend("Historically", position.Rightmost, position.MaskFutureOrSelf, brasp.Negate(j(g.X)), brasp.Bool(false), brasp.Bool(true))
		case OpGlobally:
			vec[g] = b.Attend("Globally", position.Leftmost, position.MaskPastOrSelf, brasp.Negate(j(g.X)), brasp.Bool(false), brasp.Bool(true))
		case OpYesterday, OpWeakYesterday:
			vec[g] = b.Attend(opVectorName[g.Op], position.Rightmost, position.MaskFuture, brasp.Bool(true), j(g.X), brasp.Bool(g.Op == OpWeakYesterday))
		case OpNext, OpWeakNext:
			vec[g] = b.Attend(opVectorName[g.Op], position.Leftmost, position.MaskPast, brasp.Bool(true), j(g.X), brasp.Bool(g.Op == OpWeakNext))
		default:
			return nil, nil, fmt.Errorf("ltl: ToBRASP: unknown operator %v", g.Op)
		}
	}
	b.SetAccept(vec[f])
	p, err := b.Program()
	if err != nil {
		return nil, nil, fmt.Errorf("ltl: ToBRASP built an invalid program: %w", err)
	}
	return p, vec, nil
}

// opVectorName names the vectors of temporal operators in converted programs.
var opVectorName = map[Op]string{
	OpSince: "Since", OpUntil: "Until", OpSinceNS: "S", OpUntilNS: "U",
	OpYesterday: "Y", OpWeakYesterday: "Z", OpNext: "X", OpWeakNext: "N",
}
