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
// asked twice across rounds). A round tries, cheapest first, and stops at
// the first stage that finds words on which the black box and the
// hypothesis disagree (the shortest such words of that stage):
//
//  1. every word the black box has answered so far (free: the cache);
//  2. every non-empty word up to length Length, and access(q)·a·t for every
//     state q, letter a and test t of the state the hypothesis reaches;
//  3. the newest counterexamples with every run of one letter lengthened
//     by 1, 2 and 3 letters (Conformance.pumped): the next members of
//     the family a counter grows along (a⁴b⁴ → a⁵b⁵), which random words
//     almost never hit;
//  4. Random words (Conformance.guided): access(q)·a·x·t with q·a each
//     transition in turn, x of geometric length with mean RandomMean and
//     uniform letters, t a uniform test of the state reached (or none,
//     half of the time); or short loops around the states found last.
//     They are asked in batches that double from 8 words, so a round that
//     finds a counterexample early asks little more than it needed;
//     Random new words in all (when negative: RandomBase +
//     RandomPerState/2 per state, RandomPlain times that without prefix
//     answers, at least RandomHardest times the new words the hardest
//     counterexample of this stage so far took), drawing until that many
//     words the cache had not answered were asked, or RandomDraws times
//     as many words were drawn (none when every word up to MaxLength
//     was asked in stage 2: a draw could make no other);
//  5. the HSI suite for Extra extra states: access(q)·x·t for every
//     state q, every x of length at most Extra+1 and every test t of the
//     state the hypothesis reaches on access(q)·x (harmonised state
//     identifiers: complete against every black box with at most Extra
//     more states than a hypothesis that passes it).
//
// With Epsilon > 0 stage 4 is Angluin's PAC test instead: round i asks
// ⌈(ln(1/δ) + i·ln 2)/ε⌉ words drawn from one fixed distribution (length
// 1 + a geometric number with mean PACMean, letters uniform), so that with
// probability at least 1−δ a hypothesis that passes a round differs from
// the black box on a set of words of probability at most ε under that
// distribution.
//
// A verdict is "agrees with the black box on ...": what was tested, never
// "equivalent".
type Conformance struct {
	Cache      *Cache
	Length     int
	Extra      int
	Random     int
	RandomMean int
	// Epsilon and Delta, when Epsilon > 0, make stage 4 the PAC test;
	// PACMean is the mean length of its words beyond the first letter.
	Epsilon, Delta float64
	PACMean        int
	// MaxLength, when positive, is the bound on the length of words the
	// suite draws its words within and is sized for; the cache keeps it
	// (Cache.SetMaxLength), whoever builds a word.
	MaxLength int
	rng       *rand.Rand
	verdict   string
	round     int
	// cover is the transitions q·k+a of the hypothesis in random order,
	// next the one the next uniform draw starts with.
	cover []int
	next  int
	// hardest is the most new words a counterexample of stage 4 took.
	hardest int
	// fresh is the first state that the hypothesis of two rounds ago
	// lacked; states the states of the last two hypotheses.
	fresh  int
	states [2]int
	// thin: the last verdict's suite had no exhaustive part.
	thin bool
	// last is the newest pumpedRecent counterexamples (a family's newest
	// members are among them).
	last [][]int
}

// NewConformance returns the suite with its settings; rng seeds 1, 2.
func NewConformance(c *Cache, length, extra, random, mean, maxLength int) *Conformance {
	return &Conformance{Cache: c, Length: length, Extra: extra, Random: random, RandomMean: mean,
		MaxLength: maxLength, rng: rand.New(rand.NewPCG(1, 2))}
}

// The number of stage-4 new random words when Conformance.Random is
// negative: RandomBase + RandomPerState/2·(states of the hypothesis), and
// at least RandomHardest times the new words that the hardest
// counterexample of stage 4 so far took (a state that took many words to
// find says the next one may too).
// A teacher without prefix answers gives one verdict per word where one
// with them gives one per letter, so its words are RandomPlain times as
// many.
var RandomBase, RandomPerState, RandomHardest, RandomPlain = 175, 9, 2, 2

// PACWords is the number of random words of equivalence round i (from 1)
// for Angluin's PAC criterion: ⌈(ln(1/δ) + i·ln 2)/ε⌉, or math.MaxInt64
// when that is larger.
func PACWords(epsilon, delta float64, i int) int64 {
	return (&Conformance{Epsilon: epsilon, Delta: delta}).randomCount(i, 0, false)
}

// Counterexample runs the suite on h.
func (c *Conformance) Counterexamples(b *budget.Budget, h *Hypothesis, most int) ([][]int, error) {
	ws, err := c.counterexamples(b, h, most)
	c.last = append(c.last, ws...)
	c.last = c.last[max(0, len(c.last)-pumpedRecent):]
	return ws, err
}

// pumpedMost is how many letters pumped adds to each run of a
// counterexample, pumpedRecent how many of the newest counterexamples it
// pumps.
const pumpedMost, pumpedRecent = 3, 8

// pumped returns the newest counterexamples with every run of one letter
// lengthened by 1 to pumpedMost letters (a⁴b⁴: a⁵b⁵, a⁶b⁶, a⁷b⁷): at
// most pumpedMost+1 times their letters each.
func (c *Conformance) pumped() [][]int {
	var out [][]int
	for _, last := range c.last {
		if len(last) < 2 {
			continue
		}
		for j := 1; j <= pumpedMost; j++ {
			var w []int
			for i, a := range last {
				w = append(w, a)
				if i+1 == len(last) || last[i+1] != a {
					for range j {
						w = append(w, a)
					}
				}
			}
			out = append(out, w)
		}
	}
	return out
}

// counterexamples is Counterexamples without the bookkeeping of the last
// counterexample.
func (c *Conformance) counterexamples(b *budget.Budget, h *Hypothesis, most int) ([][]int, error) {
	c.round++
	c.fresh, c.states[0], c.states[1] = c.states[0], c.states[1], h.NumStates()
	if c.fresh >= h.NumStates() {
		c.fresh = 0
	}
	if !c.Cache.PerPrefix() {
		// Each word is asked once and brings one bit: a teacher that
		// contradicts itself would go unnoticed (with prefix answers
		// the overlapping prefixes catch it).
		if err := c.Cache.Resample(b, Resample); err != nil {
			return nil, err
		}
	}
	if ws := c.Cache.Disagreements(h.DFA, most); ws != nil {
		return ws, nil
	}
	bound := c.Cache.MaxLength()
	if bound > 0 {
		w, err := acceptsLonger(b, h.DFA, bound)
		if err != nil {
			return nil, err
		}
		if w != nil {
			return [][]int{w}, nil
		}
	}
	c.cover, c.next = nil, 0
	// Every word up to Length, shortest first, asked in batches built as
	// they go (the count is checked first), then the transitions and
	// their tests.
	length := c.Length
	if bound > 0 {
		length = min(length, bound)
	}
	k := len(h.Alphabet)
	all := WordsUpTo(k, length)
	if err := checkCount(b, maxQueries, all, fmt.Sprintf("the test of every word up to length %d over %d letters", length, k)); err != nil {
		return nil, err
	}
	hsi0, err := c.hsi(b, h, 0)
	if err != nil {
		return nil, err
	}
	if ws, err := c.exhaustive(b, h, length, hsi0, most); ws != nil || err != nil {
		return ws, err
	}
	if ws, err := c.test(b, h, c.pumped(), most); ws != nil || err != nil {
		return ws, err
	}
	// With a bound whose words were all asked, every word a random draw
	// could make is answered: stage 4 has nothing left to test.
	var random randomOutcome
	if bound == 0 || length < bound {
		if random, err = c.random(b, h, most); random.ws != nil || err != nil {
			return random.ws, err
		}
	}
	var hsi [][]int
	for extra := 1; extra <= c.Extra; extra++ {
		if hsi, err = c.hsi(b, h, extra); err != nil {
			return nil, err
		}
		if ws, err := c.test(b, h, hsi, most); ws != nil || err != nil {
			return ws, err
		}
	}
	// No counterexample: ask some of the words the hypothesis rests on
	// again (the access words and their tests), so that a teacher that
	// answers inconsistently is caught without prefix answers too.
	if err := c.recheck(b, h); err != nil {
		return nil, err
	}
	var parts []string
	if length > 0 {
		parts = append(parts, fmt.Sprintf("all %d words up to length %d", all, length))
	}
	if c.Extra > 0 {
		parts = append(parts, fmt.Sprintf("the HSI suite for %d extra states (%d words)", c.Extra, len(hsi)))
	} else {
		parts = append(parts, "every transition of the hypothesis followed by its target's tests")
	}
	if len(c.last) > 0 {
		parts = append(parts, fmt.Sprintf("the last %d counterexamples with each run of a letter lengthened by 1 to 3", len(c.last)))
	}
	if random.draws > 0 {
		parts = append(parts, random.what)
	}
	s := c.Cache.stats
	c.verdict = fmt.Sprintf("agrees with the black box on all %d words it answered (the longest of %d letters), among them %s",
		s.MembershipQueries, s.LongestWord, strings.Join(parts, ", "))
	c.thin = length == 0 && c.Extra == 0
	if c.thin {
		c.verdict = fmt.Sprintf("a thin test: no length was tested word by word (not even the %d single letters), so a difference on short words "+
			"can go unseen; it %s", k, c.verdict)
	}
	return nil, nil
}

// Recheck is how many words the last round of a conformance test asks
// again (see Cache.Recheck); Resample how many words answered before every
// round asks again without prefix answers (see Cache.Resample).
var Recheck, Resample = 64, 8

// recheck asks again up to Recheck words among the access words of h
// followed by their tests, drawn at random.
func (c *Conformance) recheck(b *budget.Budget, h *Hypothesis) error {
	var words [][]int
	for q := range h.NumStates() {
		words = append(words, h.Access[q])
		for _, t := range h.Tests(q) {
			words = append(words, concat(h.Access[q], t))
		}
	}
	c.rng.Shuffle(len(words), func(i, j int) { words[i], words[j] = words[j], words[i] })
	kept := words[:0]
	for _, w := range words {
		if _, ok := c.Cache.Known(w); ok && len(w) > 0 && len(kept) < Recheck {
			kept = append(kept, w)
		}
	}
	return c.Cache.Recheck(b, kept)
}

// suiteBatch is the most words of the exhaustive stage or of random
// draws built and asked at once.
const suiteBatch = 1 << 14

// exhaustive asks every word up to length n, shortest first, in batches
// of at most suiteBatch words built as they are asked, the words of extra
// with the last batch, and returns up to most of the shortest words of the
// first batch on which the black box and h disagree (the shortest of all:
// the batches go by length).
func (c *Conformance) exhaustive(b *budget.Budget, h *Hypothesis, n int, extra [][]int, most int) ([][]int, error) {
	k := len(h.Alphabet)
	var batch [][]int
	for m := 1; m <= n; m++ {
		w := make([]int, m) // the next word of length m, in order
		for {
			batch = append(batch, slices.Clone(w))
			if len(batch) == suiteBatch {
				if ws, err := c.test(b, h, batch, most); ws != nil || err != nil {
					return ws, err
				}
				batch = batch[:0]
			}
			i := m - 1
			for i >= 0 && w[i] == k-1 {
				w[i] = 0
				i--
			}
			if i < 0 {
				break
			}
			w[i]++
		}
	}
	return c.test(b, h, append(batch, extra...), most)
}

// hsi returns the HSI suite for extra extra states (see Conformance),
// after checking its size against learn-queries.
func (c *Conformance) hsi(b *budget.Budget, h *Hypothesis, extra int) ([][]int, error) {
	k := len(h.Alphabet)
	if err := checkCount(b, maxQueries, hsiWords(h.NumStates(), k, extra), fmt.Sprintf("the HSI suite for %d extra states of a hypothesis of %d states", extra, h.NumStates())); err != nil {
		return nil, err
	}
	var suite [][]int
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
			suite = append(suite, u)
			for _, t := range h.Tests(r) {
				suite = append(suite, concat(u, t))
			}
		}
	}
	return suite, nil
}

// randomOutcome is what stage 4 of a round did: the counterexamples it
// found, the words it drew (draws) and how many of them the cache had
// not answered before (fresh).
type randomOutcome struct {
	ws           [][]int
	draws, fresh int
	what         string
}

// RandomDraws bounds the draws of the guided random words in a round:
// at most RandomDraws times the new words sought. A hypothesis whose
// draws keep repeating words answered before (short middles, few
// states) stops there, and the verdict says how few new words it found.
var RandomDraws = 16

// random runs stage 4: hypothesis-guided random words, or the PAC test.
// The guided words are counted as new words: a draw that repeats a word
// answered before, in this round or any earlier one, tests nothing that
// stage 1 has not (with a short middle most draws do), so a round draws
// until it has asked its count of new words, or RandomDraws times that
// many words; the difficulty it remembers (hardest) is in new words too.
// The PAC test counts draws, each a sample of its fixed distribution
// whatever was asked before. The round's count is checked against
// learn-queries before any is drawn, and each word's length before the
// word is built.
func (c *Conformance) random(b *budget.Budget, h *Hypothesis, most int) (randomOutcome, error) {
	var out randomOutcome
	total := c.randomCount(c.round, h.NumStates(), c.Cache.PerPrefix())
	limit := saturatingMul(total, int64(RandomDraws))
	done := func() int64 { return int64(out.fresh) }
	draw := func() ([]int, error) { return c.guided(b, h) }
	what := func() string {
		shortfall := ""
		if int64(out.fresh) < total {
			shortfall = fmt.Sprintf(" of the %d sought: the draws repeat words answered before", total)
		}
		return fmt.Sprintf("%d new random words%s (%d draws: an access word, a geometric middle of mean length %d and a test of the state reached; "+
			"or a short loop around a state, most often one found last, and its test)", out.fresh, shortfall, out.draws, c.RandomMean)
	}
	kind := "random test"
	if c.Epsilon > 0 {
		limit = total
		done = func() int64 { return int64(out.draws) }
		draw = func() ([]int, error) { return c.pac(b, len(h.Alphabet)) }
		what = func() string {
			return fmt.Sprintf("%d random draws of length 1 + geometric of mean %d, uniform letters "+
				"(Angluin's PAC test of round %d: with probability ≥ 1−%g the error is ≤ %g under that distribution)",
				out.draws, c.PACMean, c.round, c.Delta, c.Epsilon)
		}
		kind = "PAC test"
	}
	if err := checkCount(b, maxQueries, total, fmt.Sprintf("the %s of round %d", kind, c.round)); err != nil {
		return out, err
	}
	for batch := int64(8); done() < total && int64(out.draws) < limit; batch = min(2*batch, suiteBatch) {
		words := make([][]int, 0, min(batch, total-done(), limit-int64(out.draws)))
		for range cap(words) {
			w, err := draw()
			if err != nil {
				return out, err
			}
			words = append(words, w)
		}
		asked := c.Cache.stats.MembershipQueries
		ws, err := c.test(b, h, words, most)
		out.draws += len(words)
		out.fresh += c.Cache.stats.MembershipQueries - asked
		if err != nil {
			return out, err
		}
		if ws != nil {
			c.hardest = max(c.hardest, int(done()))
			out.ws = ws
			return out, nil
		}
	}
	out.what = what()
	return out, nil
}

// guided draws a word of stage 4: three times in five access(q)·a·x·t
// with q·a the next transition of the hypothesis in a random order (all of
// them before any twice), x of geometric length with mean RandomMean and t a uniform
// test of the state reached (or none, half of the time); otherwise a short
// loop around a new state: q one of the states the hypothesis of two
// rounds ago lacked, x of 1 to 3 letters (2 half of the time) and t the test that tells q from its nearest states (the test
// of its parent in the tree). Loops find the next state of a hypothesis
// that grows one state at a time (a counter, Dyck words), which uniform
// words almost never reach.
func (c *Conformance) guided(b *budget.Budget, h *Hypothesis) ([]int, error) {
	k := len(h.Alphabet)
	if c.rng.IntN(5) < 2 {
		q := c.fresh + c.rng.IntN(h.NumStates()-c.fresh)
		u := append([]int{}, h.Access[q]...)
		for range [4]int{1, 2, 2, 3}[c.rng.IntN(4)] {
			u = append(u, c.rng.IntN(k))
		}
		if ts := h.Tests(q); len(ts) > 0 {
			u = concat(u, ts[len(ts)-1])
		}
		return c.bounded(u), nil
	}
	if c.next == len(c.cover) {
		c.cover, c.next = c.rng.Perm(h.NumStates()*k), 0
	}
	qa := c.cover[c.next]
	c.next++
	u := concat(h.Access[qa/k], []int{qa % k})
	u, err := c.appendRandom(b, u, k, c.RandomMean)
	if err != nil {
		return nil, err
	}
	if ts := h.Tests(h.Run(h.Start, u)); len(ts) > 0 && c.rng.IntN(2) == 0 {
		u = concat(u, ts[c.rng.IntN(len(ts))])
	}
	return c.bounded(u), nil
}

// pac draws a word of the PAC distribution: length 1 + geometric of mean
// PACMean, letters uniform.
func (c *Conformance) pac(b *budget.Budget, k int) ([]int, error) {
	u, err := c.appendRandom(b, []int{c.rng.IntN(k)}, k, c.PACMean)
	return c.bounded(u), err
}

// appendRandom appends to u a geometric number of uniform letters with
// the given mean. The number is drawn first: the letters past MaxLength
// are never drawn, and a word whose answers could not fit in learn-bytes
// is refused before it is built.
func (c *Conformance) appendRandom(b *budget.Budget, u []int, k, mean int) ([]int, error) {
	n := geometric(c.rng, mean)
	if c.MaxLength > 0 {
		n = min(n, int64(max(0, c.MaxLength-len(u))))
	}
	need := saturatingMul(saturatingAdd(n, int64(len(u))), nodeBytes(k))
	if m := c.Cache.meter; need > m.Max()-m.Used() {
		return nil, b.Check(maxCacheBytes, saturatingAdd(m.Used(), need), fmt.Sprintf("the answers of the teacher with a random word of %s letters (mean %d)", approx(n+int64(len(u))), mean))
	}
	for range n {
		u = append(u, c.rng.IntN(k))
	}
	return u, nil
}

// bounded cuts u to MaxLength letters, when that is set.
func (c *Conformance) bounded(u []int) []int {
	if c.MaxLength > 0 && len(u) > c.MaxLength {
		return u[:c.MaxLength]
	}
	return u
}

// test asks the words of suite within the length bound and returns up to
// most of the words on which the black box and h disagree, shortest first
// (of each word of the suite, its shortest prefix that disagrees).
func (c *Conformance) test(b *budget.Budget, h *Hypothesis, suite [][]int, most int) ([][]int, error) {
	kept := suite[:0]
	for _, w := range suite {
		if len(w) > 0 && (c.MaxLength <= 0 || len(w) <= c.MaxLength) {
			kept = append(kept, w)
		}
	}
	if err := c.Cache.Ask(b, kept); err != nil {
		return nil, err
	}
	var ws [][]int
	for _, w := range kept {
		if d := c.disagreement(h, w); d != nil {
			ws = append(ws, d)
		}
	}
	slices.SortFunc(ws, func(u, v []int) int {
		if len(u) != len(v) {
			return len(u) - len(v)
		}
		return slices.Compare(u, v)
	})
	ws = slices.CompactFunc(ws, slices.Equal)
	return ws[:min(len(ws), most)], nil
}

// disagreement returns the shortest prefix of w (w itself without prefix
// answers) whose known verdict differs from h's, or nil.
func (c *Conformance) disagreement(h *Hypothesis, w []int) []int {
	if i := c.Cache.disagreement(h.DFA, w); i > 0 {
		return append([]int{}, w[:i]...)
	}
	return nil
}

// Verdict says what the last suite that found no counterexample tested.
func (c *Conformance) Verdict() string { return c.verdict }

// Thin reports whether the last suite that found no counterexample tested
// no length word by word (over many letters the default suite has no
// exhaustive part): its verdict says so first.
func (c *Conformance) Thin() bool { return c.thin }
