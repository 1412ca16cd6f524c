package brasp

// Expr is a Boolean expression over vector references: the right-hand side
// of a position-wise operation, or the score, value or default predicate of
// an attention operation. The set of implementations is sealed.
type Expr interface {
	// Pos is where the expression starts in the source (zero if built).
	Pos() Pos
	expr()
}

// Var says which position a reference reads: the query position i or the
// attended-to position j.
type Var uint8

// The two position variables of B-RASP.
const (
	VarI Var = iota // the query position i
	VarJ            // the key/value position j
)

func (v Var) String() string {
	if v == VarJ {
		return "j"
	}
	return "i"
}

// Op is a binary Boolean operator.
type Op uint8

// The binary operators, in increasing order of binding strength.
const (
	OR  Op = iota // |
	AND           // &
)

func (o Op) String() string {
	if o == AND {
		return "&"
	}
	return "|"
}

// Literal is a Boolean constant: 0, 1, false or true.
type Literal struct {
	ValuePos Pos
	Value    bool
}

// Ref reads vector Name at position Var. Vec is the index of the vector in
// Program.Vectors, set by the checker (or the Builder).
type Ref struct {
	NamePos Pos
	Name    string
	Var     Var
	Vec     int
}

// UnaryExpr is the negation !X.
type UnaryExpr struct {
	OpPos Pos
	X     Expr
}

// BinaryExpr is X & Y or X | Y.
type BinaryExpr struct {
	OpPos Pos
	Op    Op
	X, Y  Expr
}

func (e *Literal) Pos() Pos    { return e.ValuePos }
func (e *Ref) Pos() Pos        { return e.NamePos }
func (e *UnaryExpr) Pos() Pos  { return e.OpPos }
func (e *BinaryExpr) Pos() Pos { return e.X.Pos() }

func (*Literal) expr()    {}
func (*Ref) expr()        {}
func (*UnaryExpr) expr()  {}
func (*BinaryExpr) expr() {}

// Bool returns the constant v.
func Bool(v bool) Expr { return &Literal{Value: v} }

// Not returns the negation of x.
func Not(x Expr) Expr { return &UnaryExpr{X: x} }

// And returns the conjunction of xs (true when xs is empty).
func And(xs ...Expr) Expr { return fold(AND, true, xs) }

// Or returns the disjunction of xs (false when xs is empty).
func Or(xs ...Expr) Expr { return fold(OR, false, xs) }

func fold(op Op, unit bool, xs []Expr) Expr {
	if len(xs) == 0 {
		return Bool(unit)
	}
	e := xs[0]
	for _, y := range xs[1:] {
		e = &BinaryExpr{Op: op, X: e, Y: y}
	}
	return e
}

// Walk calls f on every node of e in pre-order.
func Walk(e Expr, f func(Expr)) {
	f(e)
	switch e := e.(type) {
	case *UnaryExpr:
		Walk(e.X, f)
	case *BinaryExpr:
		Walk(e.X, f)
		Walk(e.Y, f)
	}
}

// Refs returns the references in e, in order of appearance.
func Refs(e Expr) []*Ref {
	var out []*Ref
	Walk(e, func(x Expr) {
		if r, ok := x.(*Ref); ok {
			out = append(out, r)
		}
	})
	return out
}

// Eval evaluates e given the values of the vectors at positions i and j.
func Eval(e Expr, at func(vec int, v Var) bool) bool {
	switch e := e.(type) {
	case *Literal:
		return e.Value
	case *Ref:
		return at(e.Vec, e.Var)
	case *UnaryExpr:
		return !Eval(e.X, at)
	case *BinaryExpr:
		if e.Op == AND {
			return Eval(e.X, at) && Eval(e.Y, at)
		}
		return Eval(e.X, at) || Eval(e.Y, at)
	}
	panic("brasp: unknown expression type")
}

// UsesVar reports whether e reads any vector at position v.
func UsesVar(e Expr, v Var) bool {
	for _, r := range Refs(e) {
		if r.Var == v {
			return true
		}
	}
	return false
}

// EqualExpr reports whether a and b are the same expression tree (positions
// ignored).
func EqualExpr(a, b Expr) bool {
	switch a := a.(type) {
	case *Literal:
		b, ok := b.(*Literal)
		return ok && a.Value == b.Value
	case *Ref:
		b, ok := b.(*Ref)
		return ok && a.Name == b.Name && a.Var == b.Var && a.Vec == b.Vec
	case *UnaryExpr:
		b, ok := b.(*UnaryExpr)
		return ok && EqualExpr(a.X, b.X)
	case *BinaryExpr:
		b, ok := b.(*BinaryExpr)
		return ok && a.Op == b.Op && EqualExpr(a.X, b.X) && EqualExpr(a.Y, b.Y)
	}
	return false
}
