package learn

import (
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
)

// DFATeacher is the exact teacher of a known DFA: membership by running
// it (a verdict per prefix: one run answers them all) and equivalence by
// the product search of automata.Compare on non-empty words (a shortest
// counterexample). It is how brasp learn verifies the learner on every
// kind brasp reads, and what the benchmarks learn from.
type DFATeacher struct {
	D *automata.DFA
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

// Counterexample is a shortest non-empty word on which h and the DFA
// differ.
func (t *DFATeacher) Counterexample(b *budget.Budget, h *Hypothesis) ([]int, bool, error) {
	d, err := automata.Compare(b, h.DFA, t.D, automata.SigmaPlus)
	if err != nil || d == nil {
		return nil, false, err
	}
	return d.Word, true, nil
}

// Verdict: the hypothesis accepts exactly the non-empty words the DFA
// accepts.
func (t *DFATeacher) Verdict() string { return "equivalent to the target (exact check)" }
