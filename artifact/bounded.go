package artifact

import (
	"fmt"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
)

// maxBoundedWords bounds the number of words a bounded equivalence check
// runs (both inputs on each).
var maxBoundedWords = budget.Define("bounded-words", 1<<24, "words",
	"words run by a bounded equivalence check (equiv --up-to N): every word up to length N")

// EquivUpTo compares x and y on every non-empty word up to length n over
// the union of their alphabets, by running both (a bounded check, not a
// proof: the languages may still differ on longer words). It is the check
// for inputs whose languages need not be regular, such as programs with
// the Mid predicate. When they differ, Word is a shortest word on which they
// disagree, first in the order of the merged alphabet.
func EquivUpTo(b *budget.Budget, x, y Artifact, n int) (*EquivResult, error) {
	if n < 1 {
		return nil, fmt.Errorf("the bound %d of a bounded check must be at least 1", n)
	}
	alpha := automata.MergeAlphabets(x.Alphabet(), y.Alphabet())
	k := int64(len(alpha))
	total, layer := int64(0), int64(1)
	for range n {
		layer *= k
		total += layer
		if err := b.Check(maxBoundedWords, total, fmt.Sprintf("the list of words up to length %d over %d symbols", n, k)); err != nil {
			return nil, err
		}
	}
	r := &EquivResult{Equal: true, Alphabet: alpha}
	w := []int{}
	for length := 1; length <= n; length++ {
		w = append(w[:0], make([]int, length)...)
		for {
			if err := b.Step(int64(length)); err != nil {
				return nil, err
			}
			ax, err := acceptsIn(x, alpha, w)
			if err != nil {
				return nil, err
			}
			ay, err := acceptsIn(y, alpha, w)
			if err != nil {
				return nil, err
			}
			if ax != ay {
				r.Equal, r.Word, r.FirstAccepts = false, append([]int(nil), w...), ax
				return r, nil
			}
			// The next word of this length, last symbol fastest.
			i := length - 1
			for i >= 0 && w[i] == len(alpha)-1 {
				w[i] = 0
				i--
			}
			if i < 0 {
				break
			}
			w[i]++
		}
	}
	return r, nil
}
