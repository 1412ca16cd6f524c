package learn

import (
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
)

// plusMinimal is the minimal DFA of the non-empty words d accepts.
func plusMinimal(t testing.TB, d *automata.DFA) *automata.DFA {
	t.Helper()
	e := d.Clone()
	e.Accept[e.Start] = false
	if d.Accept[d.Start] {
		// A fresh rejecting start state with the start's transitions.
		n := e.NumStates()
		e.States = append(e.States, "fresh-start")
		e.Accept = append(e.Accept, false)
		e.Accept[d.Start] = true
		e.Delta = append(e.Delta, append([]int(nil), d.Delta[d.Start]...))
		e.Start = n
	}
	m, err := automata.Minimize(nil, e)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// learnExactly learns d from its exact teacher and checks the result:
// equivalent on non-empty words and minimal.
func learnExactly(t *testing.T, d *automata.DFA) *Result {
	t.Helper()
	teacher := &DFATeacher{D: d}
	res, err := Learn(nil, d.Alphabet, teacher, teacher)
	if err != nil {
		t.Fatal(err)
	}
	if !automata.Equivalent(res.DFA, d, automata.SigmaPlus) {
		t.Fatalf("learned DFA differs from the target")
	}
	if want := plusMinimal(t, d).NumStates(); res.DFA.NumStates() != want {
		t.Fatalf("learned %d states, the minimal DFA has %d", res.DFA.NumStates(), want)
	}
	return res
}

func TestLearnRandomDFAs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, k := range []int{1, 2, 3, 5} {
		alpha := alphabet.Alphabet{"a", "b", "c", "d", "e"}[:k]
		for _, n := range []int{1, 2, 3, 5, 10, 30, 100} {
			for range 5 {
				learnExactly(t, automata.RandomDFA(rng, alpha, n))
			}
		}
	}
}
