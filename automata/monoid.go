package automata

import (
	"github.com/brasp-dev/brasp/automata/internal/transform"
	"github.com/brasp-dev/brasp/budget"
)

// letterMaps returns the transformation of each symbol.
func (d *DFA) letterMaps() [][]int {
	maps := make([][]int, len(d.Alphabet))
	for a := range maps {
		maps[a] = make([]int, d.NumStates())
		for q := range d.Delta {
			maps[a][q] = d.Delta[q][a]
		}
	}
	return maps
}

// WordTransformation returns the transformation q ↦ q·w of w.
func (d *DFA) WordTransformation(w []int) []int {
	t := transform.Identity(d.NumStates())
	for q := range t {
		t[q] = d.Run(q, w)
	}
	return t
}

// Monoid is the transition monoid of a DFA: the set of transformations of all
// words, each with a shortest (then short-lex first) word inducing it. On the
// minimal DFA it is the syntactic monoid of the language.
type Monoid struct {
	Elements [][]int // Elements[0] is the identity, the transformation of ε
	Words    [][]int // Words[i] induces Elements[i]
}

// elementBytes is what one monoid element of an n-state DFA costs with a
// word of length w: the transformation, its map key and the word.
func elementBytes(n, w int) int64 {
	return int64(n)*(intBytes+keyBytes) + int64(w)*intBytes + 2*sliceBytes + mapEntryBytes
}

// TransitionMonoid enumerates the transition monoid of d breadth-first over
// words in short-lex order. Its elements are charged to the budget's
// monoid-bytes limit and its compositions to b.Step; past either it stops
// with the budget's error.
func TransitionMonoid(b *budget.Budget, d *DFA) (*Monoid, error) {
	n := d.NumStates()
	letters := d.letterMaps()
	meter := b.Meter(MonoidBytes, "the transition monoid")
	if err := meter.Add(elementBytes(n, 0)); err != nil {
		return nil, err
	}
	m := &Monoid{Elements: [][]int{transform.Identity(n)}, Words: [][]int{{}}}
	seen := map[string]bool{transform.Key(m.Elements[0]): true}
	for i := 0; i < len(m.Elements); i++ {
		for a, l := range letters {
			if err := b.Step(int64(n)); err != nil {
				return nil, err
			}
			t := transform.Compose(m.Elements[i], l)
			key := transform.Key(t)
			if seen[key] {
				continue
			}
			if err := meter.Add(elementBytes(n, len(m.Words[i])+1)); err != nil {
				return nil, err
			}
			seen[key] = true
			m.Elements = append(m.Elements, t)
			m.Words = append(m.Words, append(append([]int{}, m.Words[i]...), a))
		}
	}
	return m, nil
}

// Aperiodic reports whether every element m satisfies m^n = m^(n+1) for some
// n, by brute force on every element; it returns the index of a periodic
// element otherwise. This is the textbook definition, kept as a reference for
// the faster orbit-based test in Classify.
func (m *Monoid) Aperiodic() (bool, int) {
	for i, e := range m.Elements {
		if cyclePoint(e) >= 0 {
			return false, i
		}
	}
	return true, -1
}

// cyclePoint returns a state on a cycle of length > 1 of the functional graph
// of t (so that t generates a nontrivial group), or -1 if every cycle of t is
// a fixed point (t^n = t^(n+1) for n = number of states).
func cyclePoint(t []int) int {
	n := len(t)
	// After n steps every state is on its cycle.
	for q := range t {
		x := q
		for range n {
			x = t[x]
		}
		if t[x] != x {
			return x
		}
	}
	return -1
}

// cycleLength returns the length of the cycle of t through x (x must be on a
// cycle).
func cycleLength(t []int, x int) int {
	k, y := 1, t[x]
	for y != x {
		y, k = t[y], k+1
	}
	return k
}
