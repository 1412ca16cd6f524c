package main

import (
	"bufio"
	"fmt"

	"github.com/brasp-dev/brasp/artifact"
)

const inspectUsage = "inspect [--from KIND] [--cascade [--explicit]] [--limit NAME=N]... FILE"

func inspectCmd(e *env, args []string) error {
	fs := newFlags(e, "inspect", inspectUsage)
	from := fs.String("from", "", "input kind, overriding the file extension")
	cascade := fs.Bool("cascade", false, "print the Krohn–Rhodes (holonomy) cascade of the input's minimal DFA (App. B.4)")
	explicit := fs.Bool("explicit", false, "with --cascade: the explicit form (resets by the states of the levels above, homomorphism by global state) streamed one global state at a time, however many there are")
	lim := addLimitFlag(fs)
	pos, err := parseFlags(e, fs, inspectUsage, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError(inspectUsage, "want exactly one FILE")
	}
	if *explicit && !*cascade {
		return usageError(inspectUsage, "--explicit is a form of --cascade")
	}
	b := e.budget(lim)
	a, err := loadFile(b, pos[0], *from)
	if err != nil {
		return err
	}
	if *cascade {
		c, err := artifact.Cascade(b, a, artifact.Options{})
		if err != nil {
			return fmt.Errorf("%s: %v", pos[0], err)
		}
		// Format writes as it goes: the explicit form only when the global
		// states fit within cascade-bytes, the context form otherwise.
		// FormatStreamed writes the explicit form keeping no global state.
		format := c.Format
		if *explicit {
			format = c.FormatStreamed
		}
		out := bufio.NewWriter(e.stdout)
		if err := format(b, out); err != nil {
			out.Flush()
			return fmt.Errorf("%s: %v", pos[0], err)
		}
		return out.Flush()
	}
	in, ok := a.(artifact.Inspector)
	if !ok {
		return fmt.Errorf("inspect: %s inputs have no inspector", a.Kind())
	}
	_, err = fmt.Fprint(e.stdout, in.Inspect())
	return err
}
