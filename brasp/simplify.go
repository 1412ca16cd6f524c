package brasp

// The clean-up passes: Simplify folds every expression (Fold) and drops dead
// code; DeadCode drops the operations the output does not read. Like the
// normal forms they return a new program.

// Simplify returns a program equivalent to p with constant subexpressions
// folded (X & 1 → X, X | 1 → 1, !!X → X, ...) and with the operations the
// output does not depend on removed (DeadCode). The vectors that remain keep
// their names and values.
func Simplify(p *Program) *Program {
	r := newRewriter(p)
	for k, v := range p.Vectors {
		r.copyVector(k)
		nv := r.dst.Vectors[len(r.dst.Vectors)-1]
		switch v.Kind {
		case PositionwiseVector:
			nv.Expr = Fold(nv.Expr)
		case AttentionVector:
			nv.Att.Score = Fold(nv.Att.Score)
			nv.Att.Value = Fold(nv.Att.Value)
			nv.Att.Default = Fold(nv.Att.Default)
		}
	}
	return DeadCode(r.finish())
}

// DeadCode returns p without the operations and position predicates that
// the output does not depend on (Program.Live). Symbol vectors are always
// kept, so that the alphabet and symbol numbering stay the same. The vectors
// that remain keep their names, order and values.
func DeadCode(p *Program) *Program {
	live := p.Live()
	r := newRewriter(p)
	for k, v := range p.Vectors {
		if live[k] || v.Kind == SymbolVector {
			r.copyVector(k)
		}
	}
	return r.finish()
}
