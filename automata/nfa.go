package automata

import (
	"fmt"
	"strconv"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata/internal/transform"
	"github.com/brasp-dev/brasp/budget"
)

// NFA is a nondeterministic finite automaton with ε-moves over a named
// alphabet. States are numbered 0..NumStates-1. It is the input of the subset
// construction (Determinize) and the common target of the exact semantics of
// LTL formulas and B-RASP programs.
type NFA struct {
	Alphabet alphabet.Alphabet
	Start    []int     // initial states
	Accept   []bool    // Accept[q]: q is accepting
	Delta    [][][]int // Delta[q][a]: successors of q on symbol a
	Eps      [][]int   // Eps[q]: ε-successors of q
}

// NewNFA returns an NFA with n states, no initial or accepting state and no
// transitions.
func NewNFA(alpha alphabet.Alphabet, n int) *NFA {
	m := &NFA{Alphabet: alpha}
	for range n {
		m.AddState()
	}
	return m
}

// NumStates returns the number of states.
func (m *NFA) NumStates() int { return len(m.Delta) }

// AddState adds a state with no transitions and returns its number.
func (m *NFA) AddState() int {
	m.Delta = append(m.Delta, make([][]int, len(m.Alphabet)))
	m.Eps = append(m.Eps, nil)
	m.Accept = append(m.Accept, false)
	return len(m.Delta) - 1
}

// AddTransition adds the transition from --a--> to.
func (m *NFA) AddTransition(from, a, to int) { m.Delta[from][a] = append(m.Delta[from][a], to) }

// AddEpsilon adds the ε-transition from --ε--> to.
func (m *NFA) AddEpsilon(from, to int) { m.Eps[from] = append(m.Eps[from], to) }

// Accepts reports whether some run of m on w ends in an accepting state.
func (m *NFA) Accepts(w []int) bool {
	cur := m.closure(transform.NewBitset(m.NumStates()).With(m.Start))
	for _, a := range w {
		next := transform.NewBitset(m.NumStates())
		for q := range cur.All() {
			for _, r := range m.Delta[q][a] {
				next.Set(r)
			}
		}
		cur = m.closure(next)
	}
	for q := range cur.All() {
		if m.Accept[q] {
			return true
		}
	}
	return false
}

// Determinize returns a complete DFA for m's language by the subset
// construction over reachable subsets (the empty subset becomes a rejecting
// sink). The subsets are charged to the budget's subset-bytes limit (each
// costs its bit set twice, as set and as map key, and its row) and the work
// of computing successors to b.Step; past either it stops with the budget's
// error. The result is not minimised; states are named S0, S1, … in
// discovery order.
func (m *NFA) Determinize(b *budget.Budget) (*DFA, error) {
	if len(m.Alphabet) == 0 {
		return nil, fmt.Errorf("automaton has an empty alphabet")
	}
	n := m.NumStates()
	k := len(m.Alphabet)
	words := int64((n + 63) / 64)
	perSubset := 2*8*words + 2*sliceBytes + mapEntryBytes + int64(k)*intBytes + 16 + 1
	meter := b.Meter(SubsetBytes, "the subset construction")
	index := map[string]int{}
	var sets []transform.Bitset
	get := func(s transform.Bitset) (int, error) {
		key := s.Key()
		if i, ok := index[key]; ok {
			return i, nil
		}
		if err := meter.Add(perSubset); err != nil {
			return 0, err
		}
		index[key] = len(sets)
		sets = append(sets, s)
		return len(sets) - 1, nil
	}
	if _, err := get(m.closure(transform.NewBitset(n).With(m.Start))); err != nil {
		return nil, err
	}
	d := &DFA{Alphabet: m.Alphabet}
	for i := 0; i < len(sets); i++ {
		row := make([]int, k)
		acc := false
		for q := range sets[i].All() {
			acc = acc || m.Accept[q]
		}
		for a := range m.Alphabet {
			next := transform.NewBitset(n)
			work := words
			for q := range sets[i].All() {
				for _, r := range m.Delta[q][a] {
					next.Set(r)
				}
				work += int64(len(m.Delta[q][a]) + len(m.Eps[q]))
			}
			if err := b.Step(work); err != nil {
				return nil, err
			}
			j, err := get(m.closure(next))
			if err != nil {
				return nil, err
			}
			row[a] = j
		}
		d.Delta = append(d.Delta, row)
		d.Accept = append(d.Accept, acc)
		d.States = append(d.States, "S"+strconv.Itoa(i))
	}
	return d, nil
}

// closure adds to s every state reachable by ε-moves and returns it.
func (m *NFA) closure(s transform.Bitset) transform.Bitset {
	stack := []int{}
	for q := range s.All() {
		stack = append(stack, q)
	}
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, r := range m.Eps[q] {
			if !s.Has(r) {
				s.Set(r)
				stack = append(stack, r)
			}
		}
	}
	return s
}

// NFA returns d viewed as a nondeterministic automaton.
func (d *DFA) NFA() *NFA {
	m := NewNFA(d.Alphabet, d.NumStates())
	m.Start = []int{d.Start}
	copy(m.Accept, d.Accept)
	for q, row := range d.Delta {
		for a, r := range row {
			m.AddTransition(q, a, r)
		}
	}
	return m
}
