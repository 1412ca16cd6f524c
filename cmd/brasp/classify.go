package main

import (
	"fmt"

	"github.com/brasp-dev/brasp/artifact"
)

func init() {
	register(&command{name: "classify", summary: "star-free? stutter-invariant? in AC0? (any input kind)", run: classifyCmd})
}

const classifyUsage = "classify [--from KIND] [--limit N] FILE"

// classifyCmd prints the classification of the input's language (its minimal
// DFA, over non-empty words for programs, formulas and transformers):
// star-free, stutter-invariant, ac0 and dfa-states lines, each "no" with a
// witness, as automata.Classification.Format writes them.
func classifyCmd(e *env, args []string) error {
	fs := newFlags(e, "classify", classifyUsage)
	from := fs.String("from", "", "input kind, overriding the file extension")
	var opts artifact.Options
	fs.IntVar(&opts.Limit, "limit", 0, "bound on the states of the exact construction (0: default)")
	pos, err := parseFlags(e, fs, classifyUsage, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return &exitError{code: 2, msg: "classify: want exactly one FILE (usage: brasp " + classifyUsage + ")"}
	}
	a, err := loadFile(pos[0], *from)
	if err != nil {
		return err
	}
	c, err := artifact.Classify(a, opts)
	if err != nil {
		return fmt.Errorf("%s: %v", pos[0], err)
	}
	_, err = fmt.Fprint(e.stdout, c.Format())
	return err
}
