package learn

import (
	"time"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
)

// Membership answers membership queries in batches. A batch is a list of
// non-empty words over the learner's alphabet (symbol indices); the learner
// never asks the empty word and never asks a word twice (Cache sees to
// both).
type Membership interface {
	// Query answers one batch. Answer i is for words[i]: with PerPrefix,
	// one verdict per non-empty prefix of the word (len(words[i])
	// verdicts, the last for the word itself); otherwise one verdict.
	// An error ends learning: it names what went wrong (the word, for a
	// teacher that misbehaves).
	Query(b *budget.Budget, words [][]int) ([][]bool, error)
	// PerPrefix reports whether answers carry a verdict per prefix.
	PerPrefix() bool
}

// Equivalence looks for counterexamples to a hypothesis: non-empty words
// on which the hypothesis and the target disagree. The learner checks every
// word it is given against the membership oracle before it uses it.
type Equivalence interface {
	// Counterexamples returns up to max words on which h and the target
	// may disagree, none when the check finds none. One is enough; more
	// found by the same check let the learner add many states a round.
	Counterexamples(b *budget.Budget, h *Hypothesis, max int) ([][]int, error)
	// Verdict says what "no counterexample" established, for the last
	// hypothesis checked: "equivalent to the target" for an exact
	// teacher, the words tested for a conformance test.
	Verdict() string
}

// Stats are the counters of a learning run, written by brasp learn --stats.
type Stats struct {
	// States of the last hypothesis.
	States int `json:"states"`
	// StatesFound: the states the learner had found when it stopped (more
	// than States when a limit stopped it between two hypotheses).
	StatesFound int `json:"states_found"`
	// StatesUpToBound: with a bound on the length of words, the states
	// of the DFA learned of the words up to it, before its minimal cover
	// automaton (States) was taken.
	StatesUpToBound int `json:"states_up_to_bound,omitempty"`
	// MembershipQueries: distinct words sent to the membership oracle
	// (learning and testing together); LearningWords and TestWords split
	// them by phase.
	MembershipQueries int `json:"membership_queries"`
	LearningWords     int `json:"learning_words"`
	TestWords         int `json:"test_words"`
	// Symbols: letters sent, summed over the words.
	Symbols int64 `json:"symbols"`
	// LongestWord: the length of the longest word sent.
	LongestWord int `json:"longest_word"`
	// Batches: calls of Membership.Query (one round trip each).
	Batches int `json:"batches"`
	// Answers: verdicts received (more than the words in prefix mode).
	Answers int64 `json:"answers"`
	// Rechecked: words asked again to catch a teacher that answers
	// inconsistently (not new words).
	Rechecked int `json:"rechecked"`
	// GrowthRounds: the most rounds in a row in which the hypotheses grew
	// as a chain along one family of words (see learn-growth-rounds).
	GrowthRounds int `json:"growth_rounds,omitempty"`
	// EquivalenceRounds: hypotheses submitted to the equivalence oracle.
	EquivalenceRounds int `json:"equivalence_rounds"`
	// Counterexamples found, and the length of each.
	Counterexamples       int   `json:"counterexamples"`
	CounterexampleLengths []int `json:"counterexample_lengths"`
	// Seconds: wall time of the run; TeacherSeconds of it waiting for
	// the membership oracle, BraspSeconds the rest.
	Seconds        float64 `json:"seconds"`
	TeacherSeconds float64 `json:"seconds_teacher"`
	BraspSeconds   float64 `json:"seconds_brasp"`
}

// timer accumulates the time spent in an oracle.
type timer struct{ d time.Duration }

func (t *timer) since(start time.Time) { t.d += time.Since(start) }

// Hypothesis is what an equivalence oracle is shown: the DFA, the access
// word of each state, and for each state the tests that tell it apart from
// every other state (Tests). A learner that keeps a state's index and access
// word from one hypothesis to the next lets DFATeacher reuse what it
// computed for it. The DFA shares its rows with the learner,
// which copies a row before it changes it: it stays as it is.
type Hypothesis struct {
	*automata.DFA
	Access [][]int
	tests  [][][]int
	walk   func() [][][]int
}

// Tests returns the tests of state q: those on its path in the
// discrimination tree (harmonised, since two states share the test of
// their lowest common ancestor). They are gathered on first use: an exact
// teacher needs none.
func (h *Hypothesis) Tests(q int) [][]int {
	if h.tests == nil {
		h.tests = h.walk()
	}
	return h.tests[q]
}
