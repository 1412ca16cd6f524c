package main

import (
	"flag"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/artifact"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/learn"
)

// blackBox is brasp learn --command: the teacher process, its letters and
// the conformance suite.
type blackBox struct {
	command  string
	props    []string // learning traces over these propositions
	prefixes bool
	alpha    alphabet.Alphabet
	conf     *learn.Conformance
	// maxLength bounds every query (0: none).
	maxLength int
}

// settle reads the letters and checks every number of the suite before
// anything is started: each flag in its range (finite, for the
// fractions), and the suite they ask for within the limits
// (learn.Conformance.Check: the words up to --test-length, the random
// words of a round, their answers' bytes), so that a setting that cannot
// be met is refused at once, not by running out of memory hours later.
func (bb *blackBox) settle(b *budget.Budget, fs *flag.FlagSet, alpha string, length, extra, random, mean, maxLength int, epsilon, delta float64, pacMean int) error {
	if bb.props != nil {
		var err error
		if bb.alpha, err = artifact.ValuationAlphabet(bb.props); err != nil {
			return &exitError{code: 2, msg: "learn: --propositions: " + err.Error()}
		}
	} else {
		a, err := alphabet.ParseSymbols(alpha)
		if err != nil {
			return &exitError{code: 2, msg: "learn: --alphabet: " + err.Error()}
		}
		if len(a) == 0 {
			return &exitError{code: 2, msg: "learn: --alphabet: no letter (give the letters separated by spaces, a letter holding spaces double-quoted)"}
		}
		bb.alpha = a
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	bad := func(name string, v any, want string) error {
		return &exitError{code: 2, msg: fmt.Sprintf("learn: --%s %v: want %s", name, v, want)}
	}
	for _, n := range []struct {
		name  string
		value int
	}{{"test-length", length}, {"extra-states", extra}, {"random", random}, {"random-mean", mean}, {"max-length", maxLength}, {"pac-mean", pacMean}} {
		if n.value < 0 && (set[n.name] || n.value < -1) {
			return bad(n.name, n.value, "N ≥ 0")
		}
	}
	fraction := func(name string, v float64) error {
		if math.IsNaN(v) || v <= 0 || v >= 1 {
			return bad(name, v, "a number in (0, 1)")
		}
		return nil
	}
	if set["epsilon"] {
		if err := fraction("epsilon", epsilon); err != nil {
			return err
		}
		if err := fraction("delta", delta); err != nil {
			return err
		}
	} else if set["delta"] || set["pac-mean"] {
		return &exitError{code: 2, msg: "learn: --delta and --pac-mean apply only with --epsilon (the PAC test)"}
	}
	if length < 0 {
		length = defaultTestLength(len(bb.alpha))
	}
	if maxLength > 0 && learn.WordsUpTo(len(bb.alpha), maxLength) <= exhaustiveWords {
		// With a bound on the length of words whose words are few
		// enough, every one of them is asked, whatever --test-length
		// says: the result is the minimal DFA agreeing with the answers
		// up to the bound, which only the answers to all of them fix.
		length = max(length, maxLength)
	}
	if maxLength > 0 {
		length = min(length, maxLength)
	}
	bb.maxLength = maxLength
	bb.conf = learn.NewConformance(nil, length, extra, random, mean, maxLength)
	bb.conf.Epsilon, bb.conf.Delta, bb.conf.PACMean = epsilon, delta, pacMean
	if !set["epsilon"] {
		bb.conf.Epsilon = 0
	}
	if err := bb.conf.Check(b, len(bb.alpha)); err != nil {
		return fmt.Errorf("learn: %w", err)
	}
	return nil
}

// defaultTestLength is the length up to which the default test asks
// every word over k letters: the longest with at most testWords words
// when that reaches words of two letters (up to 16 letters: 254 words up
// to length 7 over two letters, 120 up to 4 over three); over more
// letters the longest with at most testSingles words, the letters
// alone, and none over more than testSingles letters (a thin test, which
// the result says). The words are asked once in a run, about as many as
// one round of the random test. The lengths just past the 30 words that
// the default was hold differences that random words with long middles
// seldom make: of 1,500 teachers that lie by a regular rule (a random DFA
// of up to 8 states XOR one of up to 3, two or three letters, one verdict
// per word), 11 were learned wrong with 30 words, 1 with 300, for 31%
// more words asked.
func defaultTestLength(k int) int {
	longest := func(most int64) int {
		n := 0
		for n < 16 && learn.WordsUpTo(k, n+1) <= most {
			n++
		}
		return n
	}
	if n := longest(testWords); n >= 2 {
		return n
	}
	return longest(testSingles)
}

// testWords and testSingles bound the words of the default exhaustive
// test (see defaultTestLength).
const testWords, testSingles = 300, 30

// exhaustiveWords is the most words up to --max-length N for which the
// default test asks them all.
const exhaustiveWords = 1 << 14

func (bb *blackBox) learn(e *env, b *budget.Budget, outs *learnOutputs, kind artifact.Kind) error {
	alpha := bb.alpha
	teacher, err := learn.StartCommand(strings.Fields(bb.command), alpha, bb.prefixes)
	if err != nil {
		return fmt.Errorf("learn: %v", err)
	}
	defer teacher.Close()
	if bb.props != nil {
		teacher.Format = func(w []int) string { return learn.FormatTrace(alpha, w) }
	}
	cache := learn.NewCache(b, teacher, alpha, &learn.Stats{})
	cache.SetMaxLength(bb.maxLength)
	conf := bb.conf
	conf.Cache = cache
	started, last := time.Now(), time.Now()
	progress := func(s *learn.Stats) {
		if time.Since(started) > 2*time.Second && time.Since(last) > time.Second {
			last = time.Now()
			fmt.Fprintf(e.stderr, "learn: round %d, %d states, %d words asked\n", s.EquivalenceRounds, s.States, s.MembershipQueries)
		}
	}
	res, lerr := learn.LearnWith(b, cache, conf, progress)
	if lerr == nil {
		lerr = teacher.Finish()
	}
	if lerr != nil {
		lerr = fmt.Errorf("learn: %w", lerr)
	} else {
		if conf.Thin() {
			fmt.Fprintf(e.stderr, "brasp: learn: warning: a thin test: no length was tested word by word over %d letters "+
				"(--test-length 1 asks every letter, --test-length 2 every word of two letters)\n", len(alpha))
		}
		if w := learn.GrowthWarning(res); w != "" && bb.maxLength == 0 {
			fmt.Fprintf(e.stderr, "brasp: learn: warning: %s\n", w)
		}
	}
	return finishLearn(e, b, res, lerr, outs, kind, bb.props)
}
