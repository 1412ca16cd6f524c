package decompile

import (
	"fmt"
	"math/big"
	"math/bits"
	"sort"
	"strings"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/position"
	"github.com/brasp-dev/brasp/transformer"
)

// headInfo is the enumerated data of one head on one layer's reachable
// vectors. The score reads the query vector only through the coordinates
// qCoords and the key vector through kCoords (which also hold everything the
// value reads), so reachable vectors are grouped by their projections on
// these coordinates: vectors in the same key group are interchangeable for
// the head.
type headInfo struct {
	hd               *transformer.Head
	qCoords, kCoords []bool
	qGroup, kGroup   []int // per class
	qRep, kRep       []int // a representative class per group
	values           []*big.Rat
	rank             [][]int           // rank[qg][kg]: index of the score in values
	val              []transformer.Vec // per key group: Value·x
	// table returns the head's score table, computed when the head is
	// first read: the domain points (the query's Boolean variables, then
	// the key's), each point's score rank, and each variable's expression.
	table func() (points [][]bool, rank []int, varExpr func(int) brasp.Expr, err error)
	// lazily emitted program operations
	emitted bool
	maxNode []int // shallower: Max_v per value (-1: constant 1); smaller: Max_b per bit
	sEq     []brasp.Expr
	argmax  brasp.Expr
	attNode map[int]int // feature → attended-feature node
}

// groupBy groups the vectors by their projection on coords.
func groupBy(vecs []transformer.Vec, coords []bool) (group, rep []int) {
	index := map[string]int{}
	group = make([]int, len(vecs))
	for a, x := range vecs {
		var b strings.Builder
		for c, on := range coords {
			if on {
				b.WriteString(x[c].RatString())
				b.WriteByte(',')
			}
		}
		g, ok := index[b.String()]
		if !ok {
			g = len(rep)
			index[b.String()] = g
			rep = append(rep, a)
		}
		group[a] = g
	}
	return group, rep
}

// newHead enumerates the scores and values of a head on lv.
func (d *decompiler) newHead(l, h int, hd *transformer.Head, lv *level) (*headInfo, error) {
	w := d.m.Width
	hi := &headInfo{hd: hd, attNode: map[int]int{}, qCoords: make([]bool, w), kCoords: make([]bool, w)}
	for r := range w {
		for c := range w {
			if hd.Score[r][c].Sign() != 0 {
				hi.qCoords[r], hi.kCoords[c] = true, true
			}
			if hd.Value[r][c].Sign() != 0 {
				hi.kCoords[c] = true
			}
		}
	}
	hi.qGroup, hi.qRep = groupBy(lv.vecs, hi.qCoords)
	hi.kGroup, hi.kRep = groupBy(lv.vecs, hi.kCoords)
	keys := make([]transformer.Vec, len(hi.kRep))
	hi.val = make([]transformer.Vec, len(hi.kRep))
	for g, b := range hi.kRep {
		keys[g] = d.ar.MatVec(hd.Score, lv.vecs[b])
		hi.val[g] = d.ar.MatVec(hd.Value, lv.vecs[b])
	}
	if err := d.work(); err != nil {
		return nil, err
	}
	score := make([][]*big.Rat, len(hi.qRep))
	var all []*big.Rat
	for q, a := range hi.qRep {
		score[q] = make([]*big.Rat, len(keys))
		for g := range keys {
			score[q][g] = d.ar.Dot(lv.vecs[a], keys[g])
			all = append(all, score[q][g])
		}
		if err := d.work(); err != nil {
			return nil, err
		}
	}
	sort.Slice(all, func(x, y int) bool { return all[x].Cmp(all[y]) < 0 })
	for _, v := range all {
		if len(hi.values) == 0 || hi.values[len(hi.values)-1].Cmp(v) != 0 {
			hi.values = append(hi.values, v)
			if err := d.b.Check(maxScores, int64(len(hi.values)), fmt.Sprintf("decompile: the set of distinct scores of head %d of layer %d", h+1, l+1)); err != nil {
				return nil, err
			}
		}
	}
	hi.rank = make([][]int, len(score))
	for q := range score {
		hi.rank[q] = make([]int, len(keys))
		for g, v := range score[q] {
			hi.rank[q][g] = sort.Search(len(hi.values), func(k int) bool { return hi.values[k].Cmp(v) >= 0 })
		}
	}
	hi.table = func() ([][]bool, []int, func(int) brasp.Expr, error) { return d.groupTable(hi, lv) }
	return hi, nil
}

// groupTable is the score table of a head on the reachable vectors lv: one
// point per (query group, key group), over the features of lv at i and at
// j (those the query, respectively the key, does not read left false).
func (d *decompiler) groupTable(hi *headInfo, lv *level) ([][]bool, []int, func(int) brasp.Expr, error) {
	F := len(lv.feats)
	nq, nk := len(hi.qRep), len(hi.kRep)
	if err := d.b.Check(maxWork, int64(nq)*int64(nk)*int64(2*F), "decompile: the truth table of a head's scores"); err != nil {
		return nil, nil, nil, err
	}
	points := make([][]bool, 0, nq*nk)
	rank := make([]int, 0, nq*nk)
	for q, a := range hi.qRep {
		for g, b := range hi.kRep {
			row := make([]bool, 2*F)
			for k := range lv.feats {
				f := &lv.feats[k]
				row[k] = f.readBy(hi.qCoords) && f.col[a]
				row[F+k] = f.readBy(hi.kCoords) && f.col[b]
			}
			points = append(points, row)
			rank = append(rank, hi.rank[q][g])
		}
	}
	varExpr := func(v int) brasp.Expr {
		if v < F {
			return ref(lv.feats[v].node, brasp.VarI)
		}
		return ref(lv.feats[v-F].node, brasp.VarJ)
	}
	return points, rank, varExpr, nil
}

// possible lists the key groups a head can attend to from a position of
// class a (-1: no unmasked position). With a mask that lets i see itself,
// the attended score is at least i's own score, and a tie with i itself is
// won by i when the tie-break prefers the side i is on.
func possible(hi *headInfo, a int) []int {
	var out []int
	switch hi.hd.Mask {
	case position.MaskFuture, position.MaskPast:
		out = append(out, -1)
		for g := range hi.kRep {
			out = append(out, g)
		}
		return out
	}
	q := hi.qGroup[a]
	self := hi.rank[q][hi.kGroup[a]]
	selfWins := (hi.hd.Mask == position.MaskFutureOrSelf && hi.hd.Tiebreak == position.Rightmost) ||
		(hi.hd.Mask == position.MaskPastOrSelf && hi.hd.Tiebreak == position.Leftmost)
	for g := range hi.kRep {
		r := hi.rank[q][g]
		if r < self || (r == self && selfWins && g != hi.kGroup[a]) {
			continue
		}
		out = append(out, g)
	}
	return out
}

// anyExpr is "some position is unmasked" for a mask.
func (d *decompiler) anyExpr(m position.Mask) brasp.Expr {
	switch m {
	case position.MaskFuture:
		return brasp.Not(ref(d.g.pred(brasp.Predicate{Kind: brasp.First}), brasp.VarI))
	case position.MaskPast:
		return brasp.Not(ref(d.g.pred(brasp.Predicate{Kind: brasp.Last}), brasp.VarI))
	}
	return brasp.Bool(true)
}

// attended returns the node holding a feature (node fnode, named fname,
// a bit of coordinate coord or -1) of the vector head h of layer l attends
// to (0 when nothing is unmasked), emitting the head's argmax machinery on
// first use.
func (d *decompiler) attended(l, h int, hi *headInfo, fnode int, fname string, coord int) int {
	if n, ok := hi.attNode[fnode]; ok {
		return n
	}
	g := d.g
	mask := hi.hd.Mask
	tb := hi.hd.Tiebreak
	prefix := fmt.Sprintf("L%dH%d", l+1, h+1)
	fj := ref(fnode, brasp.VarJ)
	fname = prefix + "_" + fname
	if dst := d.valueLabel(hi.hd, coord); dst != "" {
		fname = dst
	}
	if !hi.emitted {
		d.emitHead(prefix, hi)
	}
	if d.err != nil {
		return 0 // the decompilation has failed; the caller reports d.err
	}
	var n int
	if !d.opts.Smaller {
		var terms []brasp.Expr
		for v := range hi.values {
			name := fmt.Sprintf("%s_s%d", fname, v)
			if len(hi.values) == 1 {
				name = fname
			}
			r := g.attend(name, tb, mask, hi.sEq[v], fj, brasp.Bool(false))
			if hi.maxNode[v] < 0 {
				terms = append(terms, ref(r, brasp.VarI))
			} else {
				terms = append(terms, brasp.And(ref(hi.maxNode[v], brasp.VarI), ref(r, brasp.VarI)))
			}
		}
		n = g.internal(fname, brasp.Or(terms...))
	} else {
		n = g.attend(fname, tb, mask, hi.argmax, fj, brasp.Bool(false))
	}
	hi.attNode[fnode] = n
	return n
}

// valueLabel names the attended copy of coordinate c after the coordinate
// the head's value writes it to, when there is exactly one and it is
// labelled ("" otherwise).
func (d *decompiler) valueLabel(hd *transformer.Head, c int) string {
	if c < 0 {
		return ""
	}
	dst := -1
	for r := range hd.Value {
		if hd.Value[r][c].Sign() != 0 {
			if dst >= 0 {
				return ""
			}
			dst = r
		}
	}
	if dst < 0 {
		return ""
	}
	return sanitize(d.m.Labels[dst])
}

// emitHead defines the score predicates of a head and its Max operations,
// synthesised on the head's score table.
func (d *decompiler) emitHead(prefix string, hi *headInfo) {
	hi.emitted = true
	g := d.g
	mask := hi.hd.Mask
	points, rank, varExpr, err := hi.table()
	if err != nil {
		if d.err == nil {
			d.err = err
		}
		return
	}
	pairFn := func(f func(r int) bool) brasp.Expr {
		out := make([]bool, len(rank))
		for p, r := range rank {
			out[p] = f(r)
		}
		return d.expr(d.synth(points, out), varExpr)
	}
	V := len(hi.values)
	if !d.opts.Smaller {
		hi.sEq = make([]brasp.Expr, V)
		hi.maxNode = make([]int, V)
		for v := range V {
			hi.sEq[v] = pairFn(func(r int) bool { return r == v })
			hi.maxNode[v] = -1
			if v < V-1 {
				gt := pairFn(func(r int) bool { return r > v })
				hi.maxNode[v] = g.attend(fmt.Sprintf("%s_max%d", prefix, v), position.Rightmost, mask, gt, brasp.Bool(false), brasp.Bool(true))
			}
		}
		return
	}
	B := bits.Len(uint(V - 1))
	sBit := make([]brasp.Expr, B)
	for b := range B {
		sBit[b] = pairFn(func(r int) bool { return r>>b&1 == 1 })
	}
	hi.maxNode = make([]int, B)
	argmax := brasp.Expr(brasp.Bool(true))
	for b := B - 1; b >= 0; b-- {
		hi.maxNode[b] = g.attend(fmt.Sprintf("%s_maxbit%d", prefix, b), position.Leftmost, mask,
			brasp.And(argmax, sBit[b]), brasp.Bool(true), brasp.Bool(false))
		argmax = brasp.And(argmax, iff(sBit[b], ref(hi.maxNode[b], brasp.VarI)))
	}
	hi.argmax = argmax
}
