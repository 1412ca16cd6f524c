package brasp

// The expression toolkit: every rewrite of B-RASP expressions in brasp and
// in the converters (normal forms, the decompiler, Krohn–Rhodes, the
// interpreters) goes through these functions.

// LiteralValue reports whether e is a constant, and which.
func LiteralValue(e Expr) (value, ok bool) {
	if l, isLit := e.(*Literal); isLit {
		return l.Value, true
	}
	return false, false
}

// MapRefs returns a copy of e with every reference r replaced by f(r).
// Literals and operators are new nodes; f's results are used as returned.
func MapRefs(e Expr, f func(*Ref) Expr) Expr { return mapRefs(e, f, false) }

// ReadAt returns a copy of e with every reference read at position v: a
// condition built once can then be used at the query position and at the
// attended one.
func ReadAt(e Expr, v Var) Expr {
	return MapRefs(e, func(r *Ref) Expr { return &Ref{Name: r.Name, Var: v, Vec: r.Vec} })
}

// Fold folds constants, double negations and repeated operands:
//
//	!0 → 1, !1 → 0, !!X → X,
//	X & 0 → 0, X & 1 → X, X | 1 → 1, X | 0 → X (either side),
//	X & X → X, X | X → X.
//
// The result has the same value as e everywhere. Fold returns e itself when
// there is nothing to fold, and otherwise shares the unchanged subtrees of e.
func Fold(e Expr) Expr {
	switch e := e.(type) {
	case *UnaryExpr:
		x := Fold(e.X)
		switch x.(type) {
		case *Literal, *UnaryExpr:
			return foldNot(x)
		}
		if x == e.X {
			return e
		}
		return Not(x)
	case *BinaryExpr:
		x, y := Fold(e.X), Fold(e.Y)
		return foldBinary(e, x, y)
	}
	return e
}

// foldNot is !x for a folded x.
func foldNot(x Expr) Expr {
	switch x := x.(type) {
	case *Literal:
		return Bool(!x.Value)
	case *UnaryExpr:
		return x.X
	}
	return Not(x)
}

// foldBinary folds e = x op y whose operands are folded already.
func foldBinary(e *BinaryExpr, x, y Expr) Expr {
	absorbing := e.Op == OR // x | 1 = 1, x & 0 = 0
	for _, pair := range [2][2]Expr{{x, y}, {y, x}} {
		if v, ok := LiteralValue(pair[0]); ok {
			if v == absorbing {
				return Bool(v)
			}
			return pair[1]
		}
	}
	if EqualExpr(x, y) {
		return x
	}
	if x == e.X && y == e.Y {
		return e
	}
	return &BinaryExpr{Op: e.Op, X: x, Y: y}
}

// Substitute returns e with every reference r replaced by f(r) and the
// result folded as Fold folds, in one pass. f's results are taken as folded
// already (they are not walked again, so substituting shared subexpressions
// costs no more than the tree of e).
func Substitute(e Expr, f func(*Ref) Expr) Expr { return mapRefs(e, f, true) }

// mapRefs is MapRefs, folding each new node when fold is set.
func mapRefs(e Expr, f func(*Ref) Expr, fold bool) Expr {
	switch e := e.(type) {
	case *Literal:
		return Bool(e.Value)
	case *Ref:
		return f(e)
	case *UnaryExpr:
		x := mapRefs(e.X, f, fold)
		if fold {
			return foldNot(x)
		}
		return Not(x)
	case *BinaryExpr:
		n := &BinaryExpr{Op: e.Op, X: mapRefs(e.X, f, fold), Y: mapRefs(e.Y, f, fold)}
		if fold {
			return foldBinary(n, n.X, n.Y)
		}
		return n
	}
	panic("brasp: unknown expression type")
}

// Conjoin, Disjoin and Negate build x ∧ y, x ∨ y and ¬x without neutral
// constant operands (1 in a conjunction, 0 in a disjunction) and with
// constants negated. Unlike Fold they never drop a reference (x ∧ 0 stays),
// so an expression built with them reads everything its parts read: its
// attention depth is that of its parts.
func Conjoin(x, y Expr) Expr { return joinNeutral(AND, x, y) }

// Disjoin is x ∨ y without a constant 0 operand; see Conjoin.
func Disjoin(x, y Expr) Expr { return joinNeutral(OR, x, y) }

// Negate is ¬x, a constant when x is one; see Conjoin.
func Negate(x Expr) Expr {
	if v, ok := LiteralValue(x); ok {
		return Bool(!v)
	}
	return Not(x)
}

// joinNeutral is x op y without an operand that is op's neutral constant.
func joinNeutral(op Op, x, y Expr) Expr {
	neutral := op == AND
	if v, ok := LiteralValue(x); ok && v == neutral {
		return y
	}
	if v, ok := LiteralValue(y); ok && v == neutral {
		return x
	}
	return &BinaryExpr{Op: op, X: x, Y: y}
}
