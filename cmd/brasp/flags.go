package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/brasp-dev/brasp/artifact"
)

// newFlags returns a flag set whose errors are returned, not printed and
// exited on.
func newFlags(e *env, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.Init(name, flag.ContinueOnError)
	_ = usage
	return fs
}

// parseFlags parses flags given anywhere among the positional arguments
// ("brasp run FILE --table WORD"); "--" ends flag parsing.
func parseFlags(e *env, fs *flag.FlagSet, usage string, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprintf(e.stdout, "usage: brasp %s\n\nflags:\n", usage)
				fs.SetOutput(e.stdout)
				fs.PrintDefaults()
				fs.SetOutput(io.Discard)
				return nil, &exitError{code: 0}
			}
			return nil, &exitError{code: 2, msg: fmt.Sprintf("%s: %v (usage: brasp %s)", fs.Name(), err, usage)}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			// Every command's --limit is a count: 0 means the default.
			if f := fs.Lookup("limit"); f != nil {
				if n, err := strconv.Atoi(f.Value.String()); err == nil && n < 0 {
					return nil, &exitError{code: 2, msg: fmt.Sprintf("%s: --limit %d: want a positive bound, or 0 for the default (usage: brasp %s)", fs.Name(), n, usage)}
				}
			}
			return pos, nil
		}
		// fs.Parse stops at the first non-flag or after "--".
		consumed := len(args) - len(rest)
		if consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// loadFile reads and loads an input file; from overrides the kind given by
// the extension.
func loadFile(path, from string) (artifact.Artifact, error) {
	var kind artifact.Kind
	if from != "" {
		k, err := artifact.ParseKind(from)
		if err != nil {
			return nil, &exitError{code: 2, msg: "--from: " + err.Error()}
		}
		kind = k
	} else if _, err := artifact.KindOf(path); err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return artifact.Load(path, data, kind)
}

// kindList is the known kinds for help texts.
func kindList() string {
	var s []string
	for _, k := range artifact.Kinds() {
		s = append(s, string(k))
	}
	return strings.Join(s, ", ")
}

// normalFormList is the known B-RASP normal forms for help texts.
func normalFormList() string {
	var s []string
	for _, f := range artifact.NormalForms() {
		s = append(s, string(f))
	}
	return strings.Join(s, ", ")
}
