package main

import (
	"fmt"

	"github.com/brasp-dev/brasp/artifact"
)

func init() {
	register(&command{name: "inspect", summary: "describe a model or program: layers, heads, width, what each part reads and writes", run: inspectCmd})
}

const inspectUsage = "inspect [--from KIND] [--cascade] [--limit N] FILE"

func inspectCmd(e *env, args []string) error {
	fs := newFlags(e, "inspect", inspectUsage)
	from := fs.String("from", "", "input kind, overriding the file extension")
	cascade := fs.Bool("cascade", false, "print the Krohn–Rhodes (holonomy) cascade of the input's minimal DFA (App. B.4)")
	var opts artifact.Options
	fs.IntVar(&opts.Limit, "limit", 0, "bound on exponential constructions (0: default)")
	pos, err := parseFlags(e, fs, inspectUsage, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return &exitError{code: 2, msg: "inspect: want exactly one FILE (usage: brasp " + inspectUsage + ")"}
	}
	a, err := loadFile(pos[0], *from)
	if err != nil {
		return err
	}
	if *cascade {
		c, err := artifact.Cascade(a, opts)
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
