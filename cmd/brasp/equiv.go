package main

import (
	"fmt"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/artifact"
	"github.com/brasp-dev/brasp/automata"
)

func init() {
	register(&command{name: "equiv", summary: "decide whether two inputs of any kinds accept the same words", run: equivCmd})
}

const equivUsage = "equiv [--limit N] A B"

// equivCmd prints "equivalent" (exit 0) or
// `not equivalent: "WORD" (A accepts, B rejects)` with a shortest such word
// (exit 1). Before printing, the word is run on both inputs themselves, so
// the verdict never rests on the DFA construction alone. Like diff, it exits
// with 2 when it cannot decide (an unreadable input, a limit, a non-regular
// or transducer input), so that scripts can tell that from "not equivalent".
func equivCmd(e *env, args []string) error {
	fs := newFlags(e, "equiv", equivUsage)
	var opts artifact.Options
	fs.IntVar(&opts.Limit, "limit", 0, "bound on the states of the exact construction (0: default)")
	pos, err := parseFlags(e, fs, equivUsage, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return &exitError{code: 2, msg: "equiv: want exactly two files (usage: brasp " + equivUsage + ")"}
	}
	trouble := func(err error) error { return &exitError{code: 2, msg: err.Error()} }
	a, err := loadFile(pos[0], "")
	if err != nil {
		return trouble(err)
	}
	b, err := loadFile(pos[1], "")
	if err != nil {
		return trouble(err)
	}
	r, err := artifact.Equiv(a, b, opts)
	if err != nil {
		return trouble(fmt.Errorf("equiv: %v", err))
	}
	if r.Equal {
		fmt.Fprintln(e.stdout, "equivalent")
		return nil
	}
	accA, errA := acceptsIn(a, r.Alphabet, r.Word)
	accB, errB := acceptsIn(b, r.Alphabet, r.Word)
	if errA != nil || errB != nil || accA != r.FirstAccepts || accB == r.FirstAccepts {
		return &exitError{code: 3, msg: fmt.Sprintf("equiv: internal error: the counterexample %s does not separate the inputs when run (%v, %v)",
			automata.ShowWord(r.Alphabet, r.Word), errA, errB)}
	}
	acc, rej := pos[0], pos[1]
	if !r.FirstAccepts {
		acc, rej = rej, acc
	}
	fmt.Fprintf(e.stdout, "not equivalent: %s (%s accepts, %s rejects)\n", automata.ShowWord(r.Alphabet, r.Word), acc, rej)
	return &exitError{code: 1}
}

// acceptsIn runs a on w, a word over alpha; a word with a symbol outside a's
// alphabet is rejected.
func acceptsIn(a artifact.Artifact, alpha alphabet.Alphabet, w []int) (bool, error) {
	own := a.Alphabet()
	v := make([]int, len(w))
	for i, k := range w {
		if v[i] = own.Index(alpha[k]); v[i] < 0 {
			return false, nil
		}
	}
	return a.Accepts(v)
}
