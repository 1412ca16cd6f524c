package decompile

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/transformer"
)

// label is coordinate c's label, for messages.
func (cd *coordinates) label(c int) string {
	if c < len(cd.m.Labels) && cd.m.Labels[c] != "" {
		return fmt.Sprintf("%d (%s)", c, cd.m.Labels[c])
	}
	return fmt.Sprint(c)
}

// tabulate evaluates f on every combination of the sources' alternatives
// (the product of their value sets: a superset of the combinations that
// occur, on which f is exact), within decompile-product. It returns one
// domain point per combination (the sources' Boolean variables,
// concatenated), f's value there, and each variable's expression; a
// combination on which f returns nil cannot occur and is left out.
func (cd *coordinates) tabulate(what string, srcs []source, f func(t []int) *big.Rat) ([][]bool, []*big.Rat, func(int) brasp.Expr, error) {
	product, nv := int64(1), 0
	for _, s := range srcs {
		product = satMul(product, int64(s.n))
		nv += len(s.vars)
		if err := cd.b.Check(maxProduct, product, "decompile: the table of "+what+" (the product of the value sets it reads)"); err != nil {
			return nil, nil, nil, err
		}
	}
	cd.tables++
	cd.widest = max(cd.widest, int(product))
	if cd.spend(int(satMul(product, int64(nv+1)))) {
		return nil, nil, nil, cd.workError("tabulating " + what)
	}
	var vars []brasp.Expr
	for _, s := range srcs {
		vars = append(vars, s.vars...)
	}
	points := make([][]bool, 0, product)
	outs := make([]*big.Rat, 0, product)
	t := make([]int, len(srcs))
	cells := make([]bool, int(product)*nv)
	for {
		row := cells[:nv:nv]
		cells = cells[nv:]
		v := 0
		for k, s := range srcs {
			for b := range s.vars {
				row[v] = s.bit(t[k], b)
				v++
			}
		}
		if x := f(t); x != nil {
			if n := transformer.RatBits(x); cd.ar.MaxBits > 0 && n > cd.ar.MaxBits {
				return nil, nil, nil, &budget.Error{Limit: transformer.RationalBits, Value: cd.ar.MaxBits, Need: n, What: "decompile: a value of " + what}
			}
			points = append(points, row)
			outs = append(outs, x)
		}
		if cells := len(cells); cells%(1024*max(nv, 1)) == 0 {
			if err := cd.work(); err != nil {
				return nil, nil, nil, err
			}
		}
		// The next combination, the last source fastest.
		k := len(t) - 1
		for k >= 0 {
			if t[k]++; t[k] < srcs[k].n {
				break
			}
			t[k] = 0
			k--
		}
		if k < 0 {
			break
		}
	}
	if err := cd.work(); err != nil {
		return nil, nil, nil, err
	}
	return points, outs, func(v int) brasp.Expr { return vars[v] }, nil
}

// newCval ranks coordinate c's tabulated values and defines one feature
// per bit of the rank, each synthesised as a Boolean function of the
// table's variables.
func (cd *coordinates) newCval(c int, points [][]bool, outs []*big.Rat, varExpr func(int) brasp.Expr) (*cval, error) {
	distinct, ranks := rankValues(len(outs), func(p int) *big.Rat { return outs[p] })
	if err := cd.b.Check(maxClasses, int64(len(distinct)), fmt.Sprintf("decompile: the values of coordinate %s", cd.label(c))); err != nil {
		return nil, err
	}
	cv := &cval{vals: distinct}
	if len(distinct) < 2 {
		return cv, nil
	}
	base := sanitize(cd.m.Labels[c])
	if base == "" {
		base = fmt.Sprintf("x%d", c)
	}
	nb := bits.Len(uint(len(distinct) - 1))
	out := make([]bool, len(points))
	for b := range nb {
		name := base
		if nb > 1 {
			name = fmt.Sprintf("%s_b%d", base, b)
		} else if distinct[0].Sign() != 0 || distinct[1].Cmp(big.NewRat(1, 1)) != 0 {
			name = fmt.Sprintf("%s_is_%s", base, ratName(distinct[1]))
		}
		for p, r := range ranks {
			out[p] = r>>b&1 == 1
		}
		cv.feats = append(cv.feats, cd.g.positionwise(name, cd.expr(cd.synth(points, out), varExpr)))
		cv.names = append(cv.names, name)
		if cd.err != nil {
			return nil, cd.err
		}
	}
	return cv, nil
}

// satMul is x·y for non-negative x and y, saturating at the largest int64
// (a limit raised near it must not wrap around).
func satMul(x, y int64) int64 {
	if y != 0 && x > math.MaxInt64/y {
		return math.MaxInt64
	}
	return x * y
}
