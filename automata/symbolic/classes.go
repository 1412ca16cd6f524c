package symbolic

import (
	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/bdd"
	"github.com/brasp-dev/brasp/budget"
)

// LetterClasses writes d as a letter automaton over its letter classes:
// two valuations are in one class when every state moves to the same
// successor on both, so a class acts on the states as each of its
// valuations does, and the letter automaton has the same transition monoid
// and the same syntactic morphism images as d. Properties of the language
// that depend on the letters only through their action — star-freeness
// (aperiodicity), stutter invariance, membership in AC0 — are therefore
// decided on it exactly, with witnesses whose letters are real valuations.
// Letter c is the class of the valuation reps[c] (propositions the class
// leaves free are false), named name(reps[c]). The classes are found by
// refining a partition diagram with each state's transition diagram in
// turn (one product per state), never by enumerating valuations; their
// number is charged to the valuation-letters limit.
func LetterClasses(b *budget.Budget, d *DFA, name func([]bool) string) (*automata.DFA, [][]bool, error) {
	k := len(d.Props)
	m := bdd.New(b, k)
	// The partition: a diagram of m whose leaves are terminals numbering
	// the classes; a refinement numbers the pairs (class, successor).
	part := m.Terminal(0)
	for q := range d.NumStates() {
		ids := map[[2]int32]int{}
		var memo pairTable
		var walk func(u, v bdd.Node) bdd.Node
		walk = func(u, v bdd.Node) bdd.Node {
			if r, ok := memo.get(u, v); ok {
				return r
			}
			lu, lv := m.Level(u), min(d.M.Level(v), k)
			l := min(lu, lv)
			var r bdd.Node
			if l == k {
				key := [2]int32{int32(-2 - int(m.Low(u))), int32(d.Leaf[v])}
				id, ok := ids[key]
				if !ok {
					id = len(ids)
					ids[key] = id
				}
				r = m.Terminal(id)
			} else {
				u0, u1, v0, v1 := u, u, v, v
				if lu == l {
					u0, u1 = m.Low(u), m.High(u)
				}
				if lv == l {
					v0, v1 = d.M.Low(v), d.M.High(v)
				}
				r = m.Mk(l, walk(u0, v0), walk(u1, v1))
			}
			memo.put(u, v, r)
			return r
		}
		part = walk(part, d.Next[q])
		if err := b.Check(maxLetters, int64(len(ids)), "letter classes of a symbolic automaton"); err != nil {
			return nil, nil, err
		}
		if err := b.Step(int64(memo.n)); err != nil {
			return nil, nil, err
		}
		if err := m.Err(); err != nil {
			return nil, nil, err
		}
	}
	// A representative of each class: the first path to its leaf, low
	// children first.
	var reps [][]bool
	seen := map[bdd.Node]bool{}
	val := make([]bool, k)
	var walk func(x bdd.Node)
	walk = func(x bdd.Node) {
		if seen[x] {
			return
		}
		seen[x] = true
		if l := m.Level(x); l < k {
			walk(m.Low(x))
			val[l] = true
			walk(m.High(x))
			val[l] = false
			return
		}
		reps = append(reps, append([]bool(nil), val...))
	}
	walk(part)
	names := make([]string, len(reps))
	for c, v := range reps {
		names[c] = name(v)
	}
	alpha, err := alphabet.New(names...)
	if err != nil {
		return nil, nil, err
	}
	ld := automata.NewDFA(alpha, d.NumStates())
	ld.Start = d.Start
	copy(ld.Accept, d.Accept)
	for q := range d.NumStates() {
		for c, v := range reps {
			ld.Delta[q][c] = d.Step(q, func(i int) bool { return v[i] })
		}
	}
	return ld, reps, nil
}
