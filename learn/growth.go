package learn

import (
	"fmt"
	"strings"
)

// GrowthWarning says, for a run checked by a test rather than an exact
// teacher, whether its hypotheses kept growing along one family of words,
// or returns "". It reads two signs: at least growthRounds counterexamples,
// at least 70% of them as long as the one before or longer (the rounds
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
	l := res.Stats.CounterexampleLengths
	m := len(l)
	if m < growthRounds || res.DFA == nil {
		return ""
	}
	up := 0
	for i := 1; i < m; i++ {
		if l[i] >= l[i-1] {
			up++
		}
	}
	n := res.DFA.NumStates()
	depth := 0
	for _, w := range res.DFA.ShortestWordTo() {
		depth = max(depth, len(w))
	}
	if 10*up < 7*(m-1) || 5*depth < 2*n || depth < 6 {
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

// growthRounds is the fewest counterexamples GrowthWarning reads as a
// family.
const growthRounds = 8
