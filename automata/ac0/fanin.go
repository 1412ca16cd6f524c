package ac0

import "github.com/brasp-dev/brasp/brasp"

// maxFanIn is the most vectors one expression of the program reads. The
// compiler to transformers tabulates the Boolean function of each
// expression (2^inputs rows), and the exact DFA construction enumerates the
// assignments of the vectors an attention operation reads at i; the block
// program's conditions over the letters of T_s, read as disjunctions of
// H<s> vectors, would otherwise read hundreds. Wider conjunctions and
// disjunctions are split into a tree of position-wise vectors.
const maxFanIn = 8

// bounded returns an expression equal to e that reads at most maxFanIn
// distinct vectors, adding position-wise vectors for parts of wide
// conjunctions and disjunctions that read a single position variable (a
// part read at j becomes a vector read at j: its value at j is the part's
// value there).
func (c *construction) bounded(e brasp.Expr) (brasp.Expr, error) {
	if fanIn(e) <= maxFanIn {
		return e, nil
	}
	switch x := e.(type) {
	case *brasp.UnaryExpr:
		y, err := c.bounded(x.X)
		return brasp.Not(y), err
	case *brasp.BinaryExpr:
		ops := flatten(x, x.Op, nil)
		for k := range ops {
			var err error
			if ops[k], err = c.bounded(ops[k]); err != nil {
				return nil, err
			}
		}
		join := func(xs []brasp.Expr) brasp.Expr {
			if x.Op == brasp.AND {
				return brasp.And(xs...)
			}
			return brasp.Or(xs...)
		}
		for fanIn(join(ops)) > maxFanIn {
			var out, chunk []brasp.Expr
			chunkVar := brasp.VarI
			flush := func() error {
				switch {
				case len(chunk) == 0:
				case len(chunk) == 1 && fanIn(chunk[0]) <= 1:
					out = append(out, chunk[0])
				default:
					if err := c.charge(exprSize(join(chunk)) + 2); err != nil {
						return err
					}
					k := c.pb.Positionwise("F", brasp.ReadAt(join(chunk), brasp.VarI))
					out = append(out, c.ref(k, chunkVar))
				}
				chunk = nil
				return nil
			}
			for _, op := range ops {
				v, pure := onlyVar(op)
				if !pure {
					out = append(out, op)
					continue
				}
				if len(chunk) > 0 && (v != chunkVar || fanIn(join(append(chunk[:len(chunk):len(chunk)], op))) > maxFanIn) {
					if err := flush(); err != nil {
						return nil, err
					}
				}
				chunkVar = v
				chunk = append(chunk, op)
			}
			if err := flush(); err != nil {
				return nil, err
			}
			if len(out) >= len(ops) && fanIn(join(out)) >= fanIn(join(ops)) {
				return join(out), nil // no progress: parts read both i and j
			}
			ops = out
		}
		return join(ops), nil
	}
	return e, nil
}

// fanIn is the number of distinct (vector, variable) references in e.
func fanIn(e brasp.Expr) int {
	seen := map[[2]int]bool{}
	for _, r := range brasp.Refs(e) {
		seen[[2]int{r.Vec, int(r.Var)}] = true
	}
	return len(seen)
}

// flatten lists the operands of a chain of op.
func flatten(e brasp.Expr, op brasp.Op, out []brasp.Expr) []brasp.Expr {
	if b, ok := e.(*brasp.BinaryExpr); ok && b.Op == op {
		return flatten(b.Y, op, flatten(b.X, op, out))
	}
	return append(out, e)
}

// onlyVar reports whether e reads a single position variable, and which
// (VarI for an expression without references).
func onlyVar(e brasp.Expr) (brasp.Var, bool) {
	refs := brasp.Refs(e)
	if len(refs) == 0 {
		return brasp.VarI, true
	}
	for _, r := range refs[1:] {
		if r.Var != refs[0].Var {
			return 0, false
		}
	}
	return refs[0].Var, true
}
