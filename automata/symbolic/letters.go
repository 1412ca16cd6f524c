package symbolic

import (
	"fmt"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/bdd"
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

// FromLetters is the inverse of ToLetters: the symbolic automaton over
// props of a letter automaton whose letter v is the valuation whose bit i
// is proposition i (2^len(props) letters, in that order). Each state's
// diagram is built bottom-up over the valuations and reduced, so it has
// at most one node per distinct cofactor; the automaton is not minimised.
func FromLetters(b *budget.Budget, d *automata.DFA, props []string) (*DFA, error) {
	k := len(props)
	if k > 30 || len(d.Alphabet) != 1<<k {
		return nil, fmt.Errorf("an automaton over %d letters is not one over the valuations of %d propositions", len(d.Alphabet), k)
	}
	if err := b.Check(maxLetters, int64(len(d.Alphabet)), "alphabet of valuations"); err != nil {
		return nil, err
	}
	m := bdd.New(b, k)
	n := d.NumStates()
	s := &DFA{Props: append([]string(nil), props...), M: m, Start: d.Start, Accept: append([]bool(nil), d.Accept...),
		Next: make([]bdd.Node, n), Leaf: make(map[bdd.Node]int, n)}
	for q := range n {
		s.Leaf[m.Terminal(q)] = q
	}
	level := make([]bdd.Node, 1<<k)
	for q := range n {
		// From the last proposition up: after step j, level[v] for
		// v < 2^j is the diagram over propositions j..k-1 of the
		// valuations whose bits 0..j-1 are v's.
		for v := range level {
			level[v] = m.Terminal(d.Delta[q][v])
		}
		for j := k - 1; j >= 0; j-- {
			half := 1 << j
			for v := range half {
				level[v] = m.Mk(j, level[v], level[v|half])
			}
		}
		s.Next[q] = level[0]
		if err := b.Step(int64(len(level))); err != nil {
			return nil, err
		}
	}
	if err := m.Err(); err != nil {
		return nil, err
	}
	return s, nil
}
