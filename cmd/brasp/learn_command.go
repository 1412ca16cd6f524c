package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/artifact"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/learn"
)

// blackBox is brasp learn --command: the settings of the teacher process
// and of the conformance suite.
type blackBox struct {
	command, alphabet string
	props             []string // learning traces over these propositions
	prefixes          bool
	length, extra     int
	random, mean      int
	maxLength         int
	epsilon, delta    float64
	pacMean           int
}

func (bb *blackBox) learn(e *env, b *budget.Budget, out, stats string, kind artifact.Kind) error {
	alpha := alphabet.Alphabet(strings.Fields(bb.alphabet))
	if bb.props != nil {
		var err error
		if alpha, err = artifact.ValuationAlphabet(bb.props); err != nil {
			return &exitError{code: 2, msg: "learn: --propositions: " + err.Error()}
		}
	}
	seen := map[string]bool{}
	for _, a := range alpha {
		if seen[a] {
			return &exitError{code: 2, msg: fmt.Sprintf("learn: --alphabet: letter %q twice", a)}
		}
		seen[a] = true
	}
	if bb.extra < 0 || bb.random < -1 || bb.mean < 0 || bb.maxLength < 0 {
		return &exitError{code: 2, msg: "learn: --extra-states, --random, --random-mean and --max-length want N ≥ 0"}
	}
	if bb.length < 0 {
		bb.length = 0
		for total, n := 0, len(alpha); bb.length < 8; n *= len(alpha) {
			if total += n; total > 30 {
				break
			}
			bb.length++
		}
	}
	if bb.epsilon < 0 || bb.epsilon >= 1 || bb.delta <= 0 || bb.delta >= 1 || bb.pacMean < 0 {
		return &exitError{code: 2, msg: "learn: --epsilon and --delta want numbers in (0, 1), --pac-mean N ≥ 0"}
	}
	if bb.maxLength > 0 {
		bb.length = min(bb.length, bb.maxLength)
	}
	teacher, err := learn.StartCommand(strings.Fields(bb.command), alpha, bb.prefixes)
	if err != nil {
		return fmt.Errorf("learn: %v", err)
	}
	defer teacher.Close()
	if bb.props != nil {
		teacher.Format = func(w []int) string { return learn.FormatTrace(alpha, w) }
	}
	cache := learn.NewCache(b, teacher, alpha, &learn.Stats{})
	conf := learn.NewConformance(cache, bb.length, bb.extra, bb.random, bb.mean, bb.maxLength)
	conf.Epsilon, conf.Delta, conf.PACMean = bb.epsilon, bb.delta, bb.pacMean
	started, last := time.Now(), time.Now()
	progress := func(s *learn.Stats) {
		if time.Since(started) > 2*time.Second && time.Since(last) > time.Second {
			last = time.Now()
			fmt.Fprintf(e.stderr, "learn: round %d, %d states, %d words asked\n", s.EquivalenceRounds, s.States, s.MembershipQueries)
		}
	}
	res, lerr := learn.LearnWith(b, cache, conf, progress)
	if lerr != nil {
		lerr = fmt.Errorf("learn: %w", lerr)
	}
	if lerr == nil && bb.maxLength > 0 {
		res.Verdict = fmt.Sprintf("the minimal DFA that %s (not an equivalence: the black box is known only up to length %d)", res.Verdict, bb.maxLength)
	}
	return finishLearn(e, b, res, lerr, out, stats, kind, bb.props)
}
