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

// TestDFATeacherCounterexamples: on hypotheses that are any minimal DFAs
// (with and without access words, equal to the target or not), the exact
// teacher finds words on which they disagree exactly when they differ on
// non-empty words, as many as asked for at most, and each one a word on
// which they disagree.
func TestDFATeacherCounterexamples(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	alpha := alphabet.Alphabet{"a", "b"}
	many := 0
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
			for _, most := range []int{1, 3, 100} {
				teacher := &DFATeacher{D: d}
				ws, err := teacher.Counterexamples(nil, &Hypothesis{DFA: h, Access: access}, most)
				if err != nil {
					t.Fatal(err)
				}
				if found := len(ws) > 0; found == same {
					t.Fatalf("found = %v for hypotheses that are equivalent: %v", found, same)
				}
				if len(ws) > most {
					t.Fatalf("%d counterexamples, at most %d asked for", len(ws), most)
				}
				if len(ws) > 1 {
					many++
				}
				for _, w := range ws {
					if len(w) == 0 || h.Accepts(w) == d.Accepts(w) {
						t.Fatalf("counterexample %v on which the hypothesis and the target agree", w)
					}
				}
			}
		}
	}
	if many == 0 {
		t.Error("never more than one counterexample")
	}
}
