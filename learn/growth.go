package learn

import (
	"fmt"
	"strings"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
)

// GrowthWarning says, for a run checked by a test rather than an exact
// teacher, whether its hypotheses kept growing along one family of words,
// or returns "". It reads two signs: at least growthRounds counterexamples,
// at least 70% of them as long as one of the two before or longer (the rounds
// went further along something), and a DFA that is a chain: a state needs
// an access word of at least 0.4 times as many letters as there are states, and
// of at least 6 (a random DFA of n states over k letters needs about
// log_k n). That is
// what a language that is not regular (a counter: aⁿbⁿ) does to a learner,
// a state or two per round, until a test stops finding the next member of
// the family; a regular language with a long chain of states (a deep
// bounded Dyck language) does it too. The DFA is then right only as far as
// the test went.
func GrowthWarning(res *Result) string {
	if res.DFA == nil {
		return ""
	}
	l := res.Stats.CounterexampleLengths
	m, n := len(l), res.DFA.NumStates()
	depth, ok := chainGrowth(l, res.DFA)
	if !ok {
		return ""
	}
	shown := l[max(0, m-12):]
	parts := make([]string, len(shown))
	for i, x := range shown {
		parts[i] = fmt.Sprint(x)
	}
	more := ""
	if len(shown) < m {
		more = "…, "
	}
	return fmt.Sprintf("the hypotheses grew along one family of words: %d counterexamples, most longer than the one before "+
		"(lengths %s%s), and the %d states form a chain (a state is reached by no word shorter than %d letters): "+
		"the language may not be regular (a counter), or has states further along that chain than the test went; "+
		"the DFA is right only as far as the test went (--max-length N learns exactly the words up to N)",
		m, more, strings.Join(parts, ", "), n, depth)
}

// chainGrowth reports whether counterexamples of lengths l and the
// hypothesis d show the growth along one family that GrowthWarning
// describes, and the longest of d's shortest access words.
func chainGrowth(l []int, d *automata.DFA) (int, bool) {
	m := len(l)
	if m < growthRounds {
		return 0, false
	}
	up := 0
	for i := 1; i < m; i++ {
		// As long as one of the two before: a family's counterexamples
		// may alternate between two shapes, each growing (a^n b^n's
		// lengths 16, 14, 18, 16, 20, 18, 20: only 2 in 3 as long as the
		// one before).
		if l[i] >= min(l[i-1], l[max(i-2, 0)]) {
			up++
		}
	}
	n := d.NumStates()
	depth := 0
	for _, w := range d.ShortestWordTo() {
		depth = max(depth, len(w))
	}
	return depth, 10*up >= 7*(m-1) && 5*depth >= 2*n && depth >= 6
}

// maxGrowthRounds bounds the rounds a conformance-tested run goes on
// after its hypotheses started to grow as a chain along one family
// (chainGrowth): a language that is not regular grows them a state or two
// a round until the suite stops finding the next member of the family or
// the run's time runs out. A regular language with a long chain does it
// too, and no count tells the two apart (rounds per state are about the
// same: 0.84 for Dyck-1 of depth 64, 0.82 for a^n b^n at the limit, one
// verdict per word), so the default is a margin over the chains worth
// learning: bounded Dyck-1 learned from one verdict per word takes 56
// such rounds at depth 64, 67 at depth 80 and 77 at depth 96 (fewer with
// prefix answers), and a^n b^n stops at this default after 97 rounds,
// 127 states and 1.5 s of CPU (at 128: 220 states, 12 s).
var maxGrowthRounds = budget.Define("learn-growth-rounds", 96, "rounds",
	"equivalence rounds of brasp learn after the hypotheses began to grow as a chain along one family of words (a language that may not be regular)")

// growthLimit is what ends a run whose hypotheses kept growing along one
// family for more than learn-growth-rounds rounds.
func growthLimit(b *budget.Budget, rounds int, h *automata.DFA) error {
	if int64(rounds) <= b.Max(maxGrowthRounds) {
		return nil
	}
	err := b.Check(maxGrowthRounds, int64(rounds), "the rounds along one family of words")
	return fmt.Errorf("the hypotheses grew along one family of words for %d rounds, to %d states in a chain: the language may not be regular "+
		"(--max-length N learns exactly the words up to N); the last hypothesis is kept: %w", rounds, h.NumStates(), err)
}

// growthRounds is the fewest counterexamples GrowthWarning reads as a
// family.
const growthRounds = 8
