package transformer

import (
	"errors"
	"fmt"
	"math/big"
)

// Activations are the final activation vectors of a forward pass. The
// fast pass stores each distinct vector once (Lemma 4.3: there are finitely
// many) with the class of every position; the dense pass stores one vector
// per position. Vectors are kept as float64 when the pass computed exactly
// in float64, and converted to exact rationals on demand.
type Activations struct {
	class    classIDs
	classMap []int32     // stored id → class, nil for the identity
	floats   [][]float64 // per class, when computed in float64
	exact    []Vec       // per class, computed exactly or converted lazily
}

func newActivations(class classIDs, floats [][]float64, exact []Vec) *Activations {
	if exact == nil {
		exact = make([]Vec, len(floats))
	}
	return &Activations{class: class, floats: floats, exact: exact}
}

// Len returns the number of positions.
func (a *Activations) Len() int { return a.class.len() }

// NumClasses returns the number of distinct vectors stored.
func (a *Activations) NumClasses() int { return len(a.exact) }

// ClassOf returns the index of the stored vector of 0-based position i.
func (a *Activations) ClassOf(i int) int {
	if a.classMap != nil {
		return int(a.classMap[a.class.get(i)])
	}
	return int(a.class.get(i))
}

// Class returns stored vector k exactly.
func (a *Activations) Class(k int) Vec {
	if a.exact[k] == nil {
		a.exact[k] = floatsToVec(a.floats[k])
	}
	return a.exact[k]
}

// At returns the final activation at 0-based position i exactly.
func (a *Activations) At(i int) Vec { return a.Class(a.ClassOf(i)) }

// SameAt reports whether a and b hold the same vector at position i of a
// and position j of b.
func (a *Activations) SameAt(i int, b *Activations, j int) bool {
	if a.floats != nil && b.floats != nil {
		x, y := a.floats[a.ClassOf(i)], b.floats[b.ClassOf(j)]
		for k := range x {
			if x[k] != y[k] {
				return false
			}
		}
		return len(x) == len(y)
	}
	x, y := a.At(i), b.At(j)
	if len(x) != len(y) {
		return false
	}
	for k := range x {
		if x[k].Cmp(y[k]) != 0 {
			return false
		}
	}
	return true
}

// decide applies the output layer to x: accept iff Weight·x + Bias ≥ 0.
func (m *Model) decide(x Vec) bool {
	if m.Output.Weight == nil {
		return false
	}
	return m.outputScore(x).Sign() >= 0
}

// OutputScore returns Weight·x_n + Bias for the last position of a, the
// scalar the acceptor thresholds at 0 (±1/2 for compiled models).
func (m *Model) OutputScore(a *Activations) *big.Rat { return m.outputScore(a.At(a.Len() - 1)) }

// outputScore returns Weight·x + Bias.
func (m *Model) outputScore(x Vec) *big.Rat {
	s := m.Output.Weight.Dot(x)
	return s.Add(s, m.Output.Bias)
}

// ErrEmptyWord is returned for the empty word: transformers read Σ⁺.
var ErrEmptyWord = errors.New("the empty word has no last position (transformers read non-empty words)")

// checkWord validates the symbol indices of w.
func (m *Model) checkWord(w []int) error {
	if len(w) == 0 {
		return ErrEmptyWord
	}
	for i, s := range w {
		if s < 0 || s >= len(m.Alphabet) {
			return fmt.Errorf("position %d: symbol index %d is not in the alphabet (size %d)", i+1, s, len(m.Alphabet))
		}
	}
	return nil
}
