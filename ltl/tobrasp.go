package ltl

import (
	"fmt"

	"github.com/brasp-dev/brasp/brasp"
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
// predicate vectors, constants and connectives position-wise operations
// (φ → ψ as !φ | ψ, φ ↔ ψ as (φ & ψ) | (!φ & !ψ)). Hence the attention depth
// of the output vector equals the temporal depth of f.
func ToBRASP(f *Formula) (*brasp.Program, error) {
	p, _, err := toBRASP(f)
	return p, err
}

// toBRASP is ToBRASP that also returns the vector computing each subformula.
func toBRASP(f *Formula) (*brasp.Program, map[*Formula]int, error) {
	b := brasp.NewBuilder(f.Alphabet())
	vec := map[*Formula]int{}
	i := func(g *Formula) brasp.Expr { return b.I(vec[g]) }
	j := func(g *Formula) brasp.Expr { return b.J(vec[g]) }
	for _, g := range f.Nodes() {
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
			vec[g] = b.Positionwise("Not", brasp.Not(i(g.X)))
		case OpAnd:
			vec[g] = b.Positionwise("And", brasp.And(i(g.X), i(g.Y)))
		case OpOr:
			vec[g] = b.Positionwise("Or", brasp.Or(i(g.X), i(g.Y)))
		case OpImplies:
			vec[g] = b.Positionwise("Implies", brasp.Or(brasp.Not(i(g.X)), i(g.Y)))
		case OpIff:
			vec[g] = b.Positionwise("Iff", brasp.Or(brasp.And(i(g.X), i(g.Y)), brasp.And(brasp.Not(i(g.X)), brasp.Not(i(g.Y)))))
		case OpSince, OpUntil, OpSinceNS, OpUntilNS:
			tb, mask := brasp.Rightmost, brasp.MaskFuture
			switch g.Op {
			case OpUntil:
				tb, mask = brasp.Leftmost, brasp.MaskPast
			case OpSinceNS:
				mask = brasp.MaskFutureOrSelf
			case OpUntilNS:
				tb, mask = brasp.Leftmost, brasp.MaskPastOrSelf
			}
			score := brasp.Or(brasp.Not(j(g.X)), j(g.Y))
			vec[g] = b.Attend(opVectorName[g.Op], tb, mask, score, j(g.Y), brasp.Bool(false))
		case OpOnce:
			vec[g] = b.Attend("Once", brasp.Rightmost, brasp.MaskFutureOrSelf, j(g.X), j(g.X), brasp.Bool(false))
		case OpEventually:
			vec[g] = b.Attend("Eventually", brasp.Leftmost, brasp.MaskPastOrSelf, j(g.X), j(g.X), brasp.Bool(false))
		case OpHistorically:
			vec[g] = b.Attend("Historically", brasp.Rightmost, brasp.MaskFutureOrSelf, brasp.Not(j(g.X)), brasp.Bool(false), brasp.Bool(true))
		case OpGlobally:
			vec[g] = b.Attend("Globally", brasp.Leftmost, brasp.MaskPastOrSelf, brasp.Not(j(g.X)), brasp.Bool(false), brasp.Bool(true))
		case OpYesterday, OpWeakYesterday:
			vec[g] = b.Attend(opVectorName[g.Op], brasp.Rightmost, brasp.MaskFuture, brasp.Bool(true), j(g.X), brasp.Bool(g.Op == OpWeakYesterday))
		case OpNext, OpWeakNext:
			vec[g] = b.Attend(opVectorName[g.Op], brasp.Leftmost, brasp.MaskPast, brasp.Bool(true), j(g.X), brasp.Bool(g.Op == OpWeakNext))
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
