package brasp

// Compilation of Boolean expressions into instruction lists over bitset
// registers, evaluated a chunk of words at a time.

type opcode uint8

const (
	insLoad   opcode = iota // dst = vector a (a view, no copy)
	insParam                // dst = all ones if params[a], else zeros
	insConst                // dst = all ones if a != 0, else zeros
	insNot                  // dst = ^a
	insAnd                  // dst = a & b
	insOr                   // dst = a | b
	insAndNot               // dst = a &^ b
	insOrNot                // dst = a | ^b
)

type insn struct {
	op     opcode
	dst    int32 // register
	a, b   int32 // registers, or the vector/parameter/constant of a leaf
	buf    int32 // scratch buffer of dst (computed instructions only)
	isLast bool
}

// bexpr is a compiled expression. Registers are numbered in SSA form; each
// computed register owns a scratch buffer, reused as soon as its value is
// consumed, so that a tree needs few buffers.
type bexpr struct {
	code  []insn
	res   int32
	nbuf  int        // scratch buffers used, numbered from base
	views [][]uint64 // per register: its value for the current chunk
}

type exprCompiler struct {
	e     *bexpr
	atoms []int // vectors read at i, as parameters (nil: none)
	base  int
	bufOf []int32 // per register: scratch buffer or -1
	free  []int32
}

// compileExpr compiles e. References at i to the vectors in atoms become
// parameters; other references read vectors. Scratch buffers are numbered
// from base.
func compileExpr(e Expr, atoms []int, base int) *bexpr {
	e = Fold(e)
	size := 1 // at most one instruction per node, plus a final negation
	Walk(e, func(Expr) { size++ })
	c := exprCompiler{e: &bexpr{code: make([]insn, 0, size)}, atoms: atoms, base: base,
		bufOf: make([]int32, 0, size)}
	reg, neg := c.node(e)
	if neg {
		reg = c.emit(insNot, reg, -1)
	}
	c.e.res = reg
	if n := len(c.e.code); n > 0 {
		c.e.code[n-1].isLast = true
	}
	c.e.views = make([][]uint64, len(c.bufOf))
	return c.e
}

func (c *exprCompiler) leaf(op opcode, a int32) int32 {
	r := int32(len(c.bufOf))
	c.bufOf = append(c.bufOf, -1)
	c.e.code = append(c.e.code, insn{op: op, dst: r, a: a, buf: -1})
	return r
}

func (c *exprCompiler) emit(op opcode, a, b int32) int32 {
	buf := int32(-1)
	for _, x := range [2]int32{a, b} {
		if x < 0 || c.bufOf[x] < 0 {
			continue
		}
		if buf < 0 {
			buf = c.bufOf[x] // compute in place
		} else {
			c.free = append(c.free, c.bufOf[x])
		}
	}
	if buf < 0 {
		if k := len(c.free); k > 0 {
			buf, c.free = c.free[k-1], c.free[:k-1]
		} else {
			buf = int32(c.e.nbuf)
			c.e.nbuf++
		}
	}
	r := int32(len(c.bufOf))
	c.bufOf = append(c.bufOf, buf)
	c.e.code = append(c.e.code, insn{op: op, dst: r, a: a, b: b, buf: int32(c.base) + buf})
	return r
}

// node compiles e and returns the register holding e or its negation (neg),
// pushing negations into the operators with De Morgan's laws.
func (c *exprCompiler) node(e Expr) (reg int32, neg bool) {
	switch e := e.(type) {
	case *Literal:
		if e.Value {
			return c.leaf(insConst, 1), false
		}
		return c.leaf(insConst, 0), false
	case *Ref:
		if e.Var == VarI {
			for k, a := range c.atoms {
				if a == e.Vec {
					return c.leaf(insParam, int32(k)), false
				}
			}
		}
		return c.leaf(insLoad, int32(e.Vec)), false
	case *UnaryExpr:
		r, n := c.node(e.X)
		return r, !n
	case *BinaryExpr:
		x, nx := c.node(e.X)
		y, ny := c.node(e.Y)
		op, dual := insAnd, insOr
		if e.Op == OR {
			op, dual = insOr, insAnd
		}
		switch {
		case !nx && !ny:
			return c.emit(op, x, y), false
		case nx && ny: // !x & !y = !(x | y)
			return c.emit(dual, x, y), true
		}
		if nx {
			x, y = y, x // x positive, y negated
		}
		if op == insAnd {
			return c.emit(insAndNot, x, y), false
		}
		return c.emit(insOrNot, x, y), false
	}
	panic("brasp: unknown expression type")
}

// eval evaluates e on words [lo, hi) and returns the result, which may be a
// view into a vector or a constant buffer and must not be modified. If dst is
// not nil, the result is written to dst (length hi-lo) and dst is returned.
func (r *Runner) eval(e *bexpr, lo, hi int, dst []uint64) []uint64 {
	m := hi - lo
	v := e.views
	var d []uint64
	for k := range e.code {
		in := &e.code[k]
		switch in.op {
		case insLoad:
			v[in.dst] = r.bits[in.a][lo:hi]
			continue
		case insParam:
			v[in.dst] = r.zeros[:m]
			if r.params[in.a] {
				v[in.dst] = r.ones[:m]
			}
			continue
		case insConst:
			v[in.dst] = r.zeros[:m]
			if in.a != 0 {
				v[in.dst] = r.ones[:m]
			}
			continue
		}
		if in.isLast && dst != nil {
			d = dst[:m]
		} else {
			d = r.scratch[in.buf][:m]
		}
		x := v[in.a][:m]
		switch in.op {
		case insNot:
			for k := range d {
				d[k] = ^x[k]
			}
		case insAnd:
			y := v[in.b][:m]
			for k := range d {
				d[k] = x[k] & y[k]
			}
		case insOr:
			y := v[in.b][:m]
			for k := range d {
				d[k] = x[k] | y[k]
			}
		case insAndNot:
			y := v[in.b][:m]
			for k := range d {
				d[k] = x[k] &^ y[k]
			}
		case insOrNot:
			y := v[in.b][:m]
			for k := range d {
				d[k] = x[k] | ^y[k]
			}
		}
		v[in.dst] = d
	}
	res := v[e.res]
	if dst != nil && !e.code[len(e.code)-1].isLastComputed() {
		copy(dst[:m], res)
		return dst[:m]
	}
	return res
}

func (in *insn) isLastComputed() bool { return in.op >= insNot }
