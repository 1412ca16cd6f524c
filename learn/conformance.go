package learn

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/brasp-dev/brasp/budget"
)

// Conformance is the equivalence oracle of a black box: a test suite,
// guided by the hypothesis, asked through the cache (so a word is never
// asked twice across rounds), that returns the shortest word of the suite
// on which the black box and the hypothesis disagree. The suite is
//
//   - every non-empty word up to length Length;
//   - the HSI suite for Extra extra states: access(q)·x·t for every state
//     q, every x of length at most Extra+1 and every test t of the state
//     the hypothesis reaches on access(q)·x (harmonised state identifiers:
//     complete against every black box with at most Extra more states than
//     the hypothesis that agrees with the suite);
//   - Random words access(q)·x·t with q uniform, x of geometric length
//     with mean RandomMean, letters uniform, and t a uniform test of the
//     state reached.
//
// A verdict is "agrees with the black box on ...": what was tested, never
// "equivalent".
type Conformance struct {
	Cache      *Cache
	Length     int
	Extra      int
	Random     int
	RandomMean int
	// MaxLength, when positive, keeps every word within that length.
	MaxLength int
	rng       *rand.Rand
	verdict   string
}

// NewConformance returns the suite with its settings; rng seeds 1, 2.
func NewConformance(c *Cache, length, extra, random, mean, maxLength int) *Conformance {
	return &Conformance{Cache: c, Length: length, Extra: extra, Random: random, RandomMean: mean,
		MaxLength: maxLength, rng: rand.New(rand.NewPCG(1, 2))}
}

// Counterexample runs the suite on h.
func (c *Conformance) Counterexample(b *budget.Budget, h *Hypothesis) ([]int, bool, error) {
	k := len(h.Alphabet)
	var all, hsi, random [][]int
	// Every word up to Length, shortest first.
	level := [][]int{{}}
	for n := 1; n <= c.Length; n++ {
		var next [][]int
		for _, u := range level {
			for a := range k {
				next = append(next, concat(u, []int{a}))
			}
		}
		all = append(all, next...)
		level = next
	}
	// HSI, for 0 extra states first (mostly words the learner asked).
	for extra := range c.Extra + 1 {
		hsi = hsi[:0]
		for q := range h.NumStates() {
			mids := [][]int{{}}
			for range extra + 1 {
				var next [][]int
				for _, x := range mids {
					for a := range k {
						next = append(next, concat(x, []int{a}))
					}
				}
				mids = append(mids, next...)
			}
			for _, x := range mids {
				u := concat(h.Access[q], x)
				r := h.Run(h.Start, u)
				hsi = append(hsi, u)
				for _, t := range h.Tests(r) {
					hsi = append(hsi, concat(u, t))
				}
			}
		}
		if w, found, err := c.test(b, h, slices.Concat(all, hsi)); found || err != nil {
			return w, found, err
		}
	}
	for range c.Random {
		q := c.rng.IntN(h.NumStates())
		u := append([]int{}, h.Access[q]...)
		for c.rng.IntN(c.RandomMean+1) != 0 {
			u = append(u, c.rng.IntN(k))
		}
		if ts := h.Tests(h.Run(h.Start, u)); len(ts) > 0 {
			u = concat(u, ts[c.rng.IntN(len(ts))])
		}
		random = append(random, u)
	}
	if w, found, err := c.test(b, h, random); found || err != nil {
		return w, found, err
	}
	var parts []string
	if c.Length > 0 {
		parts = append(parts, fmt.Sprintf("all %d words up to length %d", len(all), c.Length))
	}
	parts = append(parts, fmt.Sprintf("the HSI suite for %d extra states (%d words)", c.Extra, len(hsi)))
	if c.Random > 0 {
		parts = append(parts, fmt.Sprintf("%d random words (access word, geometric middle of mean length %d, a test)", c.Random, c.RandomMean))
	}
	c.verdict = "agrees with the black box on " + strings.Join(parts, ", ")
	if c.MaxLength > 0 {
		c.verdict += fmt.Sprintf(", all within length %d", c.MaxLength)
	}
	return nil, false, nil
}

// test asks the words of suite within the length bound and returns the
// shortest word on which the black box and h disagree.
func (c *Conformance) test(b *budget.Budget, h *Hypothesis, suite [][]int) ([]int, bool, error) {
	kept := suite[:0]
	for _, w := range suite {
		if len(w) > 0 && (c.MaxLength <= 0 || len(w) <= c.MaxLength) {
			kept = append(kept, w)
		}
	}
	if err := c.Cache.Ask(b, kept); err != nil {
		return nil, false, err
	}
	var best []int
	for _, w := range kept {
		if d := c.disagreement(h, w); d != nil && (best == nil || len(d) < len(best)) {
			best = d
		}
	}
	return best, best != nil, nil
}

// disagreement returns the shortest prefix of w (w itself without prefix
// answers) whose known verdict differs from h's, or nil.
func (c *Conformance) disagreement(h *Hypothesis, w []int) []int {
	q := h.Start
	for i, a := range w {
		q = h.Delta[q][a]
		if acc, ok := c.Cache.Known(w[:i+1]); ok && acc != h.Accept[q] {
			return append([]int{}, w[:i+1]...)
		}
	}
	return nil
}

// Verdict says what the last suite that found no counterexample tested.
func (c *Conformance) Verdict() string { return c.verdict }
