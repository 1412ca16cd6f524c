package learn

import (
	"fmt"
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

func (r *recorder) Counterexamples(b *budget.Budget, h *Hypothesis, most int) ([][]int, error) {
	r.shown = append(r.shown, h.DFA)
	r.texts = append(r.texts, automata.Format(h.DFA))
	return r.DFATeacher.Counterexamples(b, h, most)
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

// TestLearnManyLetters learns over more letters than a trie node holds as
// a row (the valuations of many propositions: the children are a map and
// a list), with answers per prefix and per word, from the exact teacher
// and through conformance (which walks the cached words).
func TestLearnManyLetters(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	names := make(alphabet.Alphabet, 3*denseLetters)
	for a := range names {
		names[a] = fmt.Sprintf("x%d", a)
	}
	for _, n := range []int{1, 3, 8} {
		d := automata.RandomDFA(rng, names, n)
		learnExactly(t, d)
		for _, prefix := range []bool{true, false} {
			var m Membership = &plainTeacher{d: d}
			if prefix {
				m = &DFATeacher{D: d}
			}
			cache := NewCache(nil, m, names, &Stats{})
			if cache.trie.sparse == nil {
				t.Fatal("the cache holds rows of children over many letters")
			}
			teacher := &DFATeacher{D: d}
			res, err := LearnWith(nil, cache, teacher, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !automata.Equivalent(res.DFA, d, automata.SigmaPlus) {
				t.Fatalf("prefix=%v: learned DFA differs from the target", prefix)
			}
			// Every cached verdict is the target's, found by walking
			// the trie.
			if w := cache.Disagreements(d, 1); w != nil {
				t.Fatalf("the cache disagrees with the target on %v", w)
			}
		}
	}
}
