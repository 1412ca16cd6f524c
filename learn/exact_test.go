package learn

import (
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
)

// accessWords returns a shortest word reaching each state of d, which
// must all be reachable.
func accessWords(d *automata.DFA) [][]int {
	acc := make([][]int, d.NumStates())
	acc[d.Start] = []int{}
	queue := []int{d.Start}
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		for a, r := range d.Delta[q] {
			if acc[r] == nil {
				acc[r] = concat(acc[q], []int{a})
				queue = append(queue, r)
			}
		}
	}
	return acc
}

// TestDFATeacherCounterexample: on hypotheses that are any minimal DFAs
// (with and without access words, equal to the target or not), the exact
// teacher finds a word on which they disagree exactly when they differ on
// non-empty words.
func TestDFATeacherCounterexample(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	alpha := alphabet.Alphabet{"a", "b"}
	for i := range 400 {
		d := automata.RandomDFA(rng, alpha, 1+rng.IntN(8))
		var h *automata.DFA
		if i%3 == 0 {
			h = plusMinimal(t, d)
		} else {
			h = plusMinimal(t, automata.RandomDFA(rng, alpha, 1+rng.IntN(8)))
		}
		same := automata.Equivalent(h, d, automata.SigmaPlus)
		for _, access := range [][][]int{accessWords(h), nil} {
			teacher := &DFATeacher{D: d}
			w, found, err := teacher.Counterexample(nil, &Hypothesis{DFA: h, Access: access})
			if err != nil {
				t.Fatal(err)
			}
			if found == same {
				t.Fatalf("found = %v for hypotheses that are equivalent: %v", found, same)
			}
			if found && (len(w) == 0 || h.Accepts(w) == d.Accepts(w)) {
				t.Fatalf("counterexample %v on which the hypothesis and the target agree", w)
			}
		}
	}
}
