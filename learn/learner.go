package learn

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
)

// maxStates bounds the states of a hypothesis: a target that is not
// regular (or too large) makes hypotheses grow without end.
var maxStates = budget.Define("learn-states", 1<<15, "states",
	"states of a hypothesis of brasp learn (a teacher that is not regular grows them without end)")

var errNotSplit = errors.New("internal error: a counterexample did not split a state")

// Learner learns the minimal DFA of a teacher's language of non-empty
// words (see the package doc for the algorithm).
type Learner struct {
	alpha  alphabet.Alphabet
	k      int
	cache  *Cache
	prefix bool
	root   *tnode
	// access[q] is the access word of state q (the access words are
	// prefix-closed: each is another's followed by one letter).
	access   [][]int
	leaf     []*tnode
	trans    [][]int   // trans[q][a]: the target of q·a, -1 while unknown
	incoming [][]int32 // incoming[r]: transitions q*k+a that led to r
	// The last hypothesis (Hypothesis) shares the rows of trans, accept
	// and names: it has the first shown states; copied[q] == round when
	// row q has been copied since (writable), accept holds the verdicts on
	// the access words of the first shown states.
	shown  int
	round  int32
	copied []int32
	accept []bool
	names  []string
	keyBuf []byte
	stats  *Stats
	// tail is how many random letters follow each test suffix in prefix
	// mode (see the package doc); rng draws them.
	tail int
	rng  *rand.Rand
	// pull: refining takes up the counterexamples among the words
	// answered before whenever it has nothing else to search (see
	// pipeline), as a conformance test's first stage would.
	pull bool
	// Progress, when set, is called after every equivalence round.
	Progress func(s *Stats)
}

// NewLearner returns a learner asking through cache over alpha.
func NewLearner(cache *Cache) *Learner {
	l := &Learner{alpha: cache.alpha, k: cache.k, cache: cache, prefix: cache.m.PerPrefix(), stats: cache.stats,
		rng: rand.New(rand.NewPCG(1, 2))}
	if l.prefix {
		l.tail = Tail
	}
	return l
}

// addState adds a state with access word u.
func (l *Learner) addState(b *budget.Budget, u []int) (int, error) {
	if err := b.Check(maxStates, int64(len(l.access)+1), "the states of the hypothesis"); err != nil {
		return 0, err
	}
	q := len(l.access)
	l.access = append(l.access, u)
	l.leaf = append(l.leaf, nil)
	row := make([]int, l.k)
	for a := range row {
		row[a] = -1
	}
	l.trans = append(l.trans, row)
	l.incoming = append(l.incoming, nil)
	l.copied = append(l.copied, 0)
	l.names = append(l.names, "q"+strconv.Itoa(q))
	return q, nil
}

// Hypothesis returns the current hypothesis: the states found so far,
// state 0 (the empty word) the start. It rejects the empty word. It shares
// its rows with the learner, which copies a row before it changes it (see
// writable): it costs a pointer per state, not a copy of the table.
func (l *Learner) Hypothesis() *automata.DFA {
	n := len(l.access)
	for q := len(l.accept); q < n; q++ {
		l.accept = append(l.accept, q > 0 && l.cache.Accepts(l.access[q]))
	}
	l.shown = n
	l.round++
	return &automata.DFA{Alphabet: l.alpha, States: l.names[:n:n], Accept: l.accept[:n:n],
		Delta: slices.Clone(l.trans[:n])}
}

// writable returns row q of trans, copied first if a hypothesis shown to
// the equivalence oracle holds it.
func (l *Learner) writable(q int) []int {
	if q < l.shown && l.copied[q] != l.round {
		l.trans[q] = slices.Clone(l.trans[q])
		l.copied[q] = l.round
	}
	return l.trans[q]
}

// Result is the outcome of Learn.
type Result struct {
	// DFA is the last hypothesis: the minimal DFA of the target when the
	// equivalence oracle is exact and Learn returned no error.
	DFA *automata.DFA
	// Verdict is what the equivalence oracle established about DFA
	// (empty when learning stopped before the oracle accepted it).
	Verdict string
	Stats   Stats
}

// Learn learns the target of mem and eq. On an error (a limit, an
// interruption, a teacher that misbehaves) the result still holds the
// last complete hypothesis, if there was one.
func Learn(b *budget.Budget, alpha alphabet.Alphabet, mem Membership, eq Equivalence) (*Result, error) {
	return LearnWith(b, NewCache(b, mem, alpha, &Stats{}), eq, nil)
}

// LearnWith is Learn through a given cache (which a conformance oracle
// shares), calling progress, when not nil, after every equivalence round.
func LearnWith(b *budget.Budget, cache *Cache, eq Equivalence, progress func(*Stats)) (*Result, error) {
	start := time.Now()
	res := &Result{}
	l := NewLearner(cache)
	l.Progress = progress
	err := l.run(b, eq, res)
	if err == nil && cache.maxLength > 0 {
		err = cover(b, res, cache.maxLength, cache.stats)
	}
	cache.stats.StatesFound = len(l.access)
	res.Stats = *cache.stats
	res.Stats.Seconds = time.Since(start).Seconds()
	res.Stats.TeacherSeconds = cache.teacher.d.Seconds()
	res.Stats.BraspSeconds = res.Stats.Seconds - res.Stats.TeacherSeconds
	if res.DFA != nil {
		res.Stats.States = res.DFA.NumStates()
	}
	return res, err
}

// cover replaces the learned DFA of the teacher's words up to length n by
// its minimal cover automaton: the smallest DFA that agrees with it on
// every word up to n (see automata.MinimalCover), which is what the
// answers determine; the verdict says both.
func cover(b *budget.Budget, res *Result, n int, stats *Stats) error {
	c, err := automata.MinimalCover(b, res.DFA, n)
	if err != nil {
		return fmt.Errorf("the minimal DFA agreeing with the learned one up to length %d: %w", n, err)
	}
	stats.StatesUpToBound = res.DFA.NumStates()
	res.Verdict = fmt.Sprintf("the minimal DFA that agrees up to length %d with the DFA learned of the black box's words up to that length "+
		"(%d states, rejecting every longer word), which %s; beyond length %d nothing is known of the black box (not an equivalence)",
		n, res.DFA.NumStates(), res.Verdict, n)
	res.DFA = c
	return nil
}

// run is the main loop: close the hypothesis, ask for counterexamples,
// refine with them until none is one any more, repeat.
func (l *Learner) run(b *budget.Budget, eq Equivalence, res *Result) error {
	l.root = &tnode{test: l.withTail(nil), children: map[string]*tnode{}, state: -1}
	if _, err := l.addState(b, []int{}); err != nil {
		return err
	}
	if err := l.cache.Ask(b, [][]int{l.root.test}); err != nil {
		return err
	}
	l.leaf[0] = &tnode{state: 0}
	l.root.children[l.key(nil, l.root.test)] = l.leaf[0]
	if err := l.pipeline(b, nil, l.outgoing(0)); err != nil {
		return err
	}
	_, tested := eq.(*Conformance)
	l.pull = tested
	family := 0 // rounds since the hypotheses began to grow as a chain
	for round := 1; ; round++ {
		l.cache.round = round
		h := l.Hypothesis()
		res.DFA = h
		l.stats.States = h.NumStates()
		l.stats.EquivalenceRounds++
		l.cache.testing = true
		ws, err := eq.Counterexamples(b, l.hypothesis(h), 1+h.NumStates()/RoundShare)
		l.cache.testing = false
		if l.Progress != nil {
			l.Progress(l.stats)
		}
		if err != nil {
			return err
		}
		if len(ws) == 0 {
			res.Verdict = eq.Verdict()
			return nil
		}
		if _, chain := chainGrowth(l.stats.CounterexampleLengths, h); tested && l.cache.maxLength == 0 && chain {
			family++
			l.stats.GrowthRounds = max(l.stats.GrowthRounds, family)
			if err := growthLimit(b, family, h); err != nil {
				return err
			}
		} else {
			family = 0
		}
		if err := l.cache.Ask(b, ws); err != nil {
			return err
		}
		for _, w := range ws {
			if len(w) == 0 || h.Accepts(w) == l.cache.Accepts(w) {
				return fmt.Errorf("round %d: the equivalence check gave %s, on which the hypothesis and the teacher agree", round, automata.ShowWord(l.alpha, w))
			}
			l.stats.Counterexamples++
			l.stats.CounterexampleLengths = append(l.stats.CounterexampleLengths, len(w))
		}
		if err := l.pipeline(b, ws, nil); err != nil {
			return err
		}
	}
}

// RoundShare sets how many counterexamples the learner asks of the
// equivalence oracle in one round: up to 1 + states/RoundShare for a
// hypothesis with that many states. An exact teacher checks the whole
// hypothesis in a round whatever it returns (O(states·letters)), and a
// conformance test finds many words of one suite that disagree with it:
// taking several makes a round's cost that of many new states, so that
// rounds grow as the logarithm of the states, not as the states. Taking
// them one at a time while the hypothesis is small keeps the words: a
// counterexample taken from a hypothesis many states ago tends to split
// a state that a later one would have found anyway.
var RoundShare = 64

// Together is the most counterexamples searched at once (see pipeline).
var Together = 64

// Tail is the number of random letters appended to each test suffix when
// the teacher answers per prefix.
var Tail = 16

// withTail returns v followed by l.tail random letters, in a fresh slice.
func (l *Learner) withTail(v []int) []int {
	t := make([]int, len(v), len(v)+l.tail)
	copy(t, v)
	for range l.tail {
		t = append(t, l.rng.IntN(l.k))
	}
	return t
}

// hypothesis wraps h with the access words and, gathered on demand, each
// state's tests.
func (l *Learner) hypothesis(h *automata.DFA) *Hypothesis {
	return &Hypothesis{DFA: h, Access: l.access[:h.NumStates():h.NumStates()], walk: func() [][][]int {
		tests := make([][][]int, h.NumStates())
		var walk func(n *tnode, path [][]int)
		walk = func(n *tnode, path [][]int) {
			if n.state >= 0 {
				tests[n.state] = path
				return
			}
			path = append(path[:len(path):len(path)], n.test)
			for _, c := range n.children {
				walk(c, path)
			}
		}
		walk(l.root, nil)
		return tests
	}}
}
