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

// descend moves each item down the tree as far as the answers known go
// (after its test was asked). A word whose key has no child yet becomes a
// new state there (its access word is the transition's word), whose
// transitions are returned to sift in turn with the items still on
// their way; an item that reaches a leaf gives its transition its target.
func (l *Learner) descend(b *budget.Budget, items []sift) ([]sift, error) {
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
					return nil, err
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
	return append(next, fresh...), nil
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

// splitting is a state split that a cut proposes: old's leaf is to
// become an inner node with test t, telling old from the new state with
// access word u.
type splitting struct {
	old  int
	u, t []int
}

// probes are the words whose verdicts split needs.
func (l *Learner) probes(s splitting) [][]int {
	return [][]int{concat(l.access[s.old], s.t), concat(s.u, s.t)}
}

// split adds the new state of s (its probes asked): the leaf of old
// becomes an inner node whose test is t, with children old and the new
// state with access word u (which disagree on it), and it returns the
// transitions to sift: those that led to old, from the new node, and the
// new state's, from the root.
func (l *Learner) split(b *budget.Budget, s splitting) ([]sift, error) {
	leaf := l.leaf[s.old]
	ko, kn := l.key(l.access[s.old], s.t), l.key(s.u, s.t)
	if ko == kn {
		// A counterexample that splits no state: the teacher
		// contradicts itself somewhere on the words it rests on (or
		// brasp has a bug).
		if err := l.cache.Recheck(b, l.probes(s)); err != nil {
			return nil, err
		}
		return nil, errNotSplit
	}
	q, err := l.addState(b, s.u)
	if err != nil {
		return nil, err
	}
	leaf.test, leaf.state = s.t, -1
	leaf.children = map[string]*tnode{
		ko: {state: s.old},
		kn: {state: q},
	}
	l.leaf[s.old], l.leaf[q] = leaf.children[ko], leaf.children[kn]
	var items []sift
	for _, qa := range l.incoming[s.old] {
		p, a := int(qa)/l.k, int(qa)%l.k
		if l.trans[p][a] != s.old {
			continue // stale entry: the transition moved since
		}
		l.writable(p)[a] = -1
		items = append(items, sift{from: p, a: a, word: concat(l.access[p], []int{a}), at: leaf})
	}
	l.incoming[s.old] = l.incoming[s.old][:0]
	return append(items, l.outgoing(q)...), nil
}
