package learn

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/brasp-dev/brasp/budget"
)

// The sizes of a conformance suite follow from its settings and the
// alphabet: every word up to length L is k + k² + … + k^L words, the HSI
// suite for K extra states asks about k^(K+1) words per state, a round of
// random words asks Random (or the PAC count of its round) words whose
// mean length is RandomMean (PACMean). Check computes them before the
// teacher is started, and each round computes its own again before it
// builds anything (the PAC count grows with the round, the HSI suite with
// the hypothesis), so that a setting whose suite cannot fit is refused by
// the limit it would pass, not by running out of memory.

// Check refuses settings whose suite cannot be asked within b's limits
// over k letters: the words of the exhaustive stage, the HSI suite of the
// first hypothesis and the random words of the first round must each be
// within learn-queries, and the answers to the random words of the first
// round (their mean length times their number) within learn-bytes. The
// settings themselves must be in range (the command checks its flags
// first and names them).
func (c *Conformance) Check(b *budget.Budget, k int) error {
	switch {
	case k < 1:
		return fmt.Errorf("no letters")
	case c.Length < 0 || c.Extra < 0 || c.Random < -1 || c.RandomMean < 0 || c.PACMean < 0 || c.MaxLength < 0:
		return fmt.Errorf("a negative length or count")
	case math.IsNaN(c.Epsilon) || c.Epsilon < 0 || c.Epsilon >= 1:
		return fmt.Errorf("epsilon %g is not in [0, 1)", c.Epsilon)
	case c.Epsilon > 0 && (math.IsNaN(c.Delta) || c.Delta <= 0 || c.Delta >= 1):
		return fmt.Errorf("delta %g is not in (0, 1)", c.Delta)
	}
	length := c.Length
	if c.MaxLength > 0 {
		length = min(length, c.MaxLength)
	}
	if err := checkCount(b, maxQueries, WordsUpTo(k, length), fmt.Sprintf("the test of every word up to length %d over %d letters", length, k)); err != nil {
		return err
	}
	if err := checkCount(b, maxQueries, hsiWords(1, k, c.Extra), fmt.Sprintf("the HSI suite for %d extra states over %d letters", c.Extra, k)); err != nil {
		return err
	}
	words, mean, what := c.randomCount(1, 1, false), c.RandomMean, "random words"
	test := "the random test of the first round"
	if c.Epsilon > 0 {
		mean, what, test = c.PACMean, "PAC test words", "the PAC test of the first round"
	}
	if err := checkCount(b, maxQueries, words, test); err != nil {
		return err
	}
	// A word's answers cost a trie node per letter (nodeBytes); the
	// round's words are about words × (mean + 1) letters.
	letters := saturatingMul(words, int64(mean)+1)
	return checkCount(b, maxCacheBytes, saturatingMul(letters, nodeBytes(k)),
		fmt.Sprintf("the memory for the answers to the first round's %d %s (mean length %d, about %s letters)", words, what, mean, approx(letters)))
}

// checkCount is b.Check for a count that may have saturated at
// math.MaxInt64, which the message then gives as "more than".
func checkCount(b *budget.Budget, l *budget.Limit, n int64, what string) error {
	if n == math.MaxInt64 && n > b.Max(l) {
		return &budget.Error{Limit: l, Value: b.Max(l), What: what + " (more than 9.2e18 " + l.Unit + ")"}
	}
	return b.Check(l, n, what)
}

// WordsUpTo is the number of non-empty words of length at most n over k
// letters, k + k² + … + k^n, or math.MaxInt64 when it is larger.
func WordsUpTo(k, n int) int64 {
	total, level := int64(0), int64(1)
	for range n {
		level = saturatingMul(level, int64(k))
		if total > math.MaxInt64-level {
			return math.MaxInt64
		}
		total += level
	}
	return total
}

// hsiWords is the number of middles x of the HSI suite for extra extra
// states of a hypothesis of n states over k letters, counted as the suite
// builds them (each of the extra+1 rounds extends every middle so far by
// every letter, keeping the shorter ones too): n·(k+1)^(extra+1), before
// the tests that follow each.
func hsiWords(n, k, extra int) int64 {
	total := int64(n)
	for range extra + 1 {
		total = saturatingMul(total, int64(k)+1)
	}
	return total
}

// randomCount is the number of stage-4 words of round i for a hypothesis
// of n states (see Conformance), saturating at math.MaxInt64; prefix
// tells whether the teacher answers per prefix.
func (c *Conformance) randomCount(i, n int, prefix bool) int64 {
	if c.Epsilon > 0 {
		f := math.Ceil((math.Log(1/c.Delta) + float64(i)*math.Ln2) / c.Epsilon)
		if !(f < math.MaxInt64) {
			return math.MaxInt64
		}
		return int64(f)
	}
	if c.Random >= 0 {
		return int64(c.Random)
	}
	total := RandomBase + RandomPerState*n/2
	if !prefix {
		total *= RandomPlain
	}
	return int64(max(total, RandomHardest*c.hardest))
}

// geometric draws the number of failures before the first success of a
// coin that succeeds with probability 1/(mean+1): mean on average, drawn
// at once (the length of a word is known before the word is built).
func geometric(rng *rand.Rand, mean int) int64 {
	if mean <= 0 {
		return 0
	}
	u := 1 - rng.Float64() // in (0, 1]
	f := math.Floor(math.Log(u) / math.Log1p(-1/(float64(mean)+1)))
	if !(f < math.MaxInt64) {
		return math.MaxInt64
	}
	return int64(f)
}

func saturatingMul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

func saturatingAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// approx writes n in a short form for messages: 1234 or 1.2e+15.
func approx(n int64) string {
	if n < 1e6 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%.2g", float64(n))
}
