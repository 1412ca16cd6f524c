package main

import (
	"fmt"

	"github.com/brasp-dev/brasp/artifact"
)

const classifyUsage = "classify [--from KIND] [--json] [--limit NAME=N]... FILE"

// classifyCmd prints the classification of the input's language (its minimal
// DFA, over non-empty words for programs, formulas and transformers):
// star-free, stutter-invariant, ac0 and dfa-states lines, each "no" with a
// witness, as automata.Classification.Format writes them; with --json, one
// JSON object with the witnesses as lists of symbols and the minimal DFA.
func classifyCmd(e *env, args []string) error {
	fs := newFlags(e, "classify", classifyUsage)
	from := fs.String("from", "", "input kind, overriding the file extension")
	asJSON := fs.Bool("json", false, "one JSON object: star_free, stutter_invariant, ac0 with their witnesses as lists of symbols, dfa_states, dfa (the minimal DFA), transformers")
	lim := addLimitFlag(fs)
	pos, err := parseFlags(e, fs, classifyUsage, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError(classifyUsage, "want exactly one FILE")
	}
	b := e.budget(lim)
	a, err := loadFile(b, pos[0], *from)
	if err != nil {
		return err
	}
	c, err := artifact.Classify(b, a, artifact.Options{})
	if err != nil {
		return fmt.Errorf("%s: %v", pos[0], err)
	}
	if *asJSON {
		return writeClassifyJSON(e.stdout, c)
	}
	_, err = fmt.Fprint(e.stdout, c.Format())
	return err
}
