package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/brasp-dev/brasp/artifact"
	"github.com/brasp-dev/brasp/budget"
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
				if _, ok := limitOf(fs); ok {
					fmt.Fprintln(e.stdout)
					printLimits(e.stdout)
				}
				return nil, &exitError{code: 0}
			}
			if l, ok := limitOf(fs); ok && l.err != nil {
				return nil, &exitError{code: 2, msg: fmt.Sprintf("%s: %v", fs.Name(), l.err)}
			}
			return nil, usageError(usage, "%v", err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			// A bare --limit N is a count: 0 means the defaults.
			if l, ok := limitOf(fs); ok && l.legacy < 0 {
				return nil, usageError(usage, "--limit %d: want a positive bound, or 0 for the default", l.legacy)
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

// limitFlag is the --limit flag of the commands that run constructions. It
// is repeatable: each --limit NAME=N sets one named limit (budget.Settings);
// a bare --limit N, the flag's meaning before limits had names, sets every
// construction's principal limit to N (artifact.PrincipalLimits).
type limitFlag struct {
	settings budget.Settings
	legacy   int
	err      error // the last error of Set, for parseFlags' message
}

// addLimitFlag defines --limit on fs.
func addLimitFlag(fs *flag.FlagSet) *limitFlag {
	l := &limitFlag{settings: budget.Settings{}}
	fs.Var(l, "limit", "raise a limit: `NAME=N` (repeatable; see brasp help limits), or N for every construction's principal limit (0: the defaults)")
	return l
}

// limitOf returns the --limit flag of fs, if it has one.
func limitOf(fs *flag.FlagSet) (*limitFlag, bool) {
	f := fs.Lookup("limit")
	if f == nil {
		return nil, false
	}
	l, ok := f.Value.(*limitFlag)
	return l, ok
}

// String implements flag.Value.
func (l *limitFlag) String() string {
	if l == nil {
		return "0"
	}
	return strconv.Itoa(l.legacy)
}

// Set implements flag.Value.
func (l *limitFlag) Set(s string) error {
	if strings.Contains(s, "=") {
		l.err = l.settings.Set(s)
		return l.err
	}
	if n, err := strconv.Atoi(s); err == nil && n <= 0 {
		l.legacy = n // 0: the defaults; below, refused by parseFlags
		return nil
	}
	n, err := budget.ParseAmount(s)
	if err != nil {
		l.err = fmt.Errorf("--limit %s: want NAME=N or a number: %v", s, err)
		return l.err
	}
	l.legacy = int(n)
	return nil
}

// printLimits lists the named limits (budget.All) for help texts.
func printLimits(w io.Writer) {
	fmt.Fprintln(w, "limits (--limit NAME=N, repeatable; N may end in K, M or G; a bare --limit N")
	fmt.Fprintln(w, "sets every construction's principal limit to N, as before limits had names):")
	for _, l := range budget.All() {
		fmt.Fprintf(w, "  %-22s %s (default %s %s)\n", l.Name, l.Doc, amount(l.Default), l.Unit)
	}
}

// amount writes n as --limit reads it, with the largest binary suffix that
// divides it: 268435456 is 256M.
func amount(n int64) string {
	for _, s := range []struct {
		suffix string
		shift  uint
	}{{"G", 30}, {"M", 20}, {"K", 10}} {
		if n >= 1<<s.shift && n%(1<<s.shift) == 0 {
			return strconv.FormatInt(n>>s.shift, 10) + s.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

// loadFile reads and loads an input file; from overrides the kind given by
// the extension. A file over its kind's size limit (input-bytes or
// model-bytes) is refused before it is read.
func loadFile(b *budget.Budget, path, from string) (artifact.Artifact, error) {
	var kind artifact.Kind
	if from != "" {
		k, err := artifact.ParseKind(from)
		if err != nil {
			return nil, &exitError{code: 2, msg: "--from: " + err.Error()}
		}
		kind = k
	} else if _, err := artifact.KindOf(path); err != nil {
		// An unknown extension: the contents may still say the kind
		// (MONA's -w output).
		data, rerr := readHead(path)
		k, ok := artifact.SniffKind(data)
		if rerr != nil || !ok {
			return nil, err
		}
		kind = k
	}
	if kind == "" {
		kind, _ = artifact.KindOf(path)
	}
	f, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
		if err := artifact.CheckSize(b, artifact.InputLimit(kind), info.Size(), "input file "+path); err != nil {
			return nil, err
		}
	}
	return artifact.LoadReader(b, path, f, kind)
}

// readHead reads the first 64 KiB of a file, for SniffKind.
func readHead(path string) ([]byte, error) {
	f, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, 1<<16)
	n, err := io.ReadFull(f, buf)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = nil
	}
	return buf[:n], err
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

// usageError is the exit-2 error of a command called wrongly: the
// command's name (the first word of its usage), what is wrong, and the
// usage.
func usageError(usage, format string, args ...any) error {
	name, _, _ := strings.Cut(usage, " ")
	return &exitError{code: 2, msg: name + ": " + fmt.Sprintf(format, args...) + " (usage: brasp " + usage + ")"}
}
