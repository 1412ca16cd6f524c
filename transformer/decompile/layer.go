package decompile

import (
	"fmt"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/transformer"
)

// classes interns vectors.
type classes struct {
	vecs  []transformer.Vec
	index map[string]int
	b     *budget.Budget
	layer int
}

// intern interns the vector x of level l: projected on its live
// coordinates, or by its frozen key (keeping x itself as the representative
// of its class).
func (d *decompiler) intern(c *classes, x transformer.Vec, l int) (int, error) {
	if d.frozen != nil {
		return c.internKey(frozenKey(x, d.frozen[l]), x)
	}
	x = project(x, d.live[l])
	return c.internKey(x.Key(), x)
}

func (c *classes) internKey(k string, v transformer.Vec) (int, error) {
	if id, ok := c.index[k]; ok {
		return id, nil
	}
	what := fmt.Sprintf("decompile: the set of reachable activation vectors after layer %d", c.layer)
	if c.layer == 0 {
		what = "decompile: the set of reachable embedding vectors"
	}
	if err := c.b.Check(maxClasses, int64(len(c.vecs)+1), what); err != nil {
		return 0, err
	}
	c.index[k] = len(c.vecs)
	c.vecs = append(c.vecs, v)
	return len(c.vecs) - 1, nil
}

// layer enumerates layer l's reachable outputs and defines its features.
func (d *decompiler) layer(l int, lv *level) (*level, error) {
	layer := &d.m.Layers[l]
	K := len(lv.vecs)
	H := len(layer.Heads)
	heads := make([]*headInfo, H)
	var scoreCounts []int
	for h := range layer.Heads {
		hi, err := d.newHead(l, h, &layer.Heads[h], lv)
		if err != nil {
			return nil, err
		}
		heads[h] = hi
		scoreCounts = append(scoreCounts, len(hi.values))
	}
	d.info.Scores = append(d.info.Scores, scoreCounts)
	// Combinations (a, g_1..g_H): own class and attended key group of each
	// head (-1 when nothing is unmasked).
	next := &classes{index: map[string]int{}, b: d.b, layer: l + 1}
	cache := map[string]int{}
	var combos [][]int
	var cls []int
	choice := make([]int, H)
	attended := make([]transformer.Vec, 0, H)
	var rec func(a, h int) error
	rec = func(a, h int) error {
		if h == H {
			if err := d.b.Check(maxCombos, int64(len(combos)+1), fmt.Sprintf("decompile: the set of (vector, attended vectors) combinations of layer %d", l+1)); err != nil {
				return err
			}
			attended = attended[:0]
			for h2, g := range choice {
				if g >= 0 {
					attended = append(attended, heads[h2].val[g])
				}
			}
			c := transformer.Residual(lv.vecs[a], attended...)
			key := c.Key()
			id, ok := cache[key]
			if !ok {
				y := d.ar.FinishLayer(layer, c)
				if err := d.work(); err != nil {
					return err
				}
				var err error
				if id, err = d.intern(next, y, l+1); err != nil {
					return err
				}
				cache[key] = id
			}
			combos = append(combos, append([]int{a}, choice...))
			cls = append(cls, id)
			return nil
		}
		for _, g := range possible(heads[h], a) {
			choice[h] = g
			if err := rec(a, h+1); err != nil {
				return err
			}
		}
		return nil
	}
	for a := range K {
		if err := rec(a, 0); err != nil {
			return nil, err
		}
	}
	d.info.Combos = append(d.info.Combos, len(combos))
	d.info.Classes = append(d.info.Classes, len(next.vecs))
	// Domain points: own features, then per head: "some position is
	// unmasked" and the attended vector's features (those its key group
	// determines; the others are left false and never used).
	F := len(lv.feats)
	if err := d.b.Check(maxWork, int64(len(combos))*int64(F*(H+1)+H), fmt.Sprintf("decompile: the truth table of layer %d", l+1)); err != nil {
		return nil, err
	}
	points := make([][]bool, len(combos))
	for p, co := range combos {
		row := make([]bool, 0, F+H*(F+1))
		row = append(row, featureRow(lv.feats, co[0])...)
		for h, hi := range heads {
			g := co[h+1]
			row = append(row, g >= 0)
			for k := range lv.feats {
				f := &lv.feats[k]
				row = append(row, g >= 0 && f.readBy(hi.kCoords) && f.col[hi.kRep[g]])
			}
		}
		points[p] = row
	}
	varExpr := func(v int) brasp.Expr {
		if v < F {
			return ref(lv.feats[v].node, brasp.VarI)
		}
		v -= F
		h, k := v/(F+1), v%(F+1)
		if k == 0 {
			return d.anyExpr(heads[h].hd.Mask)
		}
		f := &lv.feats[k-1]
		return ref(d.attended(l, h, heads[h], f.node, f.name, f.coord), brasp.VarI)
	}
	nl := &level{vecs: next.vecs}
	d.defineFeatures(nl, l+1, points, cls, varExpr)
	return nl, nil
}
