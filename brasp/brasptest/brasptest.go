// Package brasptest generates random B-RASP programs and input words for
// property tests: the reference ≡ fast interpreter test of package brasp, and
// the equivalence tests of the converters (LTL, transformers, exact
// semantics, normal forms) that compare a program with its translation.
//
// A typical test enumerates programs and words:
//
//	rng := rand.New(rand.NewPCG(1, 2))
//	for range 1000 {
//		p := brasptest.RandomProgram(rng, brasptest.Options{Alphabet: 2, Ops: 6})
//		brasptest.AllWords(2, 7, func(w []int) {
//			// compare p.RunReference(w) with the representation under test
//		})
//	}
//
// Programs are built with brasp.NewBuilder and so are checked exactly like
// parsed ones. The generator is deterministic given the state of rng.
package brasptest

import (
	"fmt"
	"math/rand/v2"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/internal/defaults"
	"github.com/brasp-dev/brasp/internal/testkit"
	"github.com/brasp-dev/brasp/position"
)

// Options configures RandomProgram. The zero value is usable: a binary
// alphabet, 6 operations, expressions of up to 4 leaves, every mask and
// tie-break, scores and values reading at both i and j, no position
// predicates.
type Options struct {
	// Alphabet is the number of input symbols, named a, b, c, ... (default 2;
	// at most 26).
	Alphabet int
	// Ops is the number of operations after the initial vectors (default 6).
	Ops int
	// ExprSize bounds the number of leaves (references and constants) of each
	// generated expression (default 4).
	ExprSize int
	// Attention is the probability that an operation is an attention
	// operation rather than a position-wise one (default 0.6; a negative
	// value means 0).
	Attention float64
	// Masks restricts the masks used (nil: all five, strict and non-strict).
	Masks []position.Mask
	// Tiebreaks restricts the tie-breaks used (nil: leftmost and rightmost).
	Tiebreaks []position.Tiebreak
	// JOnly makes scores and values read only at j (the unary-free form most
	// constructions of the paper use); otherwise they mix (i) and (j).
	JOnly bool
	// Predicates declares the position predicates first, last and one or two
	// MOD_r_m (m ≤ 4) as initial vectors that operations may read.
	Predicates bool
	// Mid also declares the (non-regular) predicate Mid.
	Mid bool
	// Propositions, when positive, makes a program over that many
	// propositions, named a, b, c, ... (at most 26), instead of one over
	// symbols: it reads traces (RandomSteps), not words.
	Propositions int
}

func (o Options) withDefaults() Options {
	defaults.Positive(&o.Alphabet, 2)
	o.Alphabet = min(o.Alphabet, 26)
	defaults.Positive(&o.Ops, 6)
	defaults.Positive(&o.ExprSize, 4)
	if o.Attention == 0 {
		o.Attention = 0.6
	}
	if o.Masks == nil {
		o.Masks = position.Masks
	}
	if o.Tiebreaks == nil {
		o.Tiebreaks = []position.Tiebreak{position.Leftmost, position.Rightmost}
	}
	return o
}

// Alphabet returns the alphabet of k symbols a, b, c, ... that RandomProgram
// uses (k between 1 and 26).
func Alphabet(k int) alphabet.Alphabet { return testkit.Letters(k) }

// RandomProgram returns a random checked acceptor whose output is its last
// operation. Operations are position-wise or attention operations (in the
// proportion opts.Attention) with random masks, tie-breaks and Boolean
// expressions over all earlier vectors; defaults read only at i, scores and
// values at i and j unless opts.JOnly.
func RandomProgram(rng *rand.Rand, opts Options) *brasp.Program {
	o := opts.withDefaults()
	b := brasp.NewBuilder(Alphabet(o.Alphabet))
	if o.Propositions > 0 {
		b = brasp.NewPropositionBuilder(Alphabet(min(o.Propositions, 26)))
	}
	if o.Predicates {
		b.Predicate(brasp.Predicate{Kind: brasp.First})
		b.Predicate(brasp.Predicate{Kind: brasp.Last})
		for range 1 + rng.IntN(2) {
			m := 2 + rng.IntN(3)
			b.Predicate(brasp.Predicate{Kind: brasp.Mod, R: rng.IntN(m), M: m})
		}
	}
	if o.Mid {
		b.Predicate(brasp.Predicate{Kind: brasp.Mid})
	}
	g := &gen{rng: rng, b: b, size: o.ExprSize}
	for k := range o.Ops {
		name := fmt.Sprintf("P%d", k)
		if rng.Float64() >= o.Attention {
			b.Positionwise(name, g.expr(false, true))
			continue
		}
		tb := o.Tiebreaks[rng.IntN(len(o.Tiebreaks))]
		m := o.Masks[rng.IntN(len(o.Masks))]
		score := g.expr(true, !o.JOnly)
		value := g.expr(true, !o.JOnly)
		def := g.expr(false, true)
		b.Attend(name, tb, m, score, value, def)
	}
	p, err := b.Program()
	if err != nil {
		panic("brasptest: generated an invalid program: " + err.Error())
	}
	return p
}

type gen struct {
	rng  *rand.Rand
	b    *brasp.Builder
	size int
}

// expr returns a random expression with at most g.size leaves, reading
// vectors at j (if useJ) and at i (if useI).
func (g *gen) expr(useJ, useI bool) brasp.Expr {
	return g.tree(1+g.rng.IntN(g.size), useJ, useI)
}

func (g *gen) tree(leaves int, useJ, useI bool) brasp.Expr {
	var e brasp.Expr
	if leaves <= 1 {
		e = g.leaf(useJ, useI)
	} else {
		l := 1 + g.rng.IntN(leaves-1)
		x, y := g.tree(l, useJ, useI), g.tree(leaves-l, useJ, useI)
		if g.rng.IntN(2) == 0 {
			e = brasp.And(x, y)
		} else {
			e = brasp.Or(x, y)
		}
	}
	if g.rng.IntN(4) == 0 {
		e = brasp.Not(e)
	}
	return e
}

func (g *gen) leaf(useJ, useI bool) brasp.Expr {
	if g.rng.IntN(10) == 0 || (!useJ && !useI) {
		return brasp.Bool(g.rng.IntN(2) == 0)
	}
	// Prefer recent vectors, so that programs have depth.
	n := g.b.Len()
	k := n - 1 - min(g.rng.IntN(n), g.rng.IntN(n))
	atJ := useJ && (!useI || g.rng.IntN(3) > 0)
	if atJ {
		return g.b.J(k)
	}
	return g.b.I(k)
}

// RandomWord returns a uniformly random word of length n over the symbols
// 0, ..., alpha-1.
func RandomWord(rng *rand.Rand, alpha, n int) []int {
	w := make([]int, n)
	for i := range w {
		w[i] = rng.IntN(max(alpha, 1))
	}
	return w
}

// RandomSteps returns a random trace of n steps over k propositions, each
// true with probability 1/2, as bit sets (brasp.Program.RunSteps).
func RandomSteps(rng *rand.Rand, k, n int) [][]uint64 {
	steps := make([][]uint64, n)
	for i := range steps {
		s := make([]uint64, (k+63)/64)
		for p := range k {
			if rng.IntN(2) == 1 {
				s[p/64] |= 1 << (p % 64)
			}
		}
		steps[i] = s
	}
	return steps
}

// AllWords calls f on every word over the symbols 0, ..., alpha-1 of length
// 1 to maxLen (the non-empty words, Σ⁺), shortest first and in
// lexicographic order within a length. f receives the same backing array on
// every call: it must copy the word to keep it.
func AllWords(alpha, maxLen int, f func([]int)) { testkit.EachWord(alpha, 1, maxLen, f) }
