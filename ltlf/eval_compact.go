package ltlf

import (
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/internal/bitwise"
)

// maxEvalBytes bounds the truth rows EvalCompact holds at once.
var maxEvalBytes = budget.Define("ltlf-eval-bytes", 512<<20, "bytes",
	"truth rows of an LTLf formula evaluated on a trace, held at once (a bit per step per live subformula)")

// EvalCompact is Eval on a non-empty compactly stored trace, within b: the
// same truth table, one bit per step, computed node by node, each node's
// row freed once the last node reading it is computed. A chain such as
// X[16384] a then holds two rows whatever its length, and a long trace
// costs a bit per step per live row besides its indices. The rows held are
// charged to ltlf-eval-bytes, the work (a unit per 64 steps of a Boolean or
// next node, one per step of the other temporal nodes) to the budget's
// work.
func (f *Formula) EvalCompact(b *budget.Budget, t *CompactTrace) (bool, error) {
	n := t.Len()
	if n == 0 {
		return f.EmptyTrace && f.EvalEmpty(), nil
	}
	nw := (n + 63) / 64
	tail := ^uint64(0)
	if n%64 != 0 {
		tail = 1<<(uint(n)%64) - 1
	}
	// last[k]: the last node reading node k (the root is read at the end).
	reach := f.reachable()
	last := make([]int32, len(f.Nodes))
	for k, nd := range f.Nodes {
		if !reach[k] {
			continue
		}
		if nd.Op.Arity() >= 1 {
			last[nd.A] = int32(k)
		}
		if nd.Op.Arity() == 2 {
			last[nd.B] = int32(k)
		}
	}
	last[f.Root] = int32(len(f.Nodes))
	mem := b.Meter(maxEvalBytes, "the truth rows of the LTLf formula on the trace")
	rows := make([][]uint64, len(f.Nodes))
	var free [][]uint64
	row := func() ([]uint64, error) {
		if k := len(free); k > 0 {
			r := free[k-1]
			free = free[:k-1]
			clear(r)
			return r, nil
		}
		if err := mem.Add(int64(8 * nw)); err != nil {
			return nil, err
		}
		return make([]uint64, nw), nil
	}
	for k, nd := range f.Nodes {
		if !reach[k] {
			continue
		}
		out, err := row()
		if err != nil {
			return false, err
		}
		var a, c []uint64
		if nd.Op.Arity() >= 1 {
			a = rows[nd.A]
		}
		if nd.Op.Arity() == 2 {
			c = rows[nd.B]
		}
		work := int64(nw)
		switch nd.Op {
		case True:
			for w := range out {
				out[w] = ^uint64(0)
			}
		case False:
		case Prop:
			p := int(nd.A)
			has := make([]bool, len(t.Steps))
			for s, step := range t.Steps {
				has[s] = step.Has(p)
			}
			for i := range n {
				if has[t.index(i)] {
					out[i>>6] |= 1 << (uint(i) & 63)
				}
			}
			work = int64(n)
		case Not, And, Or, Implies, Equiv, Xor:
			bitwise.Apply(bitOps[nd.Op], out, a, c)
		case Next, WeakNext:
			// out[i] = a[i+1]; past the end: whether the next is weak.
			bitwise.ShiftDown(out, a)
			setBit(out, n-1, nd.Op == WeakNext)
		case Yesterday, WeakYesterday:
			// out[i] = a[i-1]; before the start: whether it is weak.
			bitwise.ShiftUp(out, a)
			setBit(out, 0, nd.Op == WeakYesterday)
		case Finally, Globally, Until, Release, WeakUntil, StrongRelease:
			if c == nil {
				c = a
			}
			later := nd.Op == Globally || nd.Op == Release || nd.Op == WeakUntil
			for i := n - 1; i >= 0; i-- {
				x, y := getBit(a, i), getBit(c, i)
				cur := recur(nd.Op, x, y, later)
				setBit(out, i, cur)
				later = cur
			}
			work = int64(n)
		case Once, Historically, Since:
			if c == nil {
				c = a
			}
			earlier := nd.Op == Historically
			for i := range n {
				x, y := getBit(a, i), getBit(c, i)
				cur := recur(nd.Op, x, y, earlier)
				setBit(out, i, cur)
				earlier = cur
			}
			work = int64(n)
		default:
			panic("ltlf: unknown operator " + nd.Op.String())
		}
		out[nw-1] &= tail
		rows[k] = out
		ops := [2]int32{nd.A, nd.B}
		for _, o := range ops[:nd.Op.Arity()] {
			if last[o] == int32(k) && rows[o] != nil {
				free = append(free, rows[o])
				rows[o] = nil
			}
		}
		if err := b.Step(work); err != nil {
			return false, err
		}
	}
	return getBit(rows[f.Root], 0), nil
}

func getBit(r []uint64, i int) bool { return r[i>>6]>>(uint(i)&63)&1 == 1 }

func setBit(r []uint64, i int, v bool) {
	if v {
		r[i>>6] |= 1 << (uint(i) & 63)
	} else {
		r[i>>6] &^= 1 << (uint(i) & 63)
	}
}

// bitOps are the Boolean operators as bit-parallel connectives.
var bitOps = map[Op]bitwise.Op{Not: bitwise.Not, And: bitwise.And, Or: bitwise.Or, Implies: bitwise.Implies, Equiv: bitwise.Iff, Xor: bitwise.Xor}
