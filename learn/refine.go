package learn

import (
	"slices"

	"github.com/brasp-dev/brasp/budget"
)

// search is the Rivest–Schapire processing of one counterexample w: with
// α(i) the verdict on access(h(w[:i]))·w[i:], α(0) is the teacher's verdict
// on w and α(|w|) the hypothesis's; a binary search finds i with α(i) ≠
// α(i+1), so access(h(w[:i]))·w[i] is a new state, told apart from
// h(w[:i+1]) by the suffix w[i+1:]. A counterexample costs about log₂|w|
// queries. The run of the hypothesis on w is taken when the search begins
// (run[i] = h(w[:i])): the verdicts α compares are the teacher's on
// access words, which hold whatever the hypothesis becomes meanwhile,
// but a search whose run the hypothesis leaves is given up (its cut
// would split a state that the hypothesis may no longer reach there).
type search struct {
	ce     int // the counterexample's index
	w      []int
	run    []int
	lo, hi int // α(lo) = the teacher's verdict on w ≠ α(hi)
	// at are the indices whose α the next batch asks.
	at []int
	// split, once the search has ended, is the split it proposes,
	// whose probes the next batch asks.
	split *splitting
	p, a  int
}

// begin starts the search of counterexample ce, w, last cut at index
// last (-1 when it was not cut before). After a split at i the next cut
// of the same counterexample is most often at i again (the split was
// given up) or a letter or two further (the split moved the run there):
// its first batch asks α at those indices, which ends the search at once
// when it is one of them, and narrows it otherwise (fewer words than the
// binary search, which asks about log₂|w|).
func (l *Learner) begin(ce int, w []int, last int) *search {
	s := &search{ce: ce, w: w, run: l.runOf(w), hi: len(w)}
	if last >= 0 {
		for i := last; i <= last+Ahead && i < len(w); i++ {
			if i > 0 {
				s.at = append(s.at, i)
			}
		}
	}
	return s
}

// Ahead is how many indices past its last cut the first batch of a
// search asks (see begin).
var Ahead = 3

// narrow narrows the search s by the verdicts on its indices s.at, asked:
// hi becomes the first of them (in order) whose α differs from the
// teacher's verdict on w, lo the one before it (or lo).
func (l *Learner) narrow(s *search) {
	slices.Sort(s.at)
	v := l.cache.Accepts(s.w)
	for _, i := range s.at {
		if i <= s.lo || i >= s.hi {
			continue
		}
		if l.cache.Accepts(l.word(s, i)) != v {
			s.hi = i
			break
		}
		s.lo = i
	}
	s.at = s.at[:0]
}

// A pipeline with nothing to search looks for counterexamples among the
// words answered (a walk of the cache: up to 1 + states/PullShare, shortest
// first) when states were added since it last looked, by 1/PullGrowth of
// them when it last found none, and only while they are fewer than
// PullRound times those of the round's hypothesis: the round then ends,
// and its hypothesis is the one kept when a limit stops the run. Taking
// many at once and looking often keeps the batches full while the
// hypothesis grows, which is where a teacher that is not regular (a
// trained model) spends its passes: the ab_plus-strict model of
// docs/training.md through brasp.teacher --prefixes (--random 2000, 15,000
// words) went from 15.3 to 20.6 words per forward pass at 12.2 → 11.8
// words per state found (1 + states/64 at a time, 32, 2 before); random
// regular targets of 300 to 1,200 states learned by black box cost 3.2%
// more words for about twice the words per pass
// (BenchmarkLearnBlackBoxLarge).
var PullShare, PullGrowth, PullRound = 2, 8, 8

// PullFrom is the fewest states with which a pipeline looks for
// counterexamples among the words answered. Below it the rounds alone
// bring them: on small regular targets, counterexamples taken while a
// round's sifts are still on their way cost words (looking from the first
// state, 3.8% more, median, on random minimal DFAs of 20 to 200 states
// over 4 letters learned by black box with prefix answers), while a large
// hypothesis, or one that keeps growing, gains the shared batches.
var PullFrom = 256

// target is the target of q·a, negative while it is being sifted.
func (l *Learner) target(q, a int) int { return l.trans[q][a] }

// accepts reports whether state q is accepting (the verdict on its access
// word).
func (l *Learner) accepts(q int) bool { return q > 0 && l.cache.Accepts(l.access[q]) }

// word is the word whose verdict is α(i).
func (l *Learner) word(s *search, i int) []int { return concat(l.access[s.run[i]], s.w[i:]) }

// runOf returns the states the hypothesis goes through on w (run[i] after
// w[:i]).
func (l *Learner) runOf(w []int) []int {
	run := make([]int, len(w)+1)
	for i, a := range w {
		run[i+1] = l.trans[run[i]][a]
	}
	return run
}

// sameRun reports whether the hypothesis still goes through the states of
// s.run on s.w.
func (l *Learner) sameRun(s *search) bool {
	for i, a := range s.w {
		if l.trans[s.run[i]][a] != s.run[i+1] {
			return false
		}
	}
	return true
}

// resolved reports whether the run of the hypothesis on w reaches its end
// (no transition on the way is being sifted), and then whether the
// hypothesis accepts w.
func (l *Learner) resolved(w []int) (accept, ok bool) {
	q := 0
	for _, a := range w {
		if q = l.trans[q][a]; q < 0 {
			return false, false
		}
	}
	return q > 0 && l.cache.Accepts(l.access[q]), true
}

// pipeline sifts items down the tree and refines the hypothesis with the
// counterexamples ws (whose verdicts the cache holds) until every
// transition has its target and the hypothesis agrees with all of them.
//
// Its work is three kinds of tasks advanced side by side, one batch of
// queries per step for all of them: the searches of up to Together
// counterexamples that the hypothesis gets wrong (a counterexample whose
// run crosses a transition being sifted waits until it is known), the
// probes of the splits that ended searches propose, and the sifts of the
// transitions that splits move or create. A split is made when its probes
// are answered; it is given up, and its counterexample taken up again,
// when the transition access(p)·a no longer leads to old or another
// split of the same step splits old. So the deep sifts of one split, the
// searches of the next counterexamples and their splits share batches,
// where one phase at a time (search all, split all, sift all) waited for
// the slowest of each.
func (l *Learner) pipeline(b *budget.Budget, ws [][]int, items []sift) error {
	busy := make([]bool, len(ws)) // ws[i] is being searched
	last := make([]int, len(ws))  // where the last search of ws[i] cut it, -1 before
	for i := range last {
		last[i] = -1
	}
	var searches []*search
	pulled, round := len(l.access), len(l.access)
	dry := 0 // 1 when the last look found nothing
	for {
		// Searches the hypothesis moved under are given up (a split
		// also when another split of old comes first); the
		// counterexamples it gets wrong are taken up, as far as their
		// runs are known.
		kept := searches[:0]
		claimed := map[int]bool{}
		for _, s := range searches {
			if !l.sameRun(s) || (s.split != nil && claimed[s.split.old]) {
				busy[s.ce] = false
				continue
			}
			if s.split != nil {
				claimed[s.split.old] = true
			}
			kept = append(kept, s)
		}
		searches = kept
		for i, w := range ws {
			if len(searches) >= Together {
				break
			}
			if busy[i] {
				continue
			}
			if acc, ok := l.resolved(w); !ok || acc == l.cache.Accepts(w) {
				continue
			}
			busy[i] = true
			searches = append(searches, l.begin(i, w, last[i]))
		}
		if n := len(l.access); l.pull && len(searches) == 0 && n >= PullFrom && n > pulled+dry*pulled/PullGrowth && n < PullRound*round {
			// Nothing to search: the words answered before may hold
			// counterexamples to the hypothesis as far as it is known.
			pulled, dry = n, 1
			for _, w := range l.cache.disagreements(0, l.target, l.accepts, 1+n/PullShare) {
				dry = 0
				l.stats.Counterexamples++
				l.stats.CounterexampleLengths = append(l.stats.CounterexampleLengths, len(w))
				ws, busy, last = append(ws, w), append(busy, true), append(last, -1)
				searches = append(searches, l.begin(len(ws)-1, w, -1))
			}
		}
		if len(items)+len(searches) == 0 {
			return nil
		}
		batch := make([][]int, 0, len(items)+len(searches))
		for _, s := range searches {
			if s.split != nil {
				batch = append(batch, l.probes(*s.split)...)
				continue
			}
			if len(s.at) == 0 {
				s.at = append(s.at, (s.lo+s.hi)/2)
			}
			for _, i := range s.at {
				batch = append(batch, l.word(s, i))
			}
		}
		for _, it := range items {
			batch = append(batch, concat(it.word, it.at.test))
		}
		if err := l.cache.Ask(b, batch); err != nil {
			return err
		}
		if err := b.Step(int64(len(batch))); err != nil {
			return err
		}
		var err error
		if items, err = l.descend(b, items); err != nil {
			return err
		}
		kept = searches[:0]
		for _, s := range searches {
			if s.split != nil {
				busy[s.ce] = false
				if l.trans[s.p][s.a] != s.split.old {
					continue // the hypothesis moved under the cut: search again
				}
				more, err := l.split(b, *s.split)
				if err != nil {
					return err
				}
				items = append(items, more...)
				continue
			}
			l.narrow(s)
			if s.hi-s.lo == 1 {
				last[s.ce] = s.lo
				s.p, s.a = s.run[s.lo], s.w[s.lo]
				s.split = &splitting{old: s.run[s.hi], u: concat(l.access[s.p], []int{s.a}), t: l.withTail(s.w[s.hi:])}
			}
			kept = append(kept, s)
		}
		searches = kept
	}
}
