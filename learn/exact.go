package learn

import (
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
)

// DFATeacher is the exact teacher of a known DFA: membership by running
// it (a verdict per prefix: one run answers them all) and an exact
// equivalence check against the minimal DFA of its non-empty words. It is
// how brasp learn verifies the learner on every kind brasp reads, and what
// the benchmarks learn from.
//
// The check costs O(n·k) array look-ups for a hypothesis of n states over
// k letters, and O(|access word|) for each state new since the last round:
// it maps each hypothesis state q to the state φ(q) of the minimal target
// reached on q's access word and checks that φ maps the start to the start,
// keeps acceptance and commutes with every transition — then the two
// accept the same words (induction on the word), whatever φ is. When a
// transition q·a = r breaks it, the target states φ(q)·a and φ(r) differ,
// so a shortest suffix v tells them apart (the target is minimal); the
// hypothesis reads access(q)·a·v and access(r)·v alike, the target does
// not, so one of the two is a counterexample. Unlike a product search it
// does not look for the shortest counterexample, only a short one: the
// learner needs a counterexample, and a product search from scratch every
// round made the exact teacher the cost of learning.
//
// A hypothesis without access words (or whose start's access word does not
// lead to the target's start) is checked by the product search of
// automata.Compare, which returns a shortest counterexample.
type DFATeacher struct {
	D *automata.DFA
	// min is the minimal DFA of D's non-empty words (built on first use);
	// phi[q] the state of min reached on the access word of hypothesis
	// state q (a state keeps its index and access word from one
	// hypothesis to the next, see Hypothesis).
	min *automata.DFA
	phi []int32
	// seen[q] is the access word phi[q] was computed from (the same
	// memory: a learner does not change an access word).
	seen [][]int
}

// PerPrefix is true: one run of the DFA answers every prefix.
func (t *DFATeacher) PerPrefix() bool { return true }

// Query runs the DFA on each word.
func (t *DFATeacher) Query(_ *budget.Budget, words [][]int) ([][]bool, error) {
	out := make([][]bool, len(words))
	for i, w := range words {
		v := make([]bool, len(w))
		q := t.D.Start
		for j, a := range w {
			q = t.D.Delta[q][a]
			v[j] = t.D.Accept[q]
		}
		out[i] = v
	}
	return out, nil
}

// Counterexamples are up to max non-empty words on which h and the DFA
// differ (see the type's doc for which): one for each state whose
// acceptance is wrong and each transition that breaks the map, in the
// order of the states.
func (t *DFATeacher) Counterexamples(b *budget.Budget, h *Hypothesis, max int) ([][]int, error) {
	if t.min == nil {
		m, err := automata.Minimize(b, nonEmpty(t.D))
		if err != nil {
			return nil, err
		}
		t.min = m
	}
	m, n := t.min, h.NumStates()
	if len(h.Access) != n || !h.Alphabet.Equal(m.Alphabet) {
		return t.product(b, h)
	}
	keep := min(len(t.phi), n)
	for q := range keep {
		if !same(t.seen[q], h.Access[q]) {
			keep = q
			break
		}
	}
	t.phi, t.seen = t.phi[:keep], t.seen[:keep]
	for q := keep; q < n; q++ {
		t.phi = append(t.phi, int32(m.Run(m.Start, h.Access[q])))
		t.seen = append(t.seen, h.Access[q])
	}
	phi := t.phi
	if int(phi[h.Start]) != m.Start {
		return t.product(b, h)
	}
	var ws [][]int
	for q := range n {
		if h.Accept[q] != m.Accept[phi[q]] {
			if ws = append(ws, h.Access[q]); len(ws) == max {
				return ws, nil
			}
		}
	}
	for q := range n {
		row, tq := h.Delta[q], m.Delta[phi[q]]
		for a, r := range row {
			t1, t2 := tq[a], int(phi[r])
			if t1 == t2 {
				continue
			}
			// A shortest suffix v telling t1 and t2 apart: the product
			// search of m from the two states, within the budget.
			x, y := *m, *m
			x.Start, y.Start = t1, t2
			d, err := automata.Compare(b, &x, &y, automata.SigmaStar)
			if err != nil {
				return nil, err
			}
			v := d.Word
			w := append(concat(h.Access[q], []int{a}), v...)
			if h.Accept[h.Run(r, v)] == m.Accept[m.Run(t1, v)] {
				w = concat(h.Access[r], v)
			}
			if ws = append(ws, w); len(ws) == max {
				return ws, nil
			}
		}
		if err := b.Step(int64(len(row))); err != nil {
			return nil, err
		}
	}
	return ws, nil
}

// same reports whether u and v are the same slice (memory and length).
func same(u, v []int) bool {
	return len(u) == len(v) && (len(u) == 0 || &u[0] == &v[0])
}

// product is the shortest counterexample of the product search.
func (t *DFATeacher) product(b *budget.Budget, h *Hypothesis) ([][]int, error) {
	d, err := automata.Compare(b, h.DFA, t.D, automata.SigmaPlus)
	if err != nil || d == nil {
		return nil, err
	}
	return [][]int{d.Word}, nil
}

// nonEmpty returns d with a rejecting start: a DFA of the non-empty words d
// accepts (d itself when its start rejects).
func nonEmpty(d *automata.DFA) *automata.DFA {
	if !d.Accept[d.Start] {
		return d
	}
	e := d.Clone()
	n := e.NumStates()
	names := make(map[string]bool, n)
	for _, s := range e.States {
		names[s] = true
	}
	name := "start"
	for names[name] {
		name += "'"
	}
	e.States = append(e.States, name)
	e.Accept = append(e.Accept, false)
	e.Delta = append(e.Delta, append([]int(nil), d.Delta[d.Start]...))
	e.Start = n
	return e
}

// Verdict: the hypothesis accepts exactly the non-empty words the DFA
// accepts.
func (t *DFATeacher) Verdict() string { return "equivalent to the target (exact check)" }
