package automata

import (
	"fmt"
	"strconv"

	"github.com/brasp-dev/brasp/alphabet"
)

// DFA is a complete deterministic finite automaton over a named alphabet.
// States are numbered 0..len(States)-1; every state has exactly one successor
// for every symbol, so the automaton reads every word of Σ* (ε included: it is
// accepted iff the start state accepts).
type DFA struct {
	Alphabet alphabet.Alphabet
	States   []string // distinct state names, indexed by state number
	Start    int
	Accept   []bool  // Accept[q]: q is accepting
	Delta    [][]int // Delta[q][a]: successor of state q on symbol index a
}

// NewDFA returns an automaton with n states named q0..q(n-1), start state 0,
// no accepting state and every transition going to state 0; callers fill in
// Delta and Accept.
func NewDFA(alpha alphabet.Alphabet, n int) *DFA {
	d := &DFA{Alphabet: alpha, States: make([]string, n), Accept: make([]bool, n), Delta: make([][]int, n)}
	for q := range n {
		d.States[q] = "q" + strconv.Itoa(q)
		d.Delta[q] = make([]int, len(alpha))
	}
	return d
}

// NumStates returns the number of states.
func (d *DFA) NumStates() int { return len(d.Delta) }

// Run returns the state reached from q by reading w.
func (d *DFA) Run(q int, w []int) int {
	for _, a := range w {
		q = d.Delta[q][a]
	}
	return q
}

// Accepts reports whether the automaton accepts w (the empty word included).
func (d *DFA) Accepts(w []int) bool { return d.Accept[d.Run(d.Start, w)] }

// Validate checks the structural invariants: a non-empty alphabet, at least one
// state, distinct non-empty state names, a start state in range and a complete
// transition table pointing to existing states.
func (d *DFA) Validate() error {
	n := len(d.Delta)
	if len(d.Alphabet) == 0 {
		return fmt.Errorf("automaton has an empty alphabet")
	}
	if n == 0 {
		return fmt.Errorf("automaton has no states")
	}
	if len(d.States) != n || len(d.Accept) != n {
		return fmt.Errorf("automaton has %d transition rows, %d names and %d acceptance flags", n, len(d.States), len(d.Accept))
	}
	if d.Start < 0 || d.Start >= n {
		return fmt.Errorf("start state %d out of range", d.Start)
	}
	seen := make(map[string]bool, n)
	for q, name := range d.States {
		if name == "" {
			return fmt.Errorf("state %d has an empty name", q)
		}
		if seen[name] {
			return fmt.Errorf("duplicate state name %s", alphabet.Quote(name))
		}
		seen[name] = true
		if len(d.Delta[q]) != len(d.Alphabet) {
			return fmt.Errorf("state %s has %d transitions, want %d", alphabet.Quote(name), len(d.Delta[q]), len(d.Alphabet))
		}
		for a, r := range d.Delta[q] {
			if r < 0 || r >= n {
				return fmt.Errorf("transition %s %s leads to state %d out of range", alphabet.Quote(name), alphabet.Quote(d.Alphabet[a]), r)
			}
		}
	}
	return nil
}

// Clone returns a deep copy of d.
func (d *DFA) Clone() *DFA {
	c := &DFA{
		Alphabet: append(alphabet.Alphabet(nil), d.Alphabet...),
		States:   append([]string(nil), d.States...),
		Start:    d.Start,
		Accept:   append([]bool(nil), d.Accept...),
		Delta:    make([][]int, len(d.Delta)),
	}
	for q, row := range d.Delta {
		c.Delta[q] = append([]int(nil), row...)
	}
	return c
}

// Equal reports whether d and e are identical: same alphabet, same state
// names in the same order, same start, acceptance and transitions.
func (d *DFA) Equal(e *DFA) bool {
	if !d.Alphabet.Equal(e.Alphabet) || len(d.Delta) != len(e.Delta) || d.Start != e.Start {
		return false
	}
	for q := range d.Delta {
		if d.States[q] != e.States[q] || d.Accept[q] != e.Accept[q] {
			return false
		}
		for a := range d.Delta[q] {
			if d.Delta[q][a] != e.Delta[q][a] {
				return false
			}
		}
	}
	return true
}

// Reachable returns, for every state, whether it is reachable from the start.
func (d *DFA) Reachable() []bool {
	seen := make([]bool, d.NumStates())
	seen[d.Start] = true
	queue := []int{d.Start}
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		for _, r := range d.Delta[q] {
			if !seen[r] {
				seen[r] = true
				queue = append(queue, r)
			}
		}
	}
	return seen
}

// ShortestWordTo returns, for every state, a shortest word leading from the
// start state to it (in short-lex order), or nil for unreachable states. The
// start state gets the empty, non-nil word.
func (d *DFA) ShortestWordTo() [][]int {
	words := make([][]int, d.NumStates())
	words[d.Start] = []int{}
	queue := []int{d.Start}
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		for a, r := range d.Delta[q] {
			if words[r] == nil {
				words[r] = append(append([]int{}, words[q]...), a)
				queue = append(queue, r)
			}
		}
	}
	return words
}

// uniqueName returns base, or base followed by a number, whichever is first
// not in taken.
func uniqueName(base string, taken map[string]bool) string {
	if !taken[base] {
		return base
	}
	for k := 1; ; k++ {
		if s := base + strconv.Itoa(k); !taken[s] {
			return s
		}
	}
}
