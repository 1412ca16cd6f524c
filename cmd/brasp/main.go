// Command brasp runs and converts the representations of Yang, Chiang and
// Angluin, "Masked Hard-Attention Transformers Recognize Exactly the
// Star-Free Languages": B-RASP programs, LTL formulas, transformers, DFAs and
// regular expressions.
//
// Usage:
//
//	brasp run FILE WORD...            accept/reject (or output word) per word
//	brasp run FILE --table WORD       the paper's Figure-2 table
//	brasp convert FILE --to KIND      convert between representations
//	brasp inspect MODEL               describe a transformer
//	brasp demo                        the pipeline on the Dyck-1 example
//
// Run "brasp help" for every command and flag. The command is a thin layer
// over package artifact.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

func main() {
	os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// command is one subcommand of brasp.
type command struct {
	name    string
	summary string
	run     func(env *env, args []string) error
}

// commands lists the subcommands; files add theirs from init functions.
var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// env is what a command may touch: its standard streams.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// exitError carries a specific exit status (equiv uses 1 for "not
// equivalent") with an optional message.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// Main runs the brasp command with the given arguments and streams and
// returns its exit status. Errors are printed to stderr as "brasp: msg";
// internal failures are reported without a stack trace.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "brasp: internal error: %v\n(please report this with the input that caused it)\n", r)
			code = 3
		}
	}()
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	name := args[0]
	if name == "help" || name == "-h" || name == "--help" || name == "-help" {
		usage(stdout)
		return 0
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "brasp: unknown command %q\n", name)
		usage(stderr)
		return 2
	}
	err := c.run(&env{stdin: stdin, stdout: stdout, stderr: stderr}, args[1:])
	if err == nil {
		return 0
	}
	if e, ok := err.(*exitError); ok {
		if e.msg != "" {
			fmt.Fprintln(stderr, "brasp: "+e.msg)
		}
		return e.code
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") {
		fmt.Fprintln(stderr, msg)
	} else {
		fmt.Fprintln(stderr, "brasp: "+msg)
	}
	return 1
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: brasp COMMAND [ARGS]")
	fmt.Fprintln(w, "")
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "")
	fmt.Fprintln(w, "Run brasp COMMAND -h for the flags of a command.")
}
