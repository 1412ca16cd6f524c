package compile

import (
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
)

// The FFNs: Boolean functions of the residual stream (boolFn, read off B-RASP
// expressions), their truth tables, and the disjoint DNFs (Lemma 4.1) that
// emitLayer writes as ReLU units.

// vecFn returns vector k as a Boolean function of the residual stream at the
// current stage: a slot read, an inlined position-wise expression, or (for
// an attention operation whose head is in the current layer) the result of
// the head.
func (c *compiler) vecFn(k int) boolFn {
	if s, ok := c.avail[k]; ok {
		return func(get func(int) bool) bool { return get(s.pos) }
	}
	v := c.p.Vectors[k]
	switch v.Kind {
	case brasp.PositionwiseVector:
		return c.exprFn(v.Expr, nil)
	case brasp.AttentionVector:
		info := c.cur[k]
		if info == nil {
			panic(fmt.Sprintf("transformer: compiler reads %s before its head", v.Name))
		}
		a := v.Att
		atJ := func(vec int) boolFn {
			s := info.copies[vec]
			return func(get func(int) bool) bool { return get(s.pos) }
		}
		flag, score, value, def := info.flag, c.exprFn(a.Score, atJ), c.exprFn(a.Value, atJ), c.exprFn(a.Default, nil)
		return func(get func(int) bool) bool {
			attended := !get(flag.pos)
			s, val, d := score(get), value(get), def(get)
			if attended && s {
				return val
			}
			return d
		}
	}
	panic(fmt.Sprintf("transformer: vector %s has no slot", v.Name))
}

// exprFn compiles e; references at i read vecFn, references at j read atJ.
func (c *compiler) exprFn(e brasp.Expr, atJ func(vec int) boolFn) boolFn {
	switch e := e.(type) {
	case *brasp.Literal:
		v := e.Value
		return func(func(int) bool) bool { return v }
	case *brasp.Ref:
		if e.Var == brasp.VarJ {
			return atJ(e.Vec)
		}
		return c.vecFn(e.Vec)
	case *brasp.UnaryExpr:
		x := c.exprFn(e.X, atJ)
		return func(get func(int) bool) bool { return !x(get) }
	case *brasp.BinaryExpr:
		x, y := c.exprFn(e.X, atJ), c.exprFn(e.Y, atJ)
		if e.Op == brasp.AND {
			return func(get func(int) bool) bool { a, b := x(get), y(get); return a && b }
		}
		return func(get func(int) bool) bool { a, b := x(get), y(get); return a || b }
	}
	panic("transformer: unknown expression type")
}

// supportByUse returns the coordinates fn reads, most-read first (ties in
// first-read order): inputs shared by several subformulas (such as the
// query-side vectors of several heads' scores) come first, which keeps the
// Shannon expansion of emitLayer small.
func supportByUse(fn boolFn) []int {
	count := map[int]int{}
	var order []int
	fn(func(coord int) bool {
		if count[coord] == 0 {
			order = append(order, coord)
		}
		count[coord]++
		return false
	})
	sort.SliceStable(order, func(a, b int) bool { return count[order[a]] > count[order[b]] })
	return order
}

// support returns the coordinates fn reads, in first-read order.
func support(fn boolFn) []int {
	seen := map[int]bool{}
	var out []int
	fn(func(coord int) bool {
		if !seen[coord] {
			seen[coord] = true
			out = append(out, coord)
		}
		return false
	})
	return out
}

// exprFnFixed compiles e with the vectors in fixed (read at i) replaced by
// constants and references at j read through atJ.
func (c *compiler) exprFnFixed(e brasp.Expr, fixed map[int]bool, atJ func(int) boolFn) boolFn {
	e = brasp.MapRefs(e, func(r *brasp.Ref) brasp.Expr {
		if r.Var == brasp.VarI {
			return brasp.Bool(fixed[r.Vec])
		}
		return r
	})
	return c.exprFn(e, atJ)
}

// truthTable returns fn's truth table over its support, as a string of
// 0s and 1s indexed by assignment, and the support.
func (c *compiler) truthTable(fn boolFn, name string) (string, []int, error) {
	sup := support(fn)
	table, err := c.truthTableOver(fn, sup, name)
	return table, sup, err
}

// truthTableOver is truthTable with the inputs in the given order.
func (c *compiler) truthTableOver(fn boolFn, sup []int, name string) (string, error) {
	if int64(len(sup)) > c.maxFFN {
		return "", &budget.Error{Limit: maxFFNInputs, Value: c.maxFFN, Need: int64(len(sup)),
			What: fmt.Sprintf("%s (its truth table has 2^%d rows)", name, len(sup))}
	}
	idx := map[int]int{}
	for x, coord := range sup {
		idx[coord] = x
	}
	b := make([]byte, 1<<len(sup))
	for asg := range b {
		// The rows are the work: charged every 4,096 rows, so that a
		// cancelled budget stops even a 2^20-row table.
		if asg%4096 == 0 {
			if err := c.b.Step(min(4096, int64(len(b)))); err != nil {
				return "", err
			}
		}
		if fn(func(coord int) bool { return asg>>idx[coord]&1 == 1 }) {
			b[asg] = '1'
		} else {
			b[asg] = '0'
		}
	}
	return string(b), nil
}

// emitLayer appends a layer with the given heads whose FFN computes the
// targets (Lemma 4.1's FFN construction). Each target's truth table is
// split by Shannon expansion on its inputs in order, skipping inputs the
// remaining function does not depend on and stopping where it is constant;
// every 1-leaf (or, when fewer, every
// 0-leaf, subtracted from a constant 1) is a conjunction of literals and
// becomes one hidden unit ReLU(Σ_{x=1} x − Σ_{x=0} x − (#ones − 1)). The
// leaves are disjoint, so the units' sum is the function: this is the full
// DNF of Lemma 4.1 with the terms that differ only in irrelevant inputs
// merged.
func (c *compiler) emitLayer(heads []absHead, targets []target) error {
	layer := absLayer{heads: heads, bias: map[int]*big.Rat{}}
	for _, t := range targets {
		// Expand in two input orders and keep the smaller network.
		var leaves map[byte][][]int8
		var sup []int
		for _, order := range [][]int{support(t.fn), supportByUse(t.fn)} {
			table, err := c.truthTableOver(t.fn, order, t.name)
			if err != nil {
				return err
			}
			l := map[byte][][]int8{}
			splitTable(table, make([]int8, len(order)), 0, l)
			if leaves == nil || min(len(l['0']), len(l['1'])) < min(len(leaves['0']), len(leaves['1'])) {
				leaves, sup = l, order
			}
		}
		want, sign := byte('1'), int64(1)
		if len(leaves['0']) < len(leaves['1']) {
			want, sign = '0', -1
			layer.addBias(t.dst, 1)
		}
		for _, lits := range leaves[want] {
			u := unit{in: map[int]int64{}, out: map[int]*big.Rat{}}
			pos := int64(0)
			for x, v := range lits {
				switch v {
				case 1:
					u.in[sup[x]] = 1
					pos++
				case -1:
					u.in[sup[x]] = -1
				}
			}
			u.bias = 1 - pos
			u.out[t.dst.pos] = big.NewRat(sign, 1)
			if t.dst.neg >= 0 {
				u.out[t.dst.neg] = big.NewRat(-sign, 1)
			}
			layer.units = append(layer.units, u)
		}
	}
	c.layers = append(c.layers, layer)
	return nil
}

// splitTable records the leaves of the Shannon expansion of table (entry a
// is the value under assignment a, input x being bit x of a relative to
// depth x): lits[x] is 1 or -1 for inputs fixed on the path, 0 otherwise.
func splitTable(table string, lits []int8, x int, leaves map[byte][][]int8) {
	if strings.Count(table, table[:1]) == len(table) {
		leaves[table[0]] = append(leaves[table[0]], append([]int8(nil), lits...))
		return
	}
	var zero, one strings.Builder
	for a := 0; a < len(table); a += 2 {
		zero.WriteByte(table[a])
		one.WriteByte(table[a+1])
	}
	if zero.String() == one.String() { // the function does not depend on input x here
		splitTable(zero.String(), lits, x+1, leaves)
		return
	}
	lits[x] = -1
	splitTable(zero.String(), lits, x+1, leaves)
	lits[x] = 1
	splitTable(one.String(), lits, x+1, leaves)
	lits[x] = 0
}

func (l *absLayer) addBias(s slot, v int64) {
	add := func(coord int, x int64) {
		if l.bias[coord] == nil {
			l.bias[coord] = new(big.Rat)
		}
		l.bias[coord].Add(l.bias[coord], big.NewRat(x, 1))
	}
	add(s.pos, v)
	if s.neg >= 0 {
		add(s.neg, -v)
	}
}
