package compile

import (
	"fmt"
	"strings"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/position"
)

// The heads: one attention operation becomes one head whose score is the
// i part times the j part of its score predicate (Thm 4.1) and whose value
// copies what the score and value read at j.

// prepareHead builds the head of attention operation k and the targets
// (queries α_g and keys β_g) the preceding FFN must compute.
func (c *compiler) prepareHead(k int) (absHead, *headInfo, []target, error) {
	v := c.p.Vectors[k]
	a := v.Att
	head := absHead{mask: a.Mask, tiebreak: a.Tiebreak}
	switch a.Mask {
	case position.MaskNone:
		head.mask = position.MaskNone
	case position.MaskFuture:
		head.mask = position.MaskFuture
	case position.MaskPast:
		head.mask = position.MaskPast
	case position.MaskFutureOrSelf:
		head.mask = position.MaskFutureOrSelf
	case position.MaskPastOrSelf:
		head.mask = position.MaskPastOrSelf
	}
	head.tiebreak = position.Leftmost
	if a.Tiebreak == position.Rightmost {
		head.tiebreak = position.Rightmost
	}
	info := &headInfo{copies: map[int]slot{}}
	// The i part and the j part of the score.
	var iVecs []int
	seenI := map[int]bool{}
	for _, r := range brasp.Refs(a.Score) {
		if r.Var == brasp.VarI && !seenI[r.Vec] {
			seenI[r.Vec] = true
			iVecs = append(iVecs, r.Vec)
		}
	}
	if int64(len(iVecs)) > c.maxFFN {
		return head, nil, nil, &budget.Error{Limit: maxFFNInputs, Value: c.maxFFN, Need: int64(len(iVecs)),
			What: fmt.Sprintf("%s: the score's part at i", v.Name)}
	}
	var targets []target
	type group struct {
		assignments []uint64
		beta        boolFn
	}
	var groups []*group
	byTable := map[string]*group{}
	jFn := func(vec int) boolFn { return c.vecFn(vec) } // β is computed at position j itself
	for asg := uint64(0); asg < 1<<len(iVecs); asg++ {
		fixed := map[int]bool{}
		for x, vec := range iVecs {
			fixed[vec] = asg>>x&1 == 1
		}
		beta := c.exprFnFixed(a.Score, fixed, jFn)
		table, sup, err := c.truthTable(beta, v.Name+".key")
		if err != nil {
			return head, nil, nil, err
		}
		if !strings.Contains(table, "1") {
			continue // S(a, j) is false for every j: no term
		}
		key := fmt.Sprint(sup) + table
		g := byTable[key]
		if g == nil {
			g = &group{beta: beta}
			byTable[key] = g
			groups = append(groups, g)
		}
		g.assignments = append(g.assignments, asg)
	}
	for x, g := range groups {
		suffix := ""
		if len(groups) > 1 {
			suffix = fmt.Sprintf("[%d]", x)
		}
		q := c.one
		if len(g.assignments) < 1<<len(iVecs) {
			q = c.newSlot(v.Name + ".query" + suffix)
			var ins []boolFn
			for _, vec := range iVecs {
				ins = append(ins, c.vecFn(vec))
			}
			asgs := g.assignments
			targets = append(targets, target{q, func(get func(int) bool) bool {
				var cur uint64
				for x, f := range ins {
					if f(get) {
						cur |= 1 << x
					}
				}
				for _, a := range asgs {
					if a == cur {
						return true
					}
				}
				return false
			}, v.Name + ".query" + suffix})
		}
		key := c.one
		if table, _, _ := c.truthTable(g.beta, ""); strings.Contains(table, "0") {
			key = c.newSlot(v.Name + ".key" + suffix)
			targets = append(targets, target{key, g.beta, v.Name + ".key" + suffix})
		}
		head.score = append(head.score, [2]int{q.pos, key.pos})
	}
	// The value: the default flag and copies of what S and V read at j.
	info.flag = c.newSlot(v.Name + ".default_flag")
	c.initTrue[info.flag.pos] = true
	head.value = append(head.value, valueEntry{info.flag.pos, c.one.pos, -1})
	if info.flag.neg >= 0 {
		head.value = append(head.value, valueEntry{info.flag.neg, c.one.pos, 1})
	}
	for _, e := range []brasp.Expr{a.Score, a.Value} {
		for _, r := range brasp.Refs(e) {
			if r.Var != brasp.VarJ {
				continue
			}
			if _, ok := info.copies[r.Vec]; ok {
				continue
			}
			src, ok := c.avail[r.Vec]
			if !ok {
				src, ok = c.pending[r.Vec]
			}
			if !ok {
				return head, nil, nil, fmt.Errorf("internal error: %s reads %s at j before it has a slot", v.Name, r.Name)
			}
			dst := c.newSlot(v.Name + ".value." + r.Name)
			info.copies[r.Vec] = dst
			head.value = append(head.value, valueEntry{dst.pos, src.pos, 1})
			if dst.neg >= 0 {
				head.value = append(head.value, valueEntry{dst.neg, src.pos, -1})
			}
		}
	}
	return head, info, targets, nil
}
