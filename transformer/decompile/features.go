package decompile

import (
	"fmt"
	"math/big"
	"math/bits"
	"slices"
	"sort"
	"strings"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/transformer"
)

// feature is one Boolean vector of the program's encoding of a layer's
// activation: bit bit of the order-preserving index of coordinate coord's
// value (its only bit, "coordinate = the larger value", when the
// coordinate takes two values).
type feature struct {
	coords     []int // the coordinates with a bit equal to this feature
	coord, bit int
	name       string
	col        []bool // per reachable vector
	node       int
}

// level is the reachable state after the embedding or a layer.
type level struct {
	vecs  []transformer.Vec
	feats []feature
}

// synth synthesises a formula; a function the inputs do not determine is
// an internal error (the encoding separates every reachable vector), which
// is recorded rather than turned into a wrong program.
func (d *decompiler) synth(points [][]bool, out []bool) sop {
	if len(points) > 0 && d.spend(4*len(points)*len(points[0])) {
		if d.err == nil {
			d.err = d.workError("synthesising the Boolean functions of the reachable values")
		}
		return constSOP(false)
	}
	charge := func(n int64) bool { return !d.spend(int(min(n, 1<<40))) }
	s, ok, stopped := synthesizeWithin(points, out, charge)
	if stopped {
		if d.err == nil {
			d.err = d.workError("synthesising the Boolean functions of the reachable values")
		}
		return constSOP(false)
	}
	if !ok && d.err == nil {
		d.err = fmt.Errorf("decompile: internal error: a Boolean function is not determined by its inputs")
	}
	return s
}

// readBy reports whether the feature is a function of the coordinates in
// coords (it equals a bit of one of them).
func (f *feature) readBy(coords []bool) bool {
	for _, c := range f.coords {
		if coords[c] {
			return true
		}
	}
	return false
}

func featureRow(fs []feature, a int) []bool {
	row := make([]bool, len(fs))
	for k := range fs {
		row[k] = fs[k].col[a]
	}
	return row
}

// expr turns a sum of products into an expression, with varExpr giving
// each variable's expression.
func (d *decompiler) expr(s sop, varExpr func(v int) brasp.Expr) brasp.Expr {
	var terms []brasp.Expr
	for _, c := range s.cubes {
		var ls []brasp.Expr
		for _, l := range c {
			e := varExpr(l.v)
			if l.neg {
				e = brasp.Not(e)
			}
			ls = append(ls, e)
		}
		terms = append(terms, brasp.And(ls...))
	}
	e := brasp.Or(terms...)
	if s.negated {
		e = brasp.Not(e)
	}
	return brasp.Fold(e)
}

// defineFeatures computes the features of lv (per coordinate, the bits of
// the order-preserving index of its value; identical columns merged) and
// defines each as a position-wise operation synthesised over the domain
// points (point p is in class cls[p]).
func (d *decompiler) defineFeatures(lv *level, layer int, points [][]bool, cls []int, varExpr func(int) brasp.Expr) {
	m := d.m
	seen := map[string]int{}
	// The columns to encode: every coordinate, except frozen ones, whose
	// values in a class's representative are arbitrary; the class depends on
	// them only through their sum and sum of squares, encoded instead.
	type column struct {
		coord int // -1 for the frozen sums
		label string
		val   func(a int) *big.Rat
	}
	var cols []column
	for c := 0; c < m.Width; c++ {
		if d.frozen != nil && d.frozen[layer][c] {
			continue
		}
		cols = append(cols, column{c, m.Labels[c], func(a int) *big.Rat { return lv.vecs[a][c] }})
	}
	if d.frozen != nil {
		s1 := make([]*big.Rat, len(lv.vecs))
		s2 := make([]*big.Rat, len(lv.vecs))
		for a, x := range lv.vecs {
			s1[a], s2[a] = new(big.Rat), new(big.Rat)
			for c, v := range x {
				if d.frozen[layer][c] {
					s1[a].Add(s1[a], v)
					s2[a].Add(s2[a], new(big.Rat).Mul(v, v))
				}
			}
		}
		cols = append(cols,
			column{-1, fmt.Sprintf("L%d_frozen_sum", layer), func(a int) *big.Rat { return s1[a] }},
			column{-1, fmt.Sprintf("L%d_frozen_sumsq", layer), func(a int) *big.Rat { return s2[a] }})
	}
	for _, col := range cols {
		c := col.coord
		distinct, ranks := rankValues(len(lv.vecs), col.val)
		if len(distinct) < 2 {
			continue
		}
		nb := bits.Len(uint(len(distinct) - 1))
		base := sanitize(col.label)
		if base == "" {
			base = fmt.Sprintf("x%d", c)
		}
		for b := range nb {
			bitCol := make([]bool, len(lv.vecs))
			key := make([]byte, len(bitCol))
			for a := range lv.vecs {
				bitCol[a] = ranks[a]>>b&1 == 1
				if bitCol[a] {
					key[a] = 1
				}
			}
			if k, ok := seen[string(key)]; ok {
				if c >= 0 {
					lv.feats[k].coords = append(lv.feats[k].coords, c)
				}
				continue
			}
			seen[string(key)] = len(lv.feats)
			name := base
			if nb > 1 {
				name = fmt.Sprintf("%s_b%d", base, b)
			} else if distinct[0].Sign() != 0 || distinct[1].Cmp(big.NewRat(1, 1)) != 0 {
				name = fmt.Sprintf("%s_is_%s", base, ratName(distinct[1]))
			}
			f := feature{coord: c, bit: b, name: name, col: bitCol, node: -1}
			if c >= 0 {
				f.coords = []int{c}
			}
			lv.feats = append(lv.feats, f)
		}
	}
	out := make([]bool, len(points))
	for k := range lv.feats {
		f := &lv.feats[k]
		for p := range points {
			out[p] = f.col[cls[p]]
		}
		f.node = d.g.positionwise(f.name, d.expr(d.synth(points, out), varExpr))
	}
}

// rankValues returns the distinct values of val(0..n−1) in increasing
// order and the rank of each val(a) among them. The values of compiled
// models are short dyadic rationals, exactly float64s, which are sorted as
// such; exact rational comparison (which allocates) is the fallback.
func rankValues(n int, val func(a int) *big.Rat) (distinct []*big.Rat, ranks []int) {
	ranks = make([]int, n)
	fs := make([]float64, n)
	exact := true
	for a := range n {
		if fs[a], exact = transformer.ExactFloat64(val(a)); !exact {
			break
		}
	}
	if exact {
		sorted := slices.Clone(fs)
		slices.Sort(sorted)
		sorted = slices.Compact(sorted)
		byValue := make([]*big.Rat, len(sorted))
		for a := range n {
			r, _ := slices.BinarySearch(sorted, fs[a])
			ranks[a] = r
			if byValue[r] == nil {
				byValue[r] = val(a)
			}
		}
		return byValue, ranks
	}
	vals := make([]*big.Rat, n)
	for a := range n {
		vals[a] = val(a)
	}
	sort.Slice(vals, func(a, b int) bool { return vals[a].Cmp(vals[b]) < 0 })
	for _, v := range vals {
		if len(distinct) == 0 || distinct[len(distinct)-1].Cmp(v) != 0 {
			distinct = append(distinct, v)
		}
	}
	for a := range n {
		v := val(a)
		ranks[a] = sort.Search(len(distinct), func(k int) bool { return distinct[k].Cmp(v) >= 0 })
	}
	return distinct, ranks
}

// ratName spells a rational inside a name: 1/2 → 1_2, -3 → m3.
func ratName(r *big.Rat) string {
	s := strings.NewReplacer("-", "m", "/", "_").Replace(r.RatString())
	if len(s) > 12 {
		s = "v"
	}
	return s
}
