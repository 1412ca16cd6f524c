package symbolic

import (
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/bdd"
	"github.com/brasp-dev/brasp/budget"
)

// Minimize returns the minimal automaton of d's language, its states
// numbered breadth-first from the start (successors in diagram order), so
// equal languages over the same propositions give the same numbering. It
// shares d's manager: class leaves are leaves of d.
//
// Moore's refinement: a state's signature is its class and its diagram
// with every leaf replaced by the representative leaf of the leaf state's
// class (one rebuild per diagram node per round, shared between states).
// Diagrams are canonical, so equal signatures are equal nodes. The rounds
// stop when no class splits.
//
// What it holds beyond d's manager (per state: its class, signature and
// leaf; per diagram node: the rebuild memo; per class: the signature table
// and the result) is charged to the budget's minimize-bytes limit, the new
// diagram nodes to bdd-bytes, and every state and rebuilt node to b.Step,
// so a cancelled budget stops it within a few thousand nodes.
func Minimize(b *budget.Budget, d *DFA) (*DFA, error) {
	n := d.NumStates()
	m := d.M
	k := len(d.Props)
	meter := b.Meter(automata.MinimizeBytes, "minimisation of a symbolic automaton")
	// leafOf, class, next, sigs, and stateOf's and the memo's slots for
	// every node of the manager.
	memoNodes := int64(m.NumNodes())
	if err := meter.Add(int64(n)*(4+8+8+4) + 2*nodeMapBytes*memoNodes); err != nil {
		return nil, err
	}
	leafOf := make([]bdd.Node, n)
	var stateOf bdd.NodeMap[int32]
	for x, q := range d.Leaf {
		leafOf[q] = x
		stateOf.Set(x, int32(q))
	}
	class := make([]int, n)
	classes := 1
	for q := range n {
		if d.Accept[q] != d.Accept[0] {
			class[q] = 1
			classes = 2
		}
	}
	var sigs []bdd.Node
	var memo bdd.NodeMap[bdd.Node]
	var idsBytes int64 // the largest signature table so far
	for {
		// The representative leaf of each class: its first state's.
		repLeaf := make([]bdd.Node, classes)
		for i := range repLeaf {
			repLeaf[i] = -1
		}
		for q := range n {
			if repLeaf[class[q]] < 0 {
				repLeaf[class[q]] = leafOf[q]
			}
		}
		memo.Clear()
		// A rebuild charges each node it makes to the budget's work; once
		// that fails the rest of the round is skipped.
		var stepErr error
		var rebuild func(bdd.Node) bdd.Node
		rebuild = func(x bdd.Node) bdd.Node {
			if m.Level(x) >= k {
				q, _ := stateOf.Get(x)
				return repLeaf[class[q]]
			}
			if r, ok := memo.Get(x); ok {
				return r
			}
			if stepErr != nil {
				return x
			}
			r := m.Mk(m.Level(x), rebuild(m.Low(x)), rebuild(m.High(x)))
			memo.Set(x, r)
			if stepErr == nil {
				stepErr = b.Step(1)
			}
			return r
		}
		var ids pairTable // (class, signature) → new class
		ids.reserve(min(n, 2*classes))
		next := make([]int, n)
		sigs = make([]bdd.Node, n)
		for q := range n {
			sigs[q] = rebuild(d.Next[q])
			if stepErr == nil {
				stepErr = b.Step(1)
			}
			if stepErr != nil {
				return nil, stepErr
			}
			id, ok := ids.get(bdd.Node(class[q]), sigs[q])
			if !ok {
				id = bdd.Node(ids.n)
				ids.put(bdd.Node(class[q]), sigs[q], id)
			}
			next[q] = int(id)
		}
		if err := m.Err(); err != nil {
			return nil, err
		}
		// The memo's slots for the nodes this round made; the signature
		// table's slots.
		grown := int64(m.NumNodes()) - memoNodes
		memoNodes += grown
		if err := meter.Add(2*nodeMapBytes*grown + ids.bytes() - idsBytes); err != nil {
			return nil, err
		}
		idsBytes = max(idsBytes, ids.bytes())
		split := ids.n != classes
		if !split {
			// sigs use the leaves of the final classes: keep class numbers.
			break
		}
		class = next
		classes = ids.n
	}
	// Number the classes breadth-first from the start; each class's leaf
	// is its representative leaf, its diagram the signature of any member.
	repState := make([]int, classes)
	for i := range repState {
		repState[i] = -1
	}
	for q := range n {
		if repState[class[q]] < 0 {
			repState[class[q]] = q
		}
	}
	// num, repState, the result's Next, Accept and Leaf, and leafClass.
	if err := meter.Add(int64(classes) * (8 + 8 + 4 + 1 + 2*mapEntryBytes)); err != nil {
		return nil, err
	}
	num := make([]int, classes)
	for i := range num {
		num[i] = -1
	}
	leafClass := make(map[bdd.Node]int, classes)
	for c, q := range repState {
		leafClass[leafOf[q]] = c
	}
	out := &DFA{Props: d.Props, M: m, Leaf: map[bdd.Node]int{}}
	// The diagrams are walked depth-first, low children first, in the
	// order the classes are numbered, each node once over all of them: a
	// node met in an earlier walk has had all its leaves' classes numbered
	// then, so skipping it changes no number (and the walks cost the
	// distinct nodes, not the sum of the diagrams' sizes).
	var seen bdd.Marks
	var stepErr error
	order := []int{class[d.Start]}
	num[class[d.Start]] = 0
	var walk func(x bdd.Node)
	walk = func(x bdd.Node) {
		if !seen.Add(x) || stepErr != nil {
			return
		}
		stepErr = b.Step(1)
		if m.Level(x) >= k {
			if sc := leafClass[x]; num[sc] < 0 {
				num[sc] = len(order)
				order = append(order, sc)
			}
			return
		}
		walk(m.Low(x))
		walk(m.High(x))
	}
	for i := 0; i < len(order); i++ {
		c := order[i]
		q := repState[c]
		out.Next = append(out.Next, sigs[q])
		out.Accept = append(out.Accept, d.Accept[q])
		out.Leaf[leafOf[q]] = i
		walk(sigs[q])
		if stepErr != nil {
			return nil, stepErr
		}
	}
	out.Start = 0
	return out, m.Err()
}

// leaves lists the leaves of the diagram x (nodes testing none of the
// first k variables) in depth-first order, low children first.
func leaves(m *bdd.Manager, k int, x bdd.Node, seen *bdd.Marks) []bdd.Node {
	var out []bdd.Node
	seen.Clear()
	var walk func(bdd.Node)
	walk = func(x bdd.Node) {
		if !seen.Add(x) {
			return
		}
		if m.Level(x) >= k {
			out = append(out, x)
			return
		}
		walk(m.Low(x))
		walk(m.High(x))
	}
	walk(x)
	return out
}

// Byte estimates of Minimize's and Product's tables.
const (
	nodeMapBytes  = 4 + 4 // a bdd.NodeMap slot of a 4-byte value: its stamp and value
	mapEntryBytes = 40    // a Go map entry of small key and value, with its share of empty slots
)
