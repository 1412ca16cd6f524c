package learn

import (
	"github.com/brasp-dev/brasp/automata"
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
	k, ok := l.cache.verdicts(u, t, l.prefix, l.keyBuf[:0])
	if !ok {
		panic("learn: key asked before its verdicts were fetched: " + automata.ShowWord(l.alpha, concat(u, t)))
	}
	l.keyBuf = k
	return string(k)
}

// known reports whether the verdicts key(u, t) reads are in the cache.
func (l *Learner) known(u, t []int) bool {
	k, ok := l.cache.verdicts(u, t, l.prefix, l.keyBuf[:0])
	l.keyBuf = k
	return ok
}

// concat returns u·t in a fresh slice.
func concat(u, t []int) []int {
	w := make([]int, 0, len(u)+len(t))
	return append(append(w, u...), t...)
}

// siftAll sorts the words of items down the tree from their nodes, one
// batch per step: a step asks the test of each item's node, and the item
// moves down as far as the answers known go. A word whose key has no
// child yet becomes a new state there (its access word is the
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
			for l.known(it.word, it.at.test) {
				k := l.key(it.word, it.at.test)
				c := it.at.children[k]
				if c == nil {
					// A new state: its access word is the transition's
					// word.
					q, err := l.addState(b, it.word)
					if err != nil {
						return err
					}
					c = &tnode{state: q}
					it.at.children[k] = c
					l.leaf[q] = c
					fresh = append(fresh, l.outgoing(q)...)
				}
				it.at = c
				if c.state >= 0 {
					break
				}
			}
			if it.at.state >= 0 {
				l.setTrans(it.from, it.a, it.at.state)
				continue
			}
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

// split adds the new states of cuts (one per state of the hypothesis
// that they split; the others wait for the next pass of refine): the leaf
// of each such state old becomes an inner node whose test is v followed
// by the tail, with children old and the new state with access word
// access(p)·a (which disagree on it), and the transitions that led to old
// are sifted again from the new node, all of them together.
func (l *Learner) split(b *budget.Budget, cuts []cut) error {
	type splitting struct {
		old  int
		u, t []int
	}
	var todo []splitting
	var batch [][]int
	seen := map[int]bool{}
	for _, c := range cuts {
		if seen[c.old] {
			continue
		}
		seen[c.old] = true
		s := splitting{old: c.old, u: concat(l.access[c.p], []int{c.a}), t: l.withTail(c.v)}
		todo = append(todo, s)
		batch = append(batch, concat(l.access[s.old], s.t), concat(s.u, s.t))
	}
	if err := l.cache.Ask(b, batch); err != nil {
		return err
	}
	var items []sift
	for _, s := range todo {
		leaf := l.leaf[s.old]
		ko, kn := l.key(l.access[s.old], s.t), l.key(s.u, s.t)
		if ko == kn {
			// A counterexample that splits no state: the teacher
			// contradicts itself somewhere on the words it rests on
			// (or brasp has a bug).
			if err := l.cache.Recheck(b, [][]int{concat(l.access[s.old], s.t), concat(s.u, s.t)}); err != nil {
				return err
			}
			return errNotSplit
		}
		q, err := l.addState(b, s.u)
		if err != nil {
			return err
		}
		leaf.test, leaf.state = s.t, -1
		leaf.children = map[string]*tnode{
			ko: {state: s.old},
			kn: {state: q},
		}
		l.leaf[s.old], l.leaf[q] = leaf.children[ko], leaf.children[kn]
		for _, qa := range l.incoming[s.old] {
			p, a := int(qa)/l.k, int(qa)%l.k
			if l.trans[p][a] != s.old {
				continue // stale entry: the transition moved since
			}
			l.writable(p)[a] = -1
			items = append(items, sift{from: p, a: a, word: concat(l.access[p], []int{a}), at: leaf})
		}
		l.incoming[s.old] = l.incoming[s.old][:0]
		items = append(items, l.outgoing(q)...)
	}
	return l.siftAll(b, items)
}
