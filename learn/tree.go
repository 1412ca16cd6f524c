package learn

import (
	"github.com/brasp-dev/brasp/budget"
)

// tnode is a node of the discrimination tree. An inner node holds a test
// suffix t and sorts words u by their key on t (key): the verdicts on u·t
// (in prefix mode on u·t' for every prefix t' of t, a vector of bits). Its
// children are keyed by those vectors; a leaf is one state of the
// hypothesis. Two states in different subtrees of a node disagree on a
// suffix the node's test shows, so the states of the hypothesis are
// pairwise inequivalent: the hypothesis is minimal.
type tnode struct {
	test     []int
	children map[string]*tnode
	state    int // the state of a leaf, -1 for an inner node
	depth    int
}

// sift is one word being sorted down the tree: the transition (from, a)
// whose word is word, now at node at.
type sift struct {
	from, a int
	word    []int
	at      *tnode
}

// key is the key of u on test t: the verdicts on u·t' for the prefixes t'
// of t that the teacher answers (all of them, the empty one included, in
// prefix mode; t itself otherwise), one byte per verdict.
func (l *Learner) key(u, t []int) string {
	buf := l.scratch[:0]
	buf = append(buf, u...)
	buf = append(buf, t...)
	l.scratch = buf
	if !l.prefix {
		if l.cache.Accepts(buf) {
			return "1"
		}
		return "0"
	}
	k := make([]byte, len(t)+1)
	for j := 0; j <= len(t); j++ {
		if l.cache.Accepts(buf[:len(u)+j]) {
			k[j] = '1'
		} else {
			k[j] = '0'
		}
	}
	return string(k)
}

// concat returns u·t in a fresh slice.
func concat(u, t []int) []int {
	w := make([]int, 0, len(u)+len(t))
	return append(append(w, u...), t...)
}

// siftAll sorts the words of items down the tree from their nodes, level
// by level, asking the words of one level in one batch. A word whose key
// has no child yet becomes a new state there (its access word is the
// transition's word), whose transitions are sifted in turn. When it
// returns, every transition has its target state.
func (l *Learner) siftAll(b *budget.Budget, items []sift) error {
	for len(items) > 0 {
		batch := make([][]int, 0, len(items))
		for _, it := range items {
			batch = append(batch, concat(it.word, it.at.test))
		}
		if err := l.cache.Ask(b, batch); err != nil {
			return err
		}
		next := items[:0]
		var fresh []sift
		for _, it := range items {
			k := l.key(it.word, it.at.test)
			c := it.at.children[k]
			if c == nil {
				// A new state: its access word is the transition's word.
				q, err := l.addState(b, it.word)
				if err != nil {
					return err
				}
				c = &tnode{state: q, depth: it.at.depth + 1}
				it.at.children[k] = c
				l.leaf[q] = c
				fresh = append(fresh, l.outgoing(q)...)
			}
			if c.state >= 0 {
				l.setTrans(it.from, it.a, c.state)
				continue
			}
			it.at = c
			next = append(next, it)
		}
		items = append(next, fresh...)
		if err := b.Step(int64(len(batch))); err != nil {
			return err
		}
	}
	return nil
}

// outgoing returns the transitions of state q to sift from the root.
func (l *Learner) outgoing(q int) []sift {
	items := make([]sift, l.k)
	for a := range l.k {
		items[a] = sift{from: q, a: a, word: concat(l.access[q], []int{a}), at: l.root}
	}
	return items
}

// setTrans makes q·a lead to r and records the incoming transition.
func (l *Learner) setTrans(q, a, r int) {
	l.writable(q)[a] = r
	l.incoming[r] = append(l.incoming[r], int32(q*l.k+a))
}

// split replaces the leaf of state old by an inner node with test t whose
// children are old and the new state with access word u (which disagree
// on t), and sifts again, from the new node, the transitions that led to
// old.
func (l *Learner) split(b *budget.Budget, old int, u, t []int) error {
	if err := l.cache.Ask(b, [][]int{concat(l.access[old], t), concat(u, t)}); err != nil {
		return err
	}
	leaf := l.leaf[old]
	ko, kn := l.key(l.access[old], t), l.key(u, t)
	if ko == kn {
		// A counterexample that splits no state: the teacher contradicts
		// itself somewhere on the words it rests on (or brasp has a bug).
		if err := l.cache.Recheck(b, [][]int{concat(l.access[old], t), concat(u, t)}); err != nil {
			return err
		}
		return errNotSplit
	}
	q, err := l.addState(b, u)
	if err != nil {
		return err
	}
	leaf.test, leaf.state = t, -1
	leaf.children = map[string]*tnode{
		ko: {state: old, depth: leaf.depth + 1},
		kn: {state: q, depth: leaf.depth + 1},
	}
	l.leaf[old], l.leaf[q] = leaf.children[ko], leaf.children[kn]
	var items []sift
	for _, qa := range l.incoming[old] {
		p, a := int(qa)/l.k, int(qa)%l.k
		if l.trans[p][a] != old {
			continue // stale entry: the transition moved since
		}
		l.writable(p)[a] = -1
		items = append(items, sift{from: p, a: a, word: concat(l.access[p], []int{a}), at: leaf})
	}
	l.incoming[old] = l.incoming[old][:0]
	items = append(items, l.outgoing(q)...)
	return l.siftAll(b, items)
}
