package symbolic

import (
	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
)

// maxLetters bounds the alphabet of valuations ToLetters writes out.
var maxLetters = budget.Define("valuation-letters", 1<<12, "letters",
	"letters (valuations of the propositions) of a symbolic automaton written as a letter automaton")

// Valuation returns the valuation numbered v: proposition i is bit i.
func Valuation(k, v int) []bool {
	val := make([]bool, k)
	for i := range k {
		val[i] = v>>i&1 == 1
	}
	return val
}

// ToLetters writes d as a letter automaton whose alphabet is every
// valuation of the propositions, letter v being the valuation whose bit i
// is proposition i, named name(valuation). It is the bridge to the
// letter-based representations; 2^k letters for k propositions, under the
// valuation-letters limit.
func ToLetters(b *budget.Budget, d *DFA, name func([]bool) string) (*automata.DFA, error) {
	k := len(d.Props)
	if err := b.Check(maxLetters, int64(1)<<min(k, 62), "alphabet of valuations"); err != nil {
		return nil, err
	}
	letters := 1 << k
	names := make([]string, letters)
	for v := range letters {
		names[v] = name(Valuation(k, v))
	}
	alpha, err := alphabet.New(names...)
	if err != nil {
		return nil, err
	}
	ld := automata.NewDFA(alpha, d.NumStates())
	ld.Start = d.Start
	copy(ld.Accept, d.Accept)
	for q := range d.NumStates() {
		for v := range letters {
			ld.Delta[q][v] = d.Step(q, func(i int) bool { return v>>i&1 == 1 })
		}
		if err := b.Step(int64(letters)); err != nil {
			return nil, err
		}
	}
	return ld, nil
}
