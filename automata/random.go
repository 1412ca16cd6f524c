package automata

import (
	"math/rand/v2"

	"github.com/brasp-dev/brasp/alphabet"
)

// RandomDFA returns a uniformly random complete DFA with n states over
// alpha, drawn from rng in a fixed order (the start state, then for each
// state its acceptance and its transitions in symbol order), so that a seed
// gives the same automaton everywhere. It is the random automaton of the
// tests and benchmarks of every package; most such automata are neither
// minimal nor star-free.
func RandomDFA(rng *rand.Rand, alpha alphabet.Alphabet, n int) *DFA {
	d := NewDFA(alpha, n)
	d.Start = rng.IntN(n)
	for q := range n {
		d.Accept[q] = rng.IntN(2) == 0
		for a := range alpha {
			d.Delta[q][a] = rng.IntN(n)
		}
	}
	return d
}
