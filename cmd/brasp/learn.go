package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/brasp-dev/brasp/artifact"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/learn"
)

const learnUsage = "learn [--limit NAME=N]... [--stats S.json] [--to brasp|ltl|transformer] [--propositions 'p q r'] -o OUT (FILE | --command 'CMD ARGS' (--alphabet 'a b c' | --propositions 'p q r') [--prefixes] [--test-length N] [--extra-states K] [--random R] [--random-mean M] [--epsilon E --delta D [--pac-mean M]] [--max-length N])"

// learnCmd learns the minimal DFA of a teacher's language by active
// learning: a file of any kind is an exact teacher. It writes the learned
// DFA (or, with --to, the learned language in that form), prints what the
// equivalence check established and the classification of the learned
// language. On a limit or an interruption it still writes the last
// hypothesis, and says it is one.
func learnCmd(e *env, args []string) error {
	fs := newFlags(e, "learn", learnUsage)
	lim := addLimitFlag(fs)
	out := fs.String("o", "", "write the learned DFA to `FILE`")
	stats := fs.String("stats", "", "write the counters of the run (JSON) to `FILE`")
	to := fs.String("to", "", "write the learned language as `KIND` (brasp, ltl, transformer) instead of a DFA")
	command := fs.String("command", "", "a black-box teacher: the command `CMD ARGS` (split at spaces), started once, speaking the line protocol")
	alpha := fs.String("alphabet", "", "the letters of the black box, separated by spaces")
	propositions := fs.String("propositions", "", "learn a language of traces over the propositions `'p q r'` (separated by spaces): the letters are their valuations, the black box reads traces as brasp run does, the result is a symbolic DFA")
	prefixes := fs.Bool("prefixes", false, "the teacher answers one 0/1 per non-empty prefix of each word")
	testLength := fs.Int("test-length", -1, "conformance: every word up to length `N` (default: the largest N with at most 300 such words; over more than 16 letters, with at most 30)")
	extra := fs.Int("extra-states", 0, "conformance: the HSI suite for `K` extra states (complete against K more states; costs about states × letters^(K+1) × tests words)")
	random := fs.Int("random", -1, "conformance: `R` new random words per round (draws that repeat a word asked before do not count; default: 175 + 4.5 per state of the hypothesis, twice that without --prefixes)")
	mean := fs.Int("random-mean", 50, "conformance: mean length of the random middle part")
	epsilon := fs.Float64("epsilon", 0, "conformance: Angluin's PAC test instead of the random words: error at most `E` ...")
	delta := fs.Float64("delta", 0.05, "... with probability at least 1 - `D`")
	pacMean := fs.Int("pac-mean", 10, "PAC test: words of length 1 + a geometric number of mean `M`, letters uniform")
	maxLength := fs.Int("max-length", 0, "keep every query within length `N`: the result is the minimal DFA agreeing with the black box on words up to N")
	pos, err := parseFlags(e, fs, learnUsage, args)
	if err != nil {
		return err
	}
	var props []string
	if *propositions != "" {
		if props = strings.Fields(*propositions); len(props) == 0 {
			return &exitError{code: 2, msg: "learn: --propositions: no proposition"}
		}
		if *alpha != "" {
			return &exitError{code: 2, msg: "learn: --alphabet and --propositions exclude each other (the letters over propositions are their valuations)"}
		}
		if _, err := artifact.ValuationAlphabet(props); err != nil {
			return &exitError{code: 2, msg: "learn: --propositions: " + err.Error()}
		}
	}
	if *command != "" {
		if len(pos) != 0 || *out == "" || (*alpha == "") == (props == nil) {
			return usageError(learnUsage, "--command needs --alphabet or --propositions and -o OUT, and no FILE")
		}
	} else {
		if len(pos) != 1 || *out == "" {
			return usageError(learnUsage, "want one FILE and -o OUT")
		}
		if f := blackBoxFlags(fs); f != "" {
			return &exitError{code: 2, msg: fmt.Sprintf("learn: %s applies only to --command (a FILE is an exact teacher: its check is exact)", f)}
		}
	}
	var kind artifact.Kind
	if *to != "" {
		if kind, err = artifact.ParseKind(*to); err != nil {
			return &exitError{code: 2, msg: "learn: --to: " + err.Error()}
		}
	}
	written := kind
	switch {
	case written != "":
	case props != nil:
		written = artifact.KindMONADFA
	default:
		written = artifact.KindDFA
	}
	if err := checkLearnedName(*out, written); err != nil {
		return err
	}
	b := e.budget(lim)
	var bb *blackBox
	if *command != "" {
		// Every number is checked, and the suite it asks for sized,
		// before the teacher starts.
		bb = &blackBox{command: *command, props: props, prefixes: *prefixes}
		if err := bb.settle(b, fs, *alpha, *testLength, *extra, *random, *mean, *maxLength, *epsilon, *delta, *pacMean); err != nil {
			return err
		}
	}
	outs, err := prepareLearnOutputs(*out, *stats)
	if err != nil {
		return err
	}
	defer outs.discard()
	if bb != nil {
		return bb.learn(e, b, outs, kind)
	}
	a, err := loadFile(b, pos[0], "")
	if err != nil {
		return err
	}
	var res *learn.Result
	var lerr error
	if props != nil {
		res, lerr = artifact.LearnTraces(b, a, props, artifact.Options{})
	} else {
		res, lerr = artifact.Learn(b, a, artifact.Options{})
	}
	if res == nil {
		return fmt.Errorf("%s: %w", pos[0], lerr)
	}
	return finishLearn(e, b, res, lerr, outs, kind, props)
}

// blackBoxFlags returns the first flag set on fs that only a black box
// reads (its test suite), or "".
func blackBoxFlags(fs *flag.FlagSet) string {
	only := map[string]bool{"alphabet": true, "prefixes": true, "test-length": true, "extra-states": true, "random": true,
		"random-mean": true, "epsilon": true, "delta": true, "pac-mean": true, "max-length": true}
	first := ""
	fs.Visit(func(f *flag.Flag) {
		if only[f.Name] && first == "" {
			first = "--" + f.Name
		}
	})
	return first
}

// learnOutputs are the outputs of a learning run, made ready before it
// starts (see pendingOutput).
type learnOutputs struct {
	outPath    string
	out, stats *pendingOutput
	statsPath  string
}

func prepareLearnOutputs(out, stats string) (*learnOutputs, error) {
	o := &learnOutputs{outPath: out, statsPath: stats}
	var err error
	if o.out, err = prepareOutput("-o", out); err != nil {
		return nil, err
	}
	if stats != "" {
		if o.stats, err = prepareOutput("--stats", stats); err != nil {
			o.out.discard()
			return nil, err
		}
	}
	return o, nil
}

func (o *learnOutputs) discard() {
	o.out.discard()
	o.stats.discard()
}

// classifyStates is the most states a learned DFA has for brasp learn to
// classify it itself.
const classifyStates = 64

// classifyBytes bounds the orbits and monoids brasp learn computes to
// classify what it learned, unless --limit sets orbit-bytes or
// monoid-bytes: the monoid of a random 20-state DFA passes the default
// 256M only after seconds, where 4M gives up in a tenth of one; brasp
// classify runs with the defaults.
const classifyBytes = 4 << 20

// classifyBudget is b's settings with classifyBytes for the orbit and
// monoid limits the user left unset.
func classifyBudget(e *env, b *budget.Budget) *budget.Budget {
	s := budget.Settings{}
	for name, v := range b.Settings() {
		s[name] = v
	}
	for _, l := range []*budget.Limit{automata.OrbitBytes, automata.MonoidBytes} {
		if _, ok := s[l.Name]; !ok {
			s[l.Name] = classifyBytes
		}
	}
	return budget.New(e.ctx, s)
}

// finishLearn writes what a learning run produced: the last hypothesis
// (in the asked form; over props, when given, as a symbolic DFA) first,
// then the stats, what it agrees on, its classification; the error of
// the run, if any, after all that.
func finishLearn(e *env, b *budget.Budget, res *learn.Result, lerr error, outs *learnOutputs, kind artifact.Kind, props []string) error {
	// An interrupted run still writes what it has (the point of Ctrl-C
	// during a long learn): its writes do not stop with the context.
	wctx := e.ctx
	if lerr != nil {
		wctx = context.WithoutCancel(e.ctx)
	}
	out := outs.outPath
	if res.DFA != nil {
		if err := writeLearned(e, b, wctx, res, lerr, outs, kind, props); err != nil {
			return err
		}
	}
	if outs.stats != nil {
		data, err := json.MarshalIndent(res.Stats, "", "  ")
		if err == nil {
			err = outs.stats.commit(wctx, append(data, '\n'))
		}
		if err != nil {
			if res.DFA != nil {
				return fmt.Errorf("learn: --stats %s: %v (the learned DFA is written to %s)", outs.statsPath, err, out)
			}
			return fmt.Errorf("learn: --stats %s: %v", outs.statsPath, err)
		}
	}
	if res.DFA == nil {
		return lerr
	}
	s := res.Stats
	if lerr != nil {
		fmt.Fprintf(e.stdout, "stopped: wrote the last hypothesis (%d states) to %s: not checked by the equivalence oracle\n", s.States, out)
		return lerr
	}
	fmt.Fprintf(e.stdout, "learned %d states: %s\n", s.States, res.Verdict)
	fmt.Fprintf(e.stdout, "asked %d distinct words (%d symbols) in %d batches, %d equivalence rounds\n",
		s.MembershipQueries, s.Symbols, s.Batches, s.EquivalenceRounds)
	if s.States > classifyStates {
		// Classification enumerates orbits and monoids, exponential in
		// the states: a large learned DFA is classified on request.
		fmt.Fprintf(e.stdout, "not classified (more than %d states): brasp classify %s does it\n", classifyStates, out)
		return nil
	}
	classified := artifact.Artifact(artifact.NewDFA(res.DFA))
	if props != nil {
		if sym, err := artifact.Symbolic(b, res.DFA, props); err == nil {
			classified = sym
		}
	}
	return classify(e, b, classified, out)
}

// classify prints the classification of what was learned.
func classify(e *env, b *budget.Budget, learned artifact.Artifact, out string) error {
	c, err := artifact.Classify(classifyBudget(e, b), learned, artifact.Options{})
	if err != nil {
		// The DFA is written; only its classification is missing.
		fmt.Fprintf(e.stderr, "brasp: learn: the learned DFA is not classified: %v (brasp classify %s runs with larger default limits)\n", err, out)
		return nil
	}
	_, err = fmt.Fprint(e.stdout, c.Format())
	return err
}

// writeLearned writes the learned DFA to -o: as a DFA, over props as a
// symbolic DFA, with kind converted to it. When the conversion fails the
// DFA is written beside OUT (OUT.dfa), so that what was learned is kept.
func writeLearned(e *env, b *budget.Budget, wctx context.Context, res *learn.Result, lerr error, outs *learnOutputs, kind artifact.Kind, props []string) error {
	out := outs.outPath
	if lerr != nil {
		// The run stopped: the stopped budget cannot run conversions.
		b = budget.New(e.ctx, b.Settings())
		if errors.Is(lerr, budget.ErrStopped) {
			b = nil
		}
	}
	var learned artifact.Artifact = artifact.NewDFA(res.DFA)
	if props != nil {
		sym, err := artifact.Symbolic(b, res.DFA, props)
		if err != nil {
			return keepLearned(wctx, res, out, fmt.Errorf("the learned DFA as a symbolic DFA: %w", err))
		}
		learned = sym
	}
	var data []byte
	var err error
	switch {
	case kind != "" && lerr == nil:
		if learned, err = artifact.Convert(b, learned, kind, artifact.Options{}); err != nil {
			return keepLearned(wctx, res, out, fmt.Errorf("the learned DFA as %s: %w", kind, err))
		}
		fallthrough
	case props != nil:
		if enc, ok := learned.(artifact.Encoder); ok {
			data, err = enc.Encode(out)
		} else {
			data, err = learned.Format()
		}
		if err != nil {
			return keepLearned(wctx, res, out, err)
		}
	default:
		data = []byte(automata.Format(res.DFA))
	}
	if err := outs.out.commit(wctx, data); err != nil {
		return keepLearned(wctx, res, out, fmt.Errorf("-o %s: %w", out, err))
	}
	return nil
}

// keepLearned writes the learned DFA to OUT.dfa after cause kept it from
// OUT, and returns cause saying where the DFA went.
func keepLearned(wctx context.Context, res *learn.Result, out string, cause error) error {
	beside := out + ".dfa"
	o, err := prepareOutput("-o", beside)
	if err == nil {
		if err = o.commit(wctx, []byte(automata.Format(res.DFA))); err == nil {
			return fmt.Errorf("learn: %w; the learned DFA (%d states) is written to %s", cause, res.DFA.NumStates(), beside)
		}
	}
	return fmt.Errorf("learn: %w; the learned DFA could not be kept in %s either: %v", cause, beside, err)
}
