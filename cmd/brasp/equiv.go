package main

import (
	"errors"
	"fmt"

	"github.com/brasp-dev/brasp/artifact"
	"github.com/brasp-dev/brasp/automata"
)

const equivUsage = "equiv [--limit NAME=N]... A B"

// equivCmd prints "equivalent" (exit 0) or
// `not equivalent: "WORD" (A accepts, B rejects)` with a shortest such word
// (exit 1). artifact.Equiv has run the word on both inputs themselves, so
// the verdict never rests on the DFA construction alone (exit 3 if it
// failed that check). Like diff, it exits
// with 2 when it cannot decide (an unreadable input, a limit, a non-regular
// or transducer input), so that scripts can tell that from "not equivalent".
func equivCmd(e *env, args []string) error {
	fs := newFlags(e, "equiv", equivUsage)
	lim := addLimitFlag(fs)
	pos, err := parseFlags(e, fs, equivUsage, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return &exitError{code: 2, msg: "equiv: want exactly two files (usage: brasp " + equivUsage + ")"}
	}
	trouble := func(err error) error { return &exitError{code: 2, msg: err.Error()} }
	bud := e.budget(lim)
	a, err := loadFile(bud, pos[0], "")
	if err != nil {
		return trouble(err)
	}
	b, err := loadFile(bud, pos[1], "")
	if err != nil {
		return trouble(err)
	}
	r, err := artifact.Equiv(bud, a, b, lim.options(artifact.Options{}))
	if errors.Is(err, artifact.ErrUnconfirmed) {
		return &exitError{code: 3, msg: fmt.Sprintf("equiv: %v", err)}
	}
	if err != nil {
		return trouble(fmt.Errorf("equiv: %v", err))
	}
	if r.Equal {
		fmt.Fprintln(e.stdout, "equivalent")
		return nil
	}
	acc, rej := pos[0], pos[1]
	if !r.FirstAccepts {
		acc, rej = rej, acc
	}
	shown := r.Trace
	if shown == "" {
		shown = automata.ShowWord(r.Alphabet, r.Word)
	}
	fmt.Fprintf(e.stdout, "not equivalent: %s (%s accepts, %s rejects)\n", shown, acc, rej)
	return &exitError{code: 1}
}
