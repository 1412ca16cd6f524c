package symbolic

import (
	"fmt"
	"slices"

	"github.com/brasp-dev/brasp/bdd"
	"github.com/brasp-dev/brasp/budget"
)

// maxProductBytes bounds the memory of a product: its decision diagrams,
// the tuple index and list, the walk's memo, and the result's tables. The
// largest products of the public LTLf corpus that MONA also builds need
// about 91 MB (random conjunctions of 28 propositions, 65,536 states).
var maxProductBytes = budget.Define("symbolic-product-bytes", 256<<20, "bytes",
	"memory of a product of symbolic automata (LTLf connectives) before minimisation: diagrams, tuple index, memo")

// tupleBytes is what one state of a product holds outside its diagram: its
// tuple in the list and as the index's key and value, and its Next, Accept
// and Leaf entries in the result.
const tupleBytes = 8 + mapEntryBytes + 4 + 1 + mapEntryBytes

// Product returns the automaton of the Boolean combination op of the
// languages of ds (one or two automata over the same propositions, in
// any managers), built in a new manager over the propositions alone: its
// states are the tuples of states reached by non-empty traces, plus a fresh
// rejecting start (the empty trace is no trace, whatever op says of it).
// Each tuple's diagram is the diagrams of its members walked together,
// their leaf tuples becoming terminals. The result is not minimised.
//
// Its memory (the new manager's nodes and caches, the tuples, the memo) is
// charged to the budget's symbolic-product-bytes limit as it grows, and the
// work of each tuple's walk to b.Step.
func Product(b *budget.Budget, ds []*DFA, op func([]bool) bool) (*DFA, error) {
	k := len(ds[0].Props)
	for _, d := range ds[1:] {
		if !slices.Equal(d.Props, ds[0].Props) {
			return nil, fmt.Errorf("product of automata over different propositions")
		}
	}
	m := bdd.New(b, k)
	out := &DFA{Props: ds[0].Props, M: m, Leaf: map[bdd.Node]int{}}
	if len(ds) > 2 {
		return nil, fmt.Errorf("product of %d automata (one or two)", len(ds))
	}
	// A tuple is one or two states; with one operand the second is -1 (a
	// missing diagram, a leaf at every level).
	index := map[[2]int32]int{}
	var tuples [][2]int32
	meter := b.Meter(maxProductBytes, "product of symbolic automata")
	state := func(t [2]int32) bdd.Node {
		q, ok := index[t]
		if !ok {
			q = len(tuples)
			index[t] = q
			tuples = append(tuples, t)
		}
		return m.Terminal(q + 1) // terminal 0 is the start's
	}
	// charged is what the meter holds of the tuples, the memo and the
	// manager; charge adds what they grew by since.
	var charged struct{ tuples, memo, diagrams int64 }
	var memo pairTable
	charge := func() error {
		t, mm, dg := int64(len(tuples))*tupleBytes, memo.bytes(), m.Bytes()
		err := meter.Add(t - charged.tuples + mm - charged.memo + dg - charged.diagrams)
		charged.tuples, charged.memo, charged.diagrams = t, mm, dg
		return err
	}
	da := ds[0]
	db := da
	if len(ds) > 1 {
		db = ds[1]
	}
	level := func(d *DFA, u bdd.Node) int {
		if u < 0 {
			return k
		}
		return min(d.M.Level(u), k)
	}
	// The walk charges each pair it memoises to the budget's work; once
	// that fails, the rest of the walk is skipped.
	var stepErr error
	var walk func(u, v bdd.Node) bdd.Node
	walk = func(u, v bdd.Node) bdd.Node {
		if r, ok := memo.get(u, v); ok {
			return r
		}
		if stepErr != nil {
			return bdd.False
		}
		lu, lv := level(da, u), level(db, v)
		l := min(lu, lv)
		var r bdd.Node
		if l == k {
			t := [2]int32{int32(da.Leaf[u]), -1}
			if v >= 0 {
				t[1] = int32(db.Leaf[v])
			}
			r = state(t)
		} else {
			ulo, uhi, vlo, vhi := u, u, v, v
			if lu == l {
				ulo, uhi = da.M.Low(u), da.M.High(u)
			}
			if lv == l {
				vlo, vhi = db.M.Low(v), db.M.High(v)
			}
			r = m.Mk(l, walk(ulo, vlo), walk(uhi, vhi))
		}
		memo.put(u, v, r)
		if stepErr == nil {
			stepErr = b.Step(1)
		}
		if stepErr == nil && memo.n%1024 == 0 {
			// One tuple's walk can reach millions of tuples (the start
			// of F p1 ∧ … ∧ F p24 reaches every one): the meter is
			// charged within the walk, not only after it.
			stepErr = charge()
		}
		return r
	}
	roots := func(t [2]int32) (bdd.Node, bdd.Node) {
		v := bdd.Node(-1)
		if t[1] >= 0 {
			v = db.Next[t[1]]
		}
		return da.Next[t[0]], v
	}
	starts := [2]int32{int32(da.Start), -1}
	if len(ds) > 1 {
		starts[1] = int32(db.Start)
	}
	out.Next = append(out.Next, walk(roots(starts)))
	if stepErr != nil {
		return nil, stepErr
	}
	out.Accept = append(out.Accept, false)
	out.Leaf[m.Terminal(0)] = 0
	vals := make([]bool, len(ds))
	for q := 0; q < len(tuples); q++ {
		t := tuples[q]
		for i, d := range ds {
			vals[i] = d.Accept[t[i]]
		}
		out.Accept = append(out.Accept, op(vals))
		out.Leaf[m.Terminal(q+1)] = q + 1
		out.Next = append(out.Next, walk(roots(t)))
		if stepErr != nil {
			return nil, stepErr
		}
		if err := charge(); err != nil {
			return nil, err
		}
		if err := m.Err(); err != nil {
			return nil, err
		}
	}
	return out, m.Err()
}
