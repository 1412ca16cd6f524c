package learn

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
)

// maxQueries bounds the distinct words a learning run asks its teacher.
var maxQueries = budget.Define("learn-queries", 4<<20, "words",
	"distinct words brasp learn asks its teacher (membership queries, learning and testing)")

// maxCacheBytes bounds the memory of the answers a learning run keeps.
var maxCacheBytes = budget.Define("learn-bytes", 1<<30, "bytes",
	"memory of the answers brasp learn keeps (a trie of the words asked)")

// Verdicts held by a trie node.
const (
	unknown int8 = iota
	rejected
	accepted
	pending // in the batch being asked
)

// Cache stands between the learner and a Membership oracle. It keeps every
// answer in a trie of words for the whole run, so no word is asked twice;
// it never asks the empty word (whose verdict is "rejected": brasp's
// languages are sets of non-empty words); it asks the words of one call of
// Ask as one batch, without duplicates, and in prefix mode without the
// words that are prefixes of others in the batch (their verdicts come with
// the longer word). It counts what it sends (Stats).
type Cache struct {
	m     Membership
	alpha alphabet.Alphabet
	k     int
	// trie holds the words asked and their verdicts; node 0 is the empty
	// word, whose verdict is rejected.
	trie  *trie
	meter *budget.Meter
	stats *Stats
	// testing: words asked now are counted as test words.
	testing bool
	teacher timer
	// round is the equivalence round, for messages.
	round int
	// maxLength, when positive, is the longest word sent to the teacher
	// (see SetMaxLength).
	maxLength int
	// early holds the first words asked and sample a uniform sample of
	// the later ones (reservoir sampling), for Resample; rng draws it.
	early, sample [][]int
	rng           *rand.Rand
}

// SetMaxLength keeps every word sent to the teacher within n letters, and
// makes the language learned the teacher's words of length at most n: a
// longer word counts as rejected without being asked. In prefix mode a
// longer word is cut to its first n letters (the verdicts on its short
// prefixes are asked, those beyond n are "rejected"); otherwise it is not
// asked. Every word the learner and the conformance test build goes
// through Ask, so this is the one place the bound is kept.
func (c *Cache) SetMaxLength(n int) { c.maxLength = n }

// MaxLength is the bound of SetMaxLength, 0 for none.
func (c *Cache) MaxLength() int { return c.maxLength }

// beyond reports whether w is longer than the bound.
func (c *Cache) beyond(w []int) bool { return c.maxLength > 0 && len(w) > c.maxLength }

// NewCache returns an empty cache in front of m for words over alpha.
func NewCache(b *budget.Budget, m Membership, alpha alphabet.Alphabet, stats *Stats) *Cache {
	k := len(alpha)
	c := &Cache{m: m, alpha: alpha, k: k, trie: newTrie(k),
		meter: b.Meter(maxCacheBytes, "the answers of the teacher"), stats: stats, rng: rand.New(rand.NewPCG(3, 4))}
	c.trie.setOut(0, rejected)
	return c
}

// node returns the trie node of w, creating it when create is set; -1 when
// it does not exist.
func (c *Cache) node(w []int, create bool) (int32, error) {
	n := int32(0)
	for _, a := range w {
		next := c.trie.kid(n, a)
		if next == 0 {
			if !create {
				return -1, nil
			}
			if err := c.meter.Add(c.trie.growth(n)); err != nil {
				return -1, err
			}
			next = c.trie.addKid(n, a)
		}
		n = next
	}
	return n, nil
}

// Known returns the verdict on w and whether the cache has it.
func (c *Cache) Known(w []int) (accept, ok bool) {
	if c.beyond(w) {
		return false, true
	}
	n, _ := c.node(w, false)
	if n < 0 {
		return false, false
	}
	switch c.trie.out(n) {
	case accepted:
		return true, true
	case rejected:
		return false, true
	}
	return false, false
}

// verdicts appends to dst the verdicts on u·t' ('1' accepted, '0'
// rejected) for every prefix t' of t, the empty one first, when every is
// set, and for t itself otherwise; false when one of them is not known.
// It walks the trie once, where a verdict per word would walk it from the
// root for each prefix.
func (c *Cache) verdicts(u, t []int, every bool, dst []byte) ([]byte, bool) {
	// Past the bound every verdict is "rejected" (see SetMaxLength).
	rejectFrom := func(i int) []byte {
		if !every {
			return append(dst, '0')
		}
		for range len(t) + 1 - i {
			dst = append(dst, '0')
		}
		return dst
	}
	if c.beyond(u) || (!every && c.maxLength > 0 && len(u)+len(t) > c.maxLength) {
		return rejectFrom(0), true
	}
	n, _ := c.node(u, false)
	if n < 0 {
		return dst, false
	}
	add := func(n int32) bool {
		switch c.trie.out(n) {
		case accepted:
			dst = append(dst, '1')
		case rejected:
			dst = append(dst, '0')
		default:
			return false
		}
		return true
	}
	if every && !add(n) {
		return dst, false
	}
	for i, a := range t {
		if c.maxLength > 0 && len(u)+i+1 > c.maxLength {
			return rejectFrom(i + 1), true
		}
		if n = c.trie.kid(n, a); n == 0 {
			return dst, false
		}
		if every && !add(n) {
			return dst, false
		}
	}
	if !every && !add(n) {
		return dst, false
	}
	return dst, true
}

// disagreement returns the length of the shortest prefix of w whose
// known verdict (Known) differs from the one h gives, 0 when there is
// none. It walks the trie once along w: a verdict per prefix looked up
// from the root cost |w|²/2 steps a word, which made the suite's words
// along a chain of n states (access words and tests of about n letters,
// n² of them) cost n⁴ a round.
func (c *Cache) disagreement(h *automata.DFA, w []int) int {
	q, n := h.Start, int32(0)
	for i, a := range w {
		q = h.Delta[q][a]
		acc, ok := false, true
		switch {
		case c.maxLength > 0 && i+1 > c.maxLength:
			// Past the bound every word counts as rejected.
		case n < 0:
			ok = false
		default:
			if n = c.trie.kid(n, a); n == 0 {
				n, ok = -1, false
				break
			}
			switch c.trie.out(n) {
			case accepted:
				acc = true
			case rejected:
			default:
				ok = false
			}
		}
		if ok && acc != h.Accept[q] {
			return i + 1
		}
	}
	return 0
}

// Accepts returns the verdict on w, which Ask must have fetched.
func (c *Cache) Accepts(w []int) bool {
	acc, ok := c.Known(w)
	if !ok {
		panic("learn: verdict asked before it was fetched: " + automata.ShowWord(c.alpha, w))
	}
	return acc
}

// Ask fetches the verdicts on the words it does not know yet, in one
// batch.
func (c *Cache) Ask(b *budget.Budget, words [][]int) error {
	var ask [][]int
	for _, w := range words {
		if c.beyond(w) {
			if !c.m.PerPrefix() {
				continue
			}
			w = w[:c.maxLength]
		}
		n, err := c.node(w, true)
		if err != nil {
			return err
		}
		if c.trie.out(n) == unknown {
			c.trie.setOut(n, pending)
			ask = append(ask, w)
		}
	}
	if len(ask) == 0 {
		return nil
	}
	if c.m.PerPrefix() {
		// A word that is a prefix of another word of the batch is a
		// prefix of the next one in lexicographic order.
		slices.SortFunc(ask, slices.Compare)
		kept := ask[:0]
		for i, w := range ask {
			if i+1 < len(ask) && len(ask[i+1]) > len(w) && slices.Equal(ask[i+1][:len(w)], w) {
				continue
			}
			kept = append(kept, w)
		}
		ask = kept
	}
	if int64(c.stats.MembershipQueries+len(ask)) > b.Max(maxQueries) {
		c.unmark(words)
		return b.Check(maxQueries, int64(c.stats.MembershipQueries+len(ask)), "the words asked of the teacher")
	}
	if err := b.Err(); err != nil {
		c.unmark(words)
		return err
	}
	start := time.Now()
	answers, err := c.m.Query(b, ask)
	c.teacher.since(start)
	c.stats.Batches++
	if err != nil {
		c.unmark(words)
		if errors.Is(err, budget.ErrStopped) {
			return err
		}
		return fmt.Errorf("round %d: %w", c.round, err)
	}
	if len(answers) != len(ask) {
		c.unmark(words)
		return fmt.Errorf("the teacher gave %d answers to %d words", len(answers), len(ask))
	}
	for i, w := range ask {
		if err := c.record(w, answers[i]); err != nil {
			c.unmark(words)
			return err
		}
		c.stats.MembershipQueries++
		if c.testing {
			c.stats.TestWords++
		} else {
			c.stats.LearningWords++
		}
		c.stats.Symbols += int64(len(w))
		c.stats.Answers += int64(len(answers[i]))
		c.stats.LongestWord = max(c.stats.LongestWord, len(w))
		c.keep(w)
	}
	return nil
}

// sampleSize is how many of the first words asked, and how many of the
// later ones, the cache keeps for Resample.
const sampleSize = 128

// keep offers w, the word just asked, to the words kept for Resample.
func (c *Cache) keep(w []int) {
	switch later := c.stats.MembershipQueries - sampleSize; {
	case len(c.early) < sampleSize:
		c.early = append(c.early, w)
	case len(c.sample) < sampleSize:
		c.sample = append(c.sample, w)
	default:
		if i := c.rng.IntN(later); i < sampleSize {
			c.sample[i] = w
		}
	}
}

// Resample asks n words answered before again (see Recheck), half of them
// among the first words asked and half drawn from all the later ones: a
// teacher that answers at random is caught within a round or two, and one
// that changes its answers at some point is caught by the first words,
// asked before the change however late it comes, though without prefix
// answers no word is ever asked twice otherwise.
func (c *Cache) Resample(b *budget.Budget, n int) error {
	var words [][]int
	for i := range n {
		from := c.early
		if i%2 == 1 && len(c.sample) > 0 {
			from = c.sample
		}
		if len(from) > 0 {
			words = append(words, from[c.rng.IntN(len(from))])
		}
	}
	return c.Recheck(b, words)
}

// record stores the verdicts on w (one per prefix in prefix mode) and
// reports a teacher that contradicts an earlier answer.
func (c *Cache) record(w []int, ans []bool) error {
	want := 1
	if c.m.PerPrefix() {
		want = len(w)
	}
	if len(ans) != want {
		return fmt.Errorf("round %d: the teacher gave %d verdicts for %s, want %d", c.round, len(ans), automata.ShowWord(c.alpha, w), want)
	}
	set := func(n int32, v bool, prefix []int) error {
		x := rejected
		if v {
			x = accepted
		}
		if old := c.trie.out(n); old == accepted || old == rejected {
			if old != x {
				return fmt.Errorf("round %d: the teacher answers inconsistently: %s was %s before and is %s now",
					c.round, automata.ShowWord(c.alpha, prefix), verdictName(old), verdictName(x))
			}
			return nil
		}
		c.trie.setOut(n, x)
		return nil
	}
	if !c.m.PerPrefix() {
		n, _ := c.node(w, false)
		return set(n, ans[0], w)
	}
	n := int32(0)
	for i, a := range w {
		n = c.trie.kid(n, a)
		if err := set(n, ans[i], w[:i+1]); err != nil {
			return err
		}
	}
	return nil
}

// unmark forgets the pending marks of a batch that failed.
func (c *Cache) unmark(words [][]int) {
	for _, w := range words {
		if c.beyond(w) {
			w = w[:c.maxLength]
		}
		if n, _ := c.node(w, false); n >= 0 && c.trie.out(n) == pending {
			c.trie.setOut(n, unknown)
		}
	}
}

func verdictName(x int8) string {
	if x == accepted {
		return "accepted"
	}
	return "rejected"
}

// PerPrefix reports whether the teacher answers every prefix of a word.
func (c *Cache) PerPrefix() bool { return c.m.PerPrefix() }

// Bytes is the memory of the answers kept: what the learn-bytes limit
// measures.
func (c *Cache) Bytes() int { return int(c.trie.bytes) }

// Disagreements returns up to most words whose verdicts the cache holds
// and on which h disagrees with it, shortest first, none a prefix of
// another: counterexamples that cost no query. It walks the trie of the
// words asked beside h, breadth first.
func (c *Cache) Disagreements(h *automata.DFA, most int) [][]int {
	return c.disagreements(h.Start, func(q, a int) int { return h.Delta[q][a] }, func(q int) bool { return h.Accept[q] }, most)
}

// disagreements is Disagreements for the automaton of delta and accept
// from start, where a negative target is not known yet: the words through
// it are not looked at.
func (c *Cache) disagreements(start int, delta func(q, a int) int, accept func(q int) bool, most int) [][]int {
	type item struct {
		node, state, from int32
		a                 int32
	}
	var ws [][]int
	queue := []item{{0, int32(start), -1, -1}}
	for i := 0; i < len(queue) && len(ws) < most; i++ {
		it := queue[i]
		for a, n := range c.trie.children(it.node) {
			r := delta(int(it.state), a)
			if r < 0 {
				continue
			}
			if v := c.trie.out(n); (v == accepted || v == rejected) && (v == accepted) != accept(r) {
				w := []int{a}
				for x := i; queue[x].from >= 0; x = int(queue[x].from) {
					w = append(w, int(queue[x].a))
				}
				slices.Reverse(w)
				if ws = append(ws, w); len(ws) == most {
					break
				}
				continue
			}
			queue = append(queue, item{n, int32(r), int32(i), int32(a)})
		}
	}
	return ws
}

// Recheck asks the words again, bypassing the cache (each must have been
// answered before), and reports the first one whose verdict changed: a
// teacher that answers inconsistently is caught without prefix answers
// too. The words are counted in Stats.Rechecked, not as new words.
func (c *Cache) Recheck(b *budget.Budget, words [][]int) error {
	var ask [][]int
	for _, w := range words {
		if _, ok := c.Known(w); ok && len(w) > 0 && !c.beyond(w) {
			ask = append(ask, w)
		}
	}
	if len(ask) == 0 {
		return nil
	}
	start := time.Now()
	answers, err := c.m.Query(b, ask)
	c.teacher.since(start)
	c.stats.Batches++
	if err != nil {
		if errors.Is(err, budget.ErrStopped) {
			return err
		}
		return fmt.Errorf("round %d: %w", c.round, err)
	}
	if len(answers) != len(ask) {
		return fmt.Errorf("the teacher gave %d answers to %d words", len(answers), len(ask))
	}
	c.stats.Rechecked += len(ask)
	for i, w := range ask {
		ans := answers[i]
		if len(ans) == 0 {
			return fmt.Errorf("round %d: the teacher gave no verdict for %s", c.round, automata.ShowWord(c.alpha, w))
		}
		now := ans[len(ans)-1]
		if was := c.Accepts(w); was != now {
			return fmt.Errorf("round %d: the teacher answers inconsistently: %s was %s before and is %s when asked again",
				c.round, automata.ShowWord(c.alpha, w), verdictName(x8(was)), verdictName(x8(now)))
		}
	}
	return nil
}

func x8(v bool) int8 {
	if v {
		return accepted
	}
	return rejected
}
