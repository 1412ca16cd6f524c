package brasp

import (
	"fmt"
	"strconv"

	"github.com/brasp-dev/brasp/position"
)

// HasPeriodic reports whether p uses a PERIODIC_ table predicate.
func HasPeriodic(p *Program) bool {
	for _, v := range p.Vectors {
		if v.Kind == PredicateVector && v.Pred.Kind == Periodic {
			return true
		}
	}
	return false
}

// LowerPeriodic returns a program equivalent to p in which every
// eventually periodic table predicate (PERIODIC_<u>_<v>, u = u_1…u_k,
// v = v_0…v_(m−1)) is replaced by vectors using only MOD_r_m and attention,
// so that the constructions that know first, last and MOD (the exact DFA,
// the compiler to transformers) accept it. Write T_p(i) for the table at
// position i+p. Then T_k(i) = v_((i−1) mod m) is the disjunction of the
// MOD_((t+1) mod m)_m(i) over the t with v_t = 1, and for p < k
//
//	T_p(i) := rightmost [j<i, 1] T_(p+1)(j) : u_(p+1)
//
// because the rightmost j < i is i−1 and T_(p+1)(i−1) = table(i+p), while
// at i = 1 no j exists and the default u_(p+1) is table(1+p). T_0 is the
// predicate. So the table predicates are definable in B-RASP[MOD]: their
// languages stay regular, as Thm 5.3 and Cor. 5.5 of the paper require of
// finite-image position information that is eventually periodic. The
// lowered program's vectors keep their names, except that the table
// predicates become position-wise vectors (named after the table, made
// fresh). A program without tables is returned unchanged.
func LowerPeriodic(p *Program) (*Program, error) {
	if !HasPeriodic(p) {
		return p, nil
	}
	b := newBuilderLike(p)
	remap := make([]int, len(p.Vectors))
	var copyExpr func(e Expr) Expr
	copyExpr = func(e Expr) Expr {
		switch x := e.(type) {
		case *Literal:
			return Bool(x.Value)
		case *Ref:
			if x.Var == VarJ {
				return b.J(remap[x.Vec])
			}
			return b.I(remap[x.Vec])
		case *UnaryExpr:
			return Not(copyExpr(x.X))
		case *BinaryExpr:
			return &BinaryExpr{Op: x.Op, X: copyExpr(x.X), Y: copyExpr(x.Y)}
		}
		panic("brasp: unknown expression type")
	}
	for k, v := range p.Vectors {
		switch {
		case v.Kind == SymbolVector:
			remap[k] = b.SymbolVec(v.Symbol)
		case v.Kind == PropositionVector:
			remap[k] = v.Prop
		case v.Kind == PredicateVector && v.Pred.Kind == Periodic:
			remap[k] = lowerTable(b, v.Name, v.Pred)
		case v.Kind == PredicateVector:
			remap[k] = b.Predicate(v.Pred)
		case v.Kind == PositionwiseVector:
			remap[k] = b.Positionwise(v.Name, copyExpr(v.Expr))
		case v.Kind == AttentionVector:
			a := v.Att
			remap[k] = b.Attend(v.Name, a.Tiebreak, a.Mask, copyExpr(a.Score), copyExpr(a.Value), copyExpr(a.Default))
		}
	}
	b.setOutputOf(p, remap)
	q, err := b.Program()
	if err != nil {
		return nil, fmt.Errorf("internal error: lowering the table predicates: %w", err)
	}
	q.File = p.File
	return q, nil
}

// lowerTable adds the vectors T_k, …, T_0 of one table predicate and
// returns T_0's index.
func lowerTable(b *Builder, name string, pred Predicate) int {
	t := pred.Table
	m := len(t.Period)
	var terms []Expr
	for r := range m {
		if t.Period[r] == '1' {
			terms = append(terms, b.I(b.Predicate(Predicate{Kind: Mod, R: (r + 1) % m, M: m})))
		}
	}
	base := "T_" + name
	cur := b.Positionwise(base+"_"+strconv.Itoa(len(t.Prefix)), orTree(b, base, terms))
	for p := len(t.Prefix) - 1; p >= 0; p-- {
		cur = b.Attend(base+"_"+strconv.Itoa(p), position.Rightmost, position.MaskFuture, Bool(true), b.J(cur), Bool(t.Prefix[p] == '1'))
	}
	return cur
}

// orTree is the disjunction of terms, through position-wise vectors of at
// most eight terms each, so that no expression reads more than eight
// vectors (the compiler tabulates each expression's Boolean function).
func orTree(b *Builder, base string, terms []Expr) Expr {
	for len(terms) > 8 {
		var next []Expr
		for i := 0; i < len(terms); i += 8 {
			next = append(next, b.I(b.Positionwise(base+"_or", Or(terms[i:min(i+8, len(terms))]...))))
		}
		terms = next
	}
	return Or(terms...)
}
