package symbolic_test

import (
	"fmt"
	"testing"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/bdd"
	"github.com/brasp-dev/brasp/ltlf"
)

func valuationName(v []bool) string { return fmt.Sprint(v) }

// parity is the symbolic DFA of the traces with an odd number of steps
// where p holds (q ignored): not star-free.
func parity() *symbolic.DFA {
	m := bdd.New(nil, 2)
	t0, t1 := m.Terminal(0), m.Terminal(1)
	return &symbolic.DFA{Props: []string{"p", "q"}, M: m, Accept: []bool{false, true},
		Next: []bdd.Node{m.Mk(0, t0, t1), m.Mk(0, t1, t0)}, Leaf: map[bdd.Node]int{t0: 0, t1: 1}}
}

// TestLetterClasses: classifying the automaton over its letter classes
// gives the answers of classifying it over every valuation, with a
// minimal automaton of the same size and fewer letters.
func TestLetterClasses(t *testing.T) {
	ds := map[string]*symbolic.DFA{"parity": parity()}
	for _, src := range []string{"G(a -> F b)", "a U (b & X[!] c)", "F(a & !b) & G(c -> X d)", "G F a | F(b & c & d & e)", "(F act1 -> F act2) & G(act3 -> X[!](!act3 U act4))"} {
		f, err := ltlf.ParseString(src)
		if err != nil {
			t.Fatal(err)
		}
		if ds[src], err = ltlf.ToDFA(nil, f); err != nil {
			t.Fatal(err)
		}
	}
	for name, d := range ds {
		lc, reps, err := symbolic.LetterClasses(nil, d, valuationName)
		if err != nil {
			t.Fatal(err)
		}
		full, err := symbolic.ToLetters(nil, d, valuationName)
		if err != nil {
			t.Fatal(err)
		}
		if len(reps) > len(full.Alphabet) {
			t.Errorf("%s: %d classes for %d valuations", name, len(reps), len(full.Alphabet))
		}
		// Every valuation acts as the class it falls in.
		for v := range full.Alphabet {
			c := -1
			for i, r := range reps {
				same := true
				for q := range d.NumStates() {
					same = same && full.Delta[q][v] == d.Step(q, func(j int) bool { return r[j] })
				}
				if same {
					c = i
				}
			}
			if c < 0 {
				t.Fatalf("%s: valuation %s acts as no class", name, full.Alphabet[v])
			}
		}
		a, err := automata.Classify(nil, lc)
		if err != nil {
			t.Fatal(err)
		}
		b, err := automata.Classify(nil, full)
		if err != nil {
			t.Fatal(err)
		}
		if a.StarFree != b.StarFree || a.StutterInvariant != b.StutterInvariant || a.AC0 != b.AC0 || len(a.Minimal.States) != len(b.Minimal.States) {
			t.Errorf("%s: over classes star-free %v stutter %v AC0 %v (%d states), over valuations %v %v %v (%d states)", name,
				a.StarFree, a.StutterInvariant, a.AC0, len(a.Minimal.States), b.StarFree, b.StutterInvariant, b.AC0, len(b.Minimal.States))
		}
		t.Logf("%s: %d classes of %d valuations; star-free %v, stutter-invariant %v, AC0 %v", name, len(reps), len(full.Alphabet), a.StarFree, a.StutterInvariant, a.AC0)
	}
}
