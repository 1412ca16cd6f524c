package learn

import (
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
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

// recorder is an exact teacher that keeps every hypothesis it is shown
// with its text at that moment.
type recorder struct {
	DFATeacher
	shown []*automata.DFA
	texts []string
}

func (r *recorder) Counterexample(b *budget.Budget, h *Hypothesis) ([]int, bool, error) {
	r.shown = append(r.shown, h.DFA)
	r.texts = append(r.texts, automata.Format(h.DFA))
	return r.DFATeacher.Counterexample(b, h)
}

// TestHypothesesStay: a hypothesis shares its rows with the learner, which
// refines on; every hypothesis shown must still be what it was (the last
// one is what a run that stops returns).
func TestHypothesesStay(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		d := automata.RandomDFA(rng, alphabet.Alphabet{"a", "b", "c"}, 40)
		r := &recorder{DFATeacher: DFATeacher{D: d}}
		res, err := Learn(nil, d.Alphabet, &r.DFATeacher, r)
		if err != nil {
			t.Fatal(err)
		}
		if !automata.Equivalent(res.DFA, d, automata.SigmaPlus) {
			t.Fatal("learned DFA differs from the target")
		}
		for i, h := range r.shown {
			if got := automata.Format(h); got != r.texts[i] {
				t.Fatalf("hypothesis %d of %d changed after it was shown:\nwas\n%s\nis\n%s", i, len(r.shown), r.texts[i], got)
			}
		}
	}
}
