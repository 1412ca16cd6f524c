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
// Partition refinement in Hopcroft's manner, on signatures: a state's
// signature is its diagram with every leaf replaced by a terminal naming
// the leaf state's class (diagrams are canonical, so equal signatures are
// equal nodes), and every member of a class has the class's signature.
// Initially the classes are the accepting and the rejecting states. When
// some members of a class get another signature, the class splits: the
// largest part keeps the class and the others move to new classes, and
// only the predecessors of the states that moved have their signatures
// computed again. A state moves only into a part at most half its class's
// size, so it moves O(log n) times, and the work is O(edges · log n)
// rebuilds of one diagram at most (a round rebuilds each distinct node of
// its dirty diagrams once, and finds predecessors through the diagrams'
// shared nodes: parentGraph), never a round over every state per class split
// (Moore's rounds take one round per step of the longest distinguishing
// word: X[32768] a has 32,770 states and as many rounds).
//
// What it holds beyond d's manager (per state: its class, position,
// signature and leaf; per diagram node: the rebuild memo and its parents; per
// class: its members and signature, and the result) is charged to the
// budget's minimize-bytes limit, the new diagram nodes to bdd-bytes, and
// every rebuilt node and every state examined to b.Step, so a cancelled
// budget stops it within a few thousand nodes.
func Minimize(b *budget.Budget, d *DFA) (*DFA, error) {
	n := d.NumStates()
	m := d.M
	k := len(d.Props)
	meter := b.Meter(automata.MinimizeBytes, "minimisation of a symbolic automaton")
	memoNodes := int64(m.NumNodes())
	// leafOf, class, pos, sig, dirty, members; the memo's
	// slots for every node of the manager.
	if err := meter.Add(int64(n)*(4+4+4+4+1+4+24) + 2*nodeMapBytes*memoNodes); err != nil {
		return nil, err
	}
	leafOf := make([]bdd.Node, n)
	var stateOf bdd.NodeMap[int32]
	for x, q := range d.Leaf {
		leafOf[q] = x
		stateOf.Set(x, int32(q))
	}
	// The predecessors of a state are the states whose diagram has its
	// leaf. They are found through the diagrams' nodes, not listed per
	// state: every node the diagrams share is numbered once, with its
	// parents and the states whose diagram it roots, so that marking the
	// predecessors of the states that moved walks up from their leaves
	// through distinct nodes. (A list per state holds every edge: the
	// 65,536 states of F p1 ∧ … ∧ F p16 have 3^16 edges, 43 million, on
	// 2^19 nodes.)
	g, err := newParentGraph(b, meter, d)
	if err != nil {
		return nil, err
	}
	// The classes: each state's class and position in its class's
	// members; each class's members and signature (-1: not yet known).
	class := make([]int32, n)
	pos := make([]int32, n)
	var members [][]int32
	var classSig []bdd.Node
	newClass := func() int32 {
		members = append(members, nil)
		classSig = append(classSig, -1)
		return int32(len(members) - 1)
	}
	newClass()
	for q := range n {
		c := int32(0)
		if d.Accept[q] != d.Accept[0] {
			if len(members) == 1 {
				newClass()
			}
			c = 1
		}
		class[q], pos[q] = c, int32(len(members[c]))
		members[c] = append(members[c], int32(q))
	}
	move := func(q, to int32) { // (charged by the caller)
		from := class[q]
		list := members[from]
		last := list[len(list)-1]
		list[pos[q]], pos[last] = last, pos[q]
		members[from] = list[:len(list)-1]
		class[q], pos[q] = to, int32(len(members[to]))
		members[to] = append(members[to], q)
	}
	// rebuildWith rebuilds a diagram with each leaf replaced by a leaf of
	// its class: leaf(c) for class c. The memo holds while the classes and
	// leaf do not change, so it is cleared once per round, not per state:
	// a round then costs the distinct nodes of its dirty diagrams, which
	// share most of their nodes (F p1 ∧ … ∧ F p16: 65,536 diagrams of 3^16
	// nodes in all, but 2^19 distinct ones).
	var memo bdd.NodeMap[bdd.Node]
	var stepErr error
	rebuildWith := func(x bdd.Node, leaf func(c int32) bdd.Node) bdd.Node {
		var rebuild func(bdd.Node) bdd.Node
		rebuild = func(x bdd.Node) bdd.Node {
			if m.Level(x) >= k {
				q, _ := stateOf.Get(x)
				return leaf(class[q])
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
		return rebuild(x)
	}
	classLeaf := func(c int32) bdd.Node { return m.Terminal(n + int(c)) }
	sig := make([]bdd.Node, n)
	isDirty := make([]bool, n)
	dirty := make([]int32, n)
	for q := range dirty {
		dirty[q], isDirty[q] = int32(q), true
	}
	var touched []int32
	isTouched := map[int32]bool{}
	type groupKey struct {
		class int32
		sig   bdd.Node
	}
	groups := map[groupKey]int{}     // a signature's part among its class's
	partsOf := map[int32][][]int32{} // the parts of each class that leave it
	for len(dirty) > 0 {
		memo.Clear()
		for _, q := range dirty {
			sig[q] = rebuildWith(d.Next[q], classLeaf)
			isDirty[q] = false
			if stepErr != nil {
				return nil, stepErr
			}
			if c := class[q]; !isTouched[c] {
				isTouched[c] = true
				touched = append(touched, c)
			}
		}
		for _, q := range dirty {
			c := class[q]
			if classSig[c] < 0 {
				classSig[c] = sig[q]
			}
			if sig[q] != classSig[c] {
				key := groupKey{c, sig[q]}
				i, ok := groups[key]
				if !ok {
					i = len(partsOf[c])
					groups[key] = i
					partsOf[c] = append(partsOf[c], nil)
				}
				partsOf[c][i] = append(partsOf[c][i], q)
			}
		}
		dirty = dirty[:0]
		var moved []int32
		for _, c := range touched {
			delete(isTouched, c)
			// The parts of c: its members with the class signature (stay)
			// and each group of other signatures among the dirty ones.
			parts := partsOf[c]
			out := 0
			for _, g := range parts {
				out += len(g)
			}
			if len(parts) == 0 {
				continue
			}
			stay := len(members[c]) - out
			largest := -1 // -1: the members that stay
			for i, g := range parts {
				if largest < 0 && len(g) > stay || largest >= 0 && len(g) > len(parts[largest]) {
					largest = i
				}
			}
			if largest >= 0 {
				// The largest group keeps c; the members that stay move.
				stayers := make([]int32, 0, stay)
				for _, q := range members[c] {
					if sig[q] == classSig[c] {
						stayers = append(stayers, q)
					}
					if err := b.Step(1); err != nil {
						return nil, err
					}
				}
				if len(stayers) > 0 {
					nc := newClass()
					classSig[nc] = classSig[c]
					for _, q := range stayers {
						move(q, nc)
						moved = append(moved, q)
					}
				}
				classSig[c] = sig[parts[largest][0]]
			}
			for i, g := range parts {
				if i == largest {
					continue
				}
				nc := newClass()
				classSig[nc] = sig[g[0]]
				for _, q := range g {
					move(q, nc)
					moved = append(moved, q)
					if err := b.Step(1); err != nil {
						return nil, err
					}
				}
			}
		}
		touched = touched[:0]
		clear(groups)
		clear(partsOf)
		g.predecessors(moved, leafOf, func(q int32) {
			if !isDirty[q] {
				isDirty[q] = true
				dirty = append(dirty, q)
			}
		})
		if err := m.Err(); err != nil {
			return nil, err
		}
		// The memo's slots for the nodes made; the class tables.
		grown := int64(m.NumNodes()) - memoNodes
		memoNodes += grown
		if err := meter.Add(2*nodeMapBytes*grown + 24*int64(len(moved))); err != nil {
			return nil, err
		}
	}
	classes := len(members)
	// Each class's representative is its least state; its leaf is the
	// class's leaf and its diagram, with the representatives' leaves, the
	// class's diagram.
	repState := make([]int, classes)
	for c := range repState {
		repState[c] = -1
	}
	for q := range n {
		if repState[class[q]] < 0 {
			repState[class[q]] = q
		}
	}
	sigs := make([]bdd.Node, n)
	memo.Clear()
	for c := range classes {
		q := repState[c]
		sigs[q] = rebuildWith(d.Next[q], func(c int32) bdd.Node { return leafOf[repState[c]] })
		if stepErr != nil {
			return nil, stepErr
		}
	}
	if err := m.Err(); err != nil {
		return nil, err
	}
	var seen bdd.Marks
	// Number the classes breadth-first from the start; each class's leaf
	// is its representative leaf.
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
	seen.Clear()
	order := []int{int(class[d.Start])}
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
