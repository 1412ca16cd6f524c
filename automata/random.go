package automata

import (
	"math/rand/v2"
	"slices"

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

// RandomCounterFree returns a random minimal counter-free DFA with exactly
// n states over alpha: each letter an order-preserving map of a chain of n
// to n+2 states (such maps generate an aperiodic monoid), a quarter of them
// resets, acceptance and start at random; drawn again until the minimal
// automaton has n states. The automata of the Krohn–Rhodes tests and
// benchmarks.
func RandomCounterFree(rng *rand.Rand, alpha alphabet.Alphabet, n int) *DFA {
	for {
		m := n + rng.IntN(3)
		d := NewDFA(alpha, m)
		for a := range alpha {
			f := randomMonotone(rng, m)
			if rng.IntN(4) == 0 {
				r := rng.IntN(m)
				for q := range f {
					f[q] = r
				}
			}
			for q := range m {
				d.Delta[q][a] = f[q]
			}
		}
		for q := range m {
			d.Accept[q] = rng.IntN(2) == 0
		}
		d.Start = rng.IntN(m)
		md, err := Minimize(nil, d)
		if err != nil {
			panic(err) // a few states: far below minimize-bytes
		}
		if md.NumStates() == n {
			return md
		}
	}
}

// RandomNearlyAperiodic returns a DFA with n states over alpha whose
// letters are order-preserving maps of the chain 0 < 1 < … < n-1 with the
// states shuffled (an aperiodic monoid: a star-free language), except that
// for n ≤ 4 each letter is, with probability 1/8, an arbitrary map instead
// (which usually breaks aperiodicity): samples on both sides of the
// boundary the classification tests check.
func RandomNearlyAperiodic(rng *rand.Rand, alpha alphabet.Alphabet, n int) *DFA {
	d := NewDFA(alpha, n)
	perm := rng.Perm(n)
	for a := range alpha {
		m := randomMonotone(rng, n)
		if n <= 4 && rng.IntN(8) == 0 {
			for q := range m {
				m[q] = rng.IntN(n)
			}
		}
		for q := range n {
			d.Delta[perm[q]][a] = perm[m[q]]
		}
	}
	for q := range n {
		d.Accept[q] = rng.IntN(2) == 0
	}
	d.Start = rng.IntN(n)
	return d
}

// randomMonotone returns a random order-preserving map of 0..n-1.
func randomMonotone(rng *rand.Rand, n int) []int {
	m := make([]int, n)
	for q := range m {
		m[q] = rng.IntN(n)
	}
	slices.Sort(m)
	return m
}
