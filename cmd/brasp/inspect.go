package main

import (
	"fmt"

	"github.com/brasp-dev/brasp/artifact"
)

const inspectUsage = "inspect [--from KIND] [--cascade] [--limit NAME=N]... FILE"

func inspectCmd(e *env, args []string) error {
	fs := newFlags(e, "inspect", inspectUsage)
	from := fs.String("from", "", "input kind, overriding the file extension")
	cascade := fs.Bool("cascade", false, "print the Krohn–Rhodes (holonomy) cascade of the input's minimal DFA (App. B.4)")
	lim := addLimitFlag(fs)
	pos, err := parseFlags(e, fs, inspectUsage, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return &exitError{code: 2, msg: "inspect: want exactly one FILE (usage: brasp " + inspectUsage + ")"}
	}
	b := e.budget(lim)
	a, err := loadFile(b, pos[0], *from)
	if err != nil {
		return err
	}
	if *cascade {
		c, err := artifact.Cascade(b, a, lim.options(artifact.Options{}))
		if err != nil {
			return fmt.Errorf("%s: %v", pos[0], err)
		}
		_, err = fmt.Fprint(e.stdout, c.Format())
		return err
	}
	in, ok := a.(artifact.Inspector)
	if !ok {
		return fmt.Errorf("inspect: %s inputs have no inspector", a.Kind())
	}
	_, err = fmt.Fprint(e.stdout, in.Inspect())
	return err
}
