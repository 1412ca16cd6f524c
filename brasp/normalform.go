package brasp

import (
	"fmt"
	"strings"

	"github.com/brasp-dev/brasp/budget"
)

// The normal forms of App. B of the paper as program-to-program
// transformations: UnaryValue (Prop. B.1) and UnaryScore (Lemma B.2). Each
// returns a new program (built by a rewriter, program_rewrite.go) and leaves
// its input untouched. They expect a checked program (from Parse, a Builder
// or another transformation).

// maxScoreCopies bounds the attention operations UnaryScore creates.
var maxScoreCopies = budget.Define("unary-score-copies", 1<<12, "operations",
	"attention operations the unary-score normal form creates (2^k per operation whose score reads k vectors at i; brasp → ltl, --normal-form unary-score)")

// UnaryValue returns a program equivalent to p in which every value
// predicate depends only on j (Prop. B.1 of the paper). Every vector of p
// keeps its name and its values; the output is unchanged.
//
// It follows the proof, by induction on the structure of the value V(i,j)
// of each attention operation
//
//	P(i) := tb [M(i,j), S(i,j)] V(i,j) : D(i)
//
// whose value reads some vector at i. It adds
//
//	P_A(i) := tb [M(i,j), S(i,j)] 1 : 0
//
// (does position i attend anywhere?) and computes from V an expression
// C(i) that equals V(i, j_i) wherever P_A(i) is 1: a subexpression that
// reads only (i) (the proof's base case B(i), or a constant) is itself; a
// subexpression that reads only (j) (the base case B(j)) becomes a new
// operation P_Vn(i) := tb [M, S] B(j) : 0 and C reads P_Vn(i); conjunction,
// disjunction and negation are taken of the parts, as in the inductive step.
// Taking maximal (i)-only and (j)-only subexpressions as base cases, rather
// than single references, is the same induction with fewer operations. P
// itself becomes the position-wise operation
//
//	P(i) := P_A(i) & C(i) | !P_A(i) & D(i)
//
// with constants folded (a default 0 drops the second disjunct).
// Masks (strict and non-strict) and tie-breaks are copied unchanged into the
// new operations, so both tie-breaks and every mask are handled alike. New
// vectors get fresh names (P_A, P_V1, ... with a numeric suffix on a clash).
// Each rewritten operation gains one operation, plus one per maximal
// (j)-only part of its value, each a copy of its score: polynomial, so no
// limit is needed. No vector's attention depth grows (§5.4): the new
// operations read only what P read.
func UnaryValue(p *Program) *Program {
	r := newRewriter(p)
	for k, v := range p.Vectors {
		if v.Kind != AttentionVector || !UsesVar(v.Att.Value, VarI) {
			r.copyVector(k)
			continue
		}
		a := v.Att
		attend := func(base string, value Expr) int {
			return r.add(&Vector{Name: r.fresh(base), Kind: AttentionVector, Att: &Attention{
				Tiebreak: a.Tiebreak, Mask: a.Mask, Score: r.copyExpr(a.Score), Value: value, Default: Bool(false)}})
		}
		attended := attend(v.Name+"_A", Bool(true))
		n := 0
		var induct func(e Expr) Expr
		induct = func(e Expr) Expr {
			if !UsesVar(e, VarJ) {
				return r.copyExpr(e)
			}
			if !UsesVar(e, VarI) {
				n++
				return r.ref(attend(fmt.Sprintf("%s_V%d", v.Name, n), r.copyExpr(e)), VarI)
			}
			switch e := e.(type) {
			case *UnaryExpr:
				return Not(induct(e.X))
			case *BinaryExpr:
				return &BinaryExpr{Op: e.Op, X: induct(e.X), Y: induct(e.Y)}
			}
			// Literals and references read at most one of i and j, so they
			// are handled above.
			return r.copyExpr(e)
		}
		c := induct(a.Value)
		body := Fold(Or(And(r.ref(attended, VarI), c), And(Not(r.ref(attended, VarI)), r.copyExpr(a.Default))))
		r.keep(k, &Vector{Name: v.Name, Kind: PositionwiseVector, Expr: body})
	}
	return r.finish()
}

// UnaryScore returns a program equivalent to p in which every score
// predicate depends only on j (Lemma B.2 of the paper), or a
// *budget.Error naming unary-score-copies if the construction would add
// more attention operations in all than that limit allows (or Validate's
// error if p is malformed). Every vector of p keeps its name and its
// values; the output is unchanged. Value predicates are copied unchanged,
// so UnaryScore(UnaryValue(p)) has both normal forms.
//
// It follows the proof. For an attention operation
//
//	P(i) := tb [M(i,j), S(i,j)] V : D(i)
//
// whose score reads the distinct vectors A_1, ..., A_k at i, it adds, for
// each of the 2^k assignments χ of truth values to A_1..A_k, the operation
//
//	P_χ(i) := tb [M(i,j), S^χ(j)] V : D(i)
//
// where S^χ is S with each A_m(i) replaced by the constant χ_m (and then
// constant-folded; the folding does not change its value), named P_ followed
// by the bits of χ (P_01: A_1 = 0, A_2 = 1). P becomes the position-wise
// operation
//
//	P(i) := ⋁_χ ( P_χ(i) ∧ ⋀_m (A_m(i) ↔ χ_m) )
//
// with A_m(i) ↔ 1 written A_m(i) and A_m(i) ↔ 0 written !A_m(i). The
// construction is exponential in k; the paper notes the same blow-up. No
// vector's attention depth grows: each P_χ reads only what P read.
func UnaryScore(b *budget.Budget, p *Program) (*Program, error) {
	if err := Validate(p); err != nil {
		return nil, err
	}
	r := newRewriter(p)
	total := int64(0) // operations created
	for k, v := range p.Vectors {
		if v.Kind != AttentionVector || !UsesVar(v.Att.Score, VarI) {
			r.copyVector(k)
			continue
		}
		a := v.Att
		var atoms []int // old vector indices read at i by the score
		slot := map[int]int{}
		for _, x := range Refs(a.Score) {
			if _, seen := slot[x.Vec]; x.Var == VarI && !seen {
				slot[x.Vec] = len(atoms)
				atoms = append(atoms, x.Vec)
			}
		}
		m := len(atoms)
		if m >= 62 {
			m = 62
		}
		total += 1 << m
		what := fmt.Sprintf("the unary-score normal form (operation %s reads %d vectors at i: 2^%d copies)", QuoteName(v.Name), len(atoms), len(atoms))
		if err := b.Check(maxScoreCopies, total, what); err != nil {
			return nil, err
		}
		if err := b.Step(total); err != nil {
			return nil, err
		}
		var terms []Expr
		for chi := 0; chi < 1<<m; chi++ {
			bit := func(s int) bool { return chi>>(m-1-s)&1 == 1 }
			var bits strings.Builder
			for s := 0; s < m; s++ {
				if bit(s) {
					bits.WriteByte('1')
				} else {
					bits.WriteByte('0')
				}
			}
			score := Substitute(a.Score, func(x *Ref) Expr {
				if x.Var == VarI {
					return Bool(bit(slot[x.Vec]))
				}
				return r.ref(r.remap[x.Vec], x.Var)
			})
			copyK := r.add(&Vector{Name: r.fresh(v.Name + "_" + bits.String()), Kind: AttentionVector, Att: &Attention{
				Tiebreak: a.Tiebreak, Mask: a.Mask, Score: score, Value: r.copyExpr(a.Value), Default: r.copyExpr(a.Default)}})
			term := []Expr{r.ref(copyK, VarI)}
			for s, atom := range atoms {
				var lit Expr = r.ref(r.remap[atom], VarI)
				if !bit(s) {
					lit = Not(lit)
				}
				term = append(term, lit)
			}
			terms = append(terms, And(term...))
		}
		r.keep(k, &Vector{Name: v.Name, Kind: PositionwiseVector, Expr: Or(terms...)})
	}
	return r.finish(), nil
}
