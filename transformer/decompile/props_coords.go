package decompile

import (
	"fmt"
	"math/big"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/position"
	"github.com/brasp-dev/brasp/transformer"
)

// coordinates is the state of the coordinate-wise route.
type coordinates struct {
	*decompiler
	pos    *positions
	stages [][]*cval     // stages[s][c], computed on demand; see coord
	heads  [][]*headInfo // heads[l][h], made on first read
	tables int           // the tables made so far
	widest int           // the largest product tabulated
}

// decompileCoordinates is the coordinate-wise route (see the package
// documentation).
func decompileCoordinates(b *budget.Budget, m *transformer.Model, opts Options) (*brasp.Program, *Info, error) {
	for l := range m.Layers {
		if m.Layers[l].AttentionNorm != nil || m.Layers[l].FFNNorm != nil {
			return nil, nil, fmt.Errorf("decompile: layer %d has a layer norm, which reads every coordinate: a model over propositions with layer norms is %w", l+1, errNotCoordinateWise)
		}
	}
	d := &decompiler{m: m, opts: opts, b: b, g: newPropsIR(m.Props), info: &Info{Route: RouteCoordinates},
		ar: &transformer.Arith{MaxBits: b.Max(transformer.RationalBits)}, maxWork: b.Max(maxWork)}
	cd := &coordinates{decompiler: d, stages: make([][]*cval, 2*len(m.Layers)+1), heads: make([][]*headInfo, len(m.Layers))}
	for s := range cd.stages {
		cd.stages[s] = make([]*cval, m.Width)
	}
	for l := range m.Layers {
		cd.heads[l] = make([]*headInfo, len(m.Layers[l].Heads))
	}
	var err error
	if cd.pos, err = d.positions(); err != nil {
		return nil, nil, err
	}
	p, err := cd.run()
	if err != nil {
		return nil, nil, err
	}
	for s := range cd.stages {
		if s%2 == 0 {
			n := 0
			for _, c := range cd.stages[s] {
				if c != nil {
					n += len(c.vals)
				}
			}
			d.info.Values = append(d.info.Values, n)
		}
	}
	d.info.Tables, d.info.Widest = cd.tables, cd.widest
	return p, d.info, nil
}

// run computes the output and, through it, every coordinate it depends on.
func (cd *coordinates) run() (*brasp.Program, error) {
	m := cd.m
	last := 2 * len(m.Layers)
	// Every coordinate the output reads, at the last stage.
	outputOf := func(w transformer.Vec, bias *big.Rat, name string) (int, error) {
		var cs []int
		var srcs []source
		for c, x := range w {
			if x.Sign() != 0 {
				cv, err := cd.coord(last, c)
				if err != nil {
					return 0, err
				}
				cs = append(cs, c)
				srcs = append(srcs, cv.source(brasp.VarI))
			}
		}
		points, outs, varExpr, err := cd.tabulate("the output layer", srcs, func(t []int) *big.Rat {
			s := new(big.Rat).Set(bias)
			for k, c := range cs {
				s.Add(s, cd.mul(w[c], cd.stages[last][c].vals[t[k]]))
			}
			if s.Sign() >= 0 {
				return big.NewRat(1, 1)
			}
			return new(big.Rat)
		})
		if err != nil {
			return 0, err
		}
		out := make([]bool, len(outs))
		for p, x := range outs {
			out[p] = x.Sign() > 0
		}
		n := cd.g.positionwise(name, cd.expr(cd.synth(points, out), varExpr))
		return n, cd.err
	}
	if t := m.Transduction; t != nil {
		outs := make([]int, len(t.Symbols))
		for g := range t.Symbols {
			var err error
			if outs[g], err = outputOf(t.Weight[g], t.Bias[g], outputName(t.Symbols[g], g)); err != nil {
				return nil, err
			}
		}
		return cd.g.transducer(t.Symbols, outs)
	}
	y, err := outputOf(m.Output.Weight, m.Output.Bias, "Y")
	if err != nil {
		return nil, err
	}
	return cd.g.program(y)
}

// coord returns the value set of coordinate c at stage s: s = 0 after the
// embedding, s = 2l+1 after the attention of layer l (its input plus what
// its heads attend to) and s = 2l+2 after its FFN. A coordinate that a
// stage does not write keeps the previous stage's values and features.
func (cd *coordinates) coord(s, c int) (*cval, error) {
	if cv := cd.stages[s][c]; cv != nil {
		return cv, nil
	}
	var cv *cval
	var err error
	switch {
	case s == 0:
		cv, err = cd.embedded(c)
	case s%2 == 1:
		cv, err = cd.attention((s-1)/2, c)
	default:
		cv, err = cd.ffn(s/2-1, c)
	}
	if err != nil {
		return nil, err
	}
	if cd.err != nil {
		return nil, cd.err
	}
	cd.stages[s][c] = cv
	return cv, nil
}

// mul returns x·y, counting the work.
func (cd *coordinates) mul(x, y *big.Rat) *big.Rat {
	cd.ar.Work++
	return new(big.Rat).Mul(x, y)
}

// embedded is coordinate c after the embedding: EmbeddingBias[c] plus the
// rows of the true propositions that touch c, plus the position terms on
// c — a function of those propositions and the position key.
func (cd *coordinates) embedded(c int) (*cval, error) {
	m := cd.m
	var props []int
	var srcs []source
	for p := range m.Props {
		if m.Embedding[p][c].Sign() != 0 {
			props = append(props, p)
			srcs = append(srcs, source{n: 2, vars: []brasp.Expr{ref(p, brasp.VarI)}, bit: func(a, _ int) bool { return a == 1 }})
		}
	}
	var terms []int
	for t := range m.Position {
		if m.Position[t].Coord == c {
			terms = append(terms, t)
		}
	}
	if len(terms) > 0 {
		ps := cd.pos
		s := source{n: len(ps.keys), bit: func(a, v int) bool { return ps.vars[v].val(ps.keys[a]) }}
		for _, v := range ps.vars {
			s.vars = append(s.vars, cd.posExpr(v))
		}
		srcs = append(srcs, s)
	}
	points, outs, varExpr, err := cd.tabulate(fmt.Sprintf("coordinate %s of the embedding", cd.label(c)), srcs, func(t []int) *big.Rat {
		x := new(big.Rat).Set(m.EmbeddingBias[c])
		for k, p := range props {
			if t[k] == 1 {
				x.Add(x, m.Embedding[p][c])
			}
		}
		if len(terms) > 0 {
			key := cd.pos.keys[t[len(props)]]
			for _, tm := range terms {
				term := &m.Position[tm]
				x.Add(x, cd.mul(termValue(term, key), term.Scale))
			}
		}
		return x
	})
	if err != nil {
		return nil, err
	}
	return cd.newCval(c, points, outs, varExpr)
}

// head returns the score table of head h of layer l, reading the
// coordinates its score reads at the layer's input (at i for the query, at
// j for the key).
func (cd *coordinates) head(l, h int) (*headInfo, error) {
	if hi := cd.heads[l][h]; hi != nil {
		return hi, nil
	}
	hd := &cd.m.Layers[l].Heads[h]
	type entry struct {
		q, k int // indices into qs, ks
		w    *big.Rat
	}
	var qs, ks []int
	qIdx, kIdx := map[int]int{}, map[int]int{}
	var entries []entry
	for a, row := range hd.Score {
		for b, w := range row {
			if w.Sign() == 0 {
				continue
			}
			if _, ok := qIdx[a]; !ok {
				qIdx[a] = len(qs)
				qs = append(qs, a)
			}
			if _, ok := kIdx[b]; !ok {
				kIdx[b] = len(ks)
				ks = append(ks, b)
			}
			entries = append(entries, entry{qIdx[a], kIdx[b], w})
		}
	}
	var srcs []source
	var cvs []*cval
	for _, a := range qs {
		cv, err := cd.coord(2*l, a)
		if err != nil {
			return nil, err
		}
		cvs = append(cvs, cv)
		srcs = append(srcs, cv.source(brasp.VarI))
	}
	for _, b := range ks {
		cv, err := cd.coord(2*l, b)
		if err != nil {
			return nil, err
		}
		cvs = append(cvs, cv)
		srcs = append(srcs, cv.source(brasp.VarJ))
	}
	hi := &headInfo{hd: hd, attNode: map[int]int{}}
	hi.table = func() ([][]bool, []int, func(int) brasp.Expr, error) {
		points, outs, varExpr, err := cd.tabulate(fmt.Sprintf("the scores of head %d of layer %d", h+1, l+1), srcs, func(t []int) *big.Rat {
			s := new(big.Rat)
			for _, e := range entries {
				x := cvs[e.q].vals[t[e.q]]
				y := cvs[len(qs)+e.k].vals[t[len(qs)+e.k]]
				if x.Sign() != 0 && y.Sign() != 0 {
					s.Add(s, cd.mul(cd.mul(x, e.w), y))
				}
			}
			return s
		})
		if err != nil {
			return nil, nil, nil, err
		}
		var rank []int
		hi.values, rank = rankValues(len(outs), func(p int) *big.Rat { return outs[p] })
		if err := cd.b.Check(maxScores, int64(len(hi.values)), fmt.Sprintf("decompile: the set of distinct scores of head %d of layer %d", h+1, l+1)); err != nil {
			return nil, nil, nil, err
		}
		return points, rank, varExpr, nil
	}
	cd.heads[l][h] = hi
	return hi, nil
}

// attention is coordinate c after the attention of layer l: its input
// value plus, for every head whose value writes c, the value of the
// attended position's coordinates (nothing when no position is unmasked).
func (cd *coordinates) attention(l, c int) (*cval, error) {
	layer := &cd.m.Layers[l]
	own, err := cd.coord(2*l, c)
	if err != nil {
		return nil, err
	}
	srcs := []source{own.source(brasp.VarI)}
	type read struct {
		src int // index into srcs
		w   *big.Rat
		cv  *cval
	}
	type headRead struct {
		unmasked int // index into srcs of "some position is unmasked"
		reads    []read
	}
	var heads []headRead
	for h := range layer.Heads {
		hd := &layer.Heads[h]
		var reads []read
		for k, w := range hd.Value[c] {
			if w.Sign() == 0 {
				continue
			}
			hi, err := cd.head(l, h)
			if err != nil {
				return nil, err
			}
			cv, err := cd.coord(2*l, k)
			if err != nil {
				return nil, err
			}
			s := source{n: len(cv.vals), bit: rankBit}
			for b, f := range cv.feats {
				n := cd.attended(l, h, hi, f, cv.names[b], k)
				if cd.err != nil {
					return nil, cd.err
				}
				s.vars = append(s.vars, ref(n, brasp.VarI))
			}
			reads = append(reads, read{len(srcs), w, cv})
			srcs = append(srcs, s)
		}
		if len(reads) == 0 {
			continue
		}
		unmasked := source{n: 1}
		if hd.Mask == position.MaskFuture || hd.Mask == position.MaskPast {
			unmasked = source{n: 2, vars: []brasp.Expr{cd.anyExpr(hd.Mask)}, bit: func(a, _ int) bool { return a == 1 }}
		}
		heads = append(heads, headRead{len(srcs), reads})
		srcs = append(srcs, unmasked)
	}
	if len(heads) == 0 {
		return own, nil
	}
	points, outs, varExpr, err := cd.tabulate(fmt.Sprintf("coordinate %s after the attention of layer %d", cd.label(c), l+1), srcs, func(t []int) *big.Rat {
		x := new(big.Rat).Set(own.vals[t[0]])
		for _, hr := range heads {
			if srcs[hr.unmasked].n == 2 && t[hr.unmasked] == 0 {
				// Nothing unmasked: the head adds the zero vector, and
				// every attended feature is its default 0.
				for _, r := range hr.reads {
					if t[r.src] != 0 {
						return nil
					}
				}
				continue
			}
			for _, r := range hr.reads {
				x.Add(x, cd.mul(r.w, r.cv.vals[t[r.src]]))
			}
		}
		return x
	})
	if err != nil {
		return nil, err
	}
	return cd.newCval(c, points, outs, varExpr)
}

// ffn is coordinate c after the FFN of layer l: c + Σ_u W2[c][u]·ReLU(W1[u]·x + B1[u]) + B2[c],
// a function of the coordinates the hidden units u with W2[c][u] ≠ 0 read.
func (cd *coordinates) ffn(l, c int) (*cval, error) {
	f := cd.m.Layers[l].FFN
	if f == nil {
		return cd.coord(2*l+1, c)
	}
	var units []int
	for u, w := range f.W2[c] {
		if w.Sign() != 0 {
			units = append(units, u)
		}
	}
	if len(units) == 0 && f.B2[c].Sign() == 0 {
		return cd.coord(2*l+1, c)
	}
	idx := map[int]int{c: 0}
	ins := []int{c}
	for _, u := range units {
		for k, w := range f.W1[u] {
			if _, ok := idx[k]; w.Sign() != 0 && !ok {
				idx[k] = len(ins)
				ins = append(ins, k)
			}
		}
	}
	srcs := make([]source, len(ins))
	cvs := make([]*cval, len(ins))
	for k, in := range ins {
		cv, err := cd.coord(2*l+1, in)
		if err != nil {
			return nil, err
		}
		cvs[k], srcs[k] = cv, cv.source(brasp.VarI)
	}
	points, outs, varExpr, err := cd.tabulate(fmt.Sprintf("coordinate %s after the FFN of layer %d", cd.label(c), l+1), srcs, func(t []int) *big.Rat {
		y := new(big.Rat).Add(cvs[0].vals[t[0]], f.B2[c])
		for _, u := range units {
			h := new(big.Rat).Set(f.B1[u])
			for k, in := range ins {
				if w := f.W1[u][in]; w.Sign() != 0 {
					h.Add(h, cd.mul(w, cvs[k].vals[t[k]]))
				}
			}
			if h.Sign() > 0 {
				y.Add(y, cd.mul(f.W2[c][u], h))
			}
		}
		return y
	})
	if err != nil {
		return nil, err
	}
	return cd.newCval(c, points, outs, varExpr)
}
