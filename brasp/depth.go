package brasp

// Depth returns the attention depth of vector v (§5.4): 0 for initial
// vectors; for a position-wise operation, the maximum depth of what it reads;
// for an attention operation, one more than the maximum depth of its score,
// value and default.
// It computes every vector's depth: callers that need several use Depths.
func (p *Program) Depth(v int) int { return p.depths()[v] }

// Depths returns the attention depth of every vector (Depth), computed in
// one pass over the program.
func (p *Program) Depths() []int { return p.depths() }

// depths computes the attention depth of every vector in one pass.
func (p *Program) depths() []int {
	d := make([]int, len(p.Vectors))
	exprDepth := func(e Expr) int {
		m := 0
		for _, r := range Refs(e) {
			m = max(m, d[r.Vec])
		}
		return m
	}
	for k, v := range p.Vectors {
		switch v.Kind {
		case PositionwiseVector:
			d[k] = exprDepth(v.Expr)
		case AttentionVector:
			d[k] = 1 + max(exprDepth(v.Att.Score), exprDepth(v.Att.Value), exprDepth(v.Att.Default))
		}
	}
	return d
}

// ProgramDepth is the paper's attention depth of a program: the maximum
// attention depth of all its operations, used or not.
func (p *Program) ProgramDepth() int {
	m := 0
	for _, x := range p.depths() {
		m = max(m, x)
	}
	return m
}

// AttentionDepth is the attention depth of what the program outputs: of the
// output vector of an acceptor, or the maximum over a transducer's output
// vectors. Operations the output does not depend on do not count; this is
// the number of layers a depth-preserving compilation needs (Thm C.4).
func (p *Program) AttentionDepth() int {
	d := p.depths()
	if !p.IsTransducer() {
		return d[p.Output.Accept]
	}
	m := 0
	for _, v := range p.Output.Vectors {
		m = max(m, d[v])
	}
	return m
}

// Live reports, for each vector, whether the output depends on it
// (transitively), so that converters can drop dead operations.
func (p *Program) Live() []bool {
	live := make([]bool, len(p.Vectors))
	if p.IsTransducer() {
		for _, v := range p.Output.Vectors {
			live[v] = true
		}
	} else if p.Output.Accept >= 0 {
		live[p.Output.Accept] = true
	}
	for k := len(p.Vectors) - 1; k >= 0; k-- {
		if !live[k] {
			continue
		}
		for _, e := range p.Vectors[k].Exprs() {
			for _, r := range Refs(e) {
				live[r.Vec] = true
			}
		}
	}
	return live
}

// Exprs returns the expressions of v's definition: none for initial vectors,
// R for a position-wise operation, and score, value and default for an
// attention operation.
func (v *Vector) Exprs() []Expr {
	switch v.Kind {
	case PositionwiseVector:
		return []Expr{v.Expr}
	case AttentionVector:
		return []Expr{v.Att.Score, v.Att.Value, v.Att.Default}
	}
	return nil
}
