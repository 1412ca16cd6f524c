package decompile_test

import (
	"fmt"
	"math/big"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/position"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/decompile"
)

// A one-layer model over {a, b} that accepts iff the symbol before the
// last one is a: its only head (strict future mask, rightmost, constant
// score) copies coordinate Q_a of the previous position into prev_a.
func ExampleDecompile() {
	alpha, _ := alphabet.New("a", "b")
	n := func(x int64) *big.Rat { return big.NewRat(x, 1) }
	zero := func() transformer.Matrix {
		m := make(transformer.Matrix, 3)
		for r := range m {
			m[r] = transformer.Vec{n(0), n(0), n(0)}
		}
		return m
	}
	value := zero()
	value[2][0] = n(1) // prev_a += Q_a(j)
	m := &transformer.Model{
		Alphabet:  alpha,
		Width:     3,
		Labels:    []string{"Q_a", "one", "prev_a"},
		Embedding: []transformer.Vec{{n(1), n(1), n(0)}, {n(0), n(1), n(0)}},
		Layers: []transformer.Layer{{Heads: []transformer.Head{{
			Mask: position.MaskFuture, Tiebreak: position.Rightmost, Score: zero(), Value: value,
		}}}},
		Output: transformer.Output{Weight: transformer.Vec{n(0), n(0), n(1)}, Bias: big.NewRat(-1, 2)},
	}
	p, err := decompile.Decompile(nil, m, decompile.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(brasp.Format(p))
	// Output:
	// Q_a(i)
	// Q_b(i)
	// prev_a(i) := rightmost [j<i, 1] Q_a(j) : 0
}
