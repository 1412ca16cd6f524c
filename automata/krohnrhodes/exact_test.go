package krohnrhodes_test

import (
	"testing"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/krohnrhodes"
	"github.com/brasp-dev/brasp/exact"
)

// TestKrohnRhodesExact checks programs of random minimal counter-free DFAs
// of 12 and 20 states exactly: the minimal DFA of the program
// (exact.ProgramDFA) is equivalent to the DFA on non-empty words. This
// external test package imports exact, which imports automata, without a
// cycle. exact's construction grows quickly with the program (a 2,700-vector
// program of a 20-state DFA takes about 40 s), so programs of more than
// 1,000 vectors are left to the all-words checks of TestKrohnRhodesLarge.
func TestKrohnRhodesExact(t *testing.T) {
	if testing.Short() {
		t.Skip("exact equivalence of large programs")
	}
	checked := map[int]int{}
	for _, n := range []int{12, 20} {
		for _, d := range krohnrhodes.CounterFreeOfSize(7, n, 4) {
			// Few global states may be listed: the program does not need them.
			c, err := krohnrhodes.Decompose(nil, d)
			if err != nil {
				t.Fatal(err)
			}
			p, err := krohnrhodes.CascadeToBRASP(c)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Vectors) > 1000 {
				continue
			}
			q, err := exact.ProgramDFA(nil, p)
			if err != nil {
				t.Fatalf("n=%d: %v", n, err)
			}
			eq, w, _, err := exact.Equivalent(q, automata.RestrictNonEmpty(d))
			if err != nil || !eq {
				t.Fatalf("n=%d: the program and the DFA differ on %v (%v)", n, d.Alphabet.FormatWord(w), err)
			}
			checked[n]++
		}
	}
	if checked[12] < 4 || checked[20] < 2 {
		t.Errorf("too few programs checked exactly: %v", checked)
	}
	t.Logf("checked exactly (DFA states: count): %v", checked)
}
