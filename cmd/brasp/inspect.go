package main

import (
	"fmt"

	"github.com/brasp-dev/brasp/artifact"
)

func init() {
	register(&command{name: "inspect", summary: "describe a model or program: layers, heads, width, what each part reads and writes", run: inspectCmd})
}

const inspectUsage = "inspect [--from KIND] FILE"

func inspectCmd(e *env, args []string) error {
	fs := newFlags(e, "inspect", inspectUsage)
	from := fs.String("from", "", "input kind, overriding the file extension")
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
	in, ok := a.(artifact.Inspector)
	if !ok {
		return fmt.Errorf("inspect: %s inputs have no inspector", a.Kind())
	}
	_, err = fmt.Fprint(e.stdout, in.Inspect())
	return err
}
