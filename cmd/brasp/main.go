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
//	brasp equiv A B                   exact equivalence, shortest counterexample
//	brasp classify FILE               star-free? stutter-invariant? AC0?
//	brasp count FILE --lengths 1:100  accepted and rejected words of each length
//	brasp sample FILE --lengths 1:40  labelled words of each length, uniformly
//	brasp inspect FILE                describe a model, program or formula
//	brasp demo                        the pipeline on the Dyck-1 example
//	brasp serve                       the playground web page
//
// Run "brasp help" for every command, "brasp COMMAND -h" for its flags and
// "brasp help limits" for the limits --limit NAME=N raises.
//
// The command is a thin layer over package artifact. The commands are listed
// in one place (commands, in this file), each a function in its own file
// that parses its flags (flags.go: flags anywhere among the arguments,
// --limit, loading files) and calls artifact. Every command runs under a
// context that SIGINT or SIGTERM cancels; the commands that run
// constructions pass artifact a budget.Budget built from that context and
// the --limit NAME=N settings. Its end-to-end tests are
// testdata/script/*.txtar (go test ./cmd/brasp -update rewrites their
// expected output).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/brasp-dev/brasp/artifact"
	"github.com/brasp-dev/brasp/budget"
	_ "github.com/brasp-dev/brasp/internal/bigstack" // one stack growth, first (see its package doc)
	"github.com/brasp-dev/brasp/internal/oneproc"    // one processor for the first 20 ms
)

// shortRun is how long a command runs before the brasp program treats it
// as long: from then on it catches SIGINT and SIGTERM (signals.go) and runs
// on every processor (package oneproc), costs a command that ends sooner
// need not pay.
const shortRun = 20 * time.Millisecond

func main() {
	relaxGCForShortRuns()
	signalDelay = shortRun
	time.AfterFunc(shortRun, oneproc.Restore)
	os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// command is one subcommand of brasp.
type command struct {
	name    string
	summary string
	run     func(env *env, args []string) error
}

// commands lists the subcommands, in the order help shows them. A new
// command is a file with its function and one line here.
var commands = []*command{
	{name: "classify", summary: "star-free? stutter-invariant? in AC0? (any input kind)", run: classifyCmd},
	{name: "count", summary: "how many words of each length the input accepts and rejects, exactly", run: countCmd},
	{name: "convert", summary: "convert between representations (--to brasp|ltl|transformer|dfa)", run: convertCmd},
	{name: "depth", summary: "lower and upper bounds on the attention depth a language needs, with certificates", run: depthCmd},
	{name: "demo", summary: "the pipeline on the paper's Dyck-1 depth-2 example", run: demoCmd},
	{name: "equiv", summary: "decide whether two inputs of any kinds accept the same words", run: equivCmd},
	{name: "inspect", summary: "describe a model or program: layers, heads, width, what each part reads and writes", run: inspectCmd},
	{name: "learn", summary: "learn the minimal DFA of a teacher (any input file, or a command) by active learning", run: learnCmd},
	{name: "run", summary: "run a program, formula, automaton, regex or transformer on words", run: runCmd},
	{name: "sample", summary: "labelled words of each length drawn uniformly (datasets): --lengths, --count, --balanced, --all", run: sampleCmd},
	{name: "serve", summary: "run the playground web page (default 127.0.0.1:8080)", run: serveCmd},
	{name: "site", summary: "write the playground as a static web site (WebAssembly, no server)", run: siteCmd},
}

func lookupCommand(name string) (*command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return nil, false
}

// env is what a command may touch: its standard streams, and a context
// cancelled on SIGINT or SIGTERM.
type env struct {
	ctx            context.Context
	stdin          io.Reader
	stdout, stderr io.Writer
}

// budget returns the budget of a command's constructions: the command's
// context and the --limit NAME=N settings, over the principal limits a bare
// --limit N sets (artifact.PrincipalLimits). It makes the memory ceiling
// the runtime's soft memory limit too (budget.ApplyMemoryLimit).
func (e *env) budget(l *limitFlag) *budget.Budget {
	s := artifact.PrincipalLimits(l.legacy)
	if s == nil {
		s = l.settings
	} else {
		for name, v := range l.settings {
			s[name] = v
		}
	}
	budget.ApplyMemoryLimit(s)
	return budget.New(e.ctx, s)
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
// internal failures are reported without a stack trace. The command runs
// under a context that the first SIGINT or SIGTERM cancels (a second one
// kills the process as usual), so long constructions stop and say so; the
// brasp program catches signals from 20 ms into a command on (signals.go).
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
		if len(args) == 2 && args[1] == "limits" {
			printLimits(stdout)
			return 0
		}
		usage(stdout)
		return 0
	}
	c, ok := lookupCommand(name)
	if !ok {
		fmt.Fprintf(stderr, "brasp: unknown command %q\n", name)
		usage(stderr)
		return 2
	}
	ctx, stop := catchSignals(signalDelay)
	defer stop()
	err := c.run(&env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr}, args[1:])
	if err == nil {
		return 0
	}
	if e, ok := err.(*exitError); ok {
		if e.msg != "" {
			fmt.Fprintln(stderr, "brasp: "+e.msg)
		}
		return e.code
	}
	if errors.Is(err, budget.ErrStopped) && ctx.Err() != nil {
		fmt.Fprintln(stderr, "brasp: interrupted")
		return 130
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
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "")
	fmt.Fprintln(w, "Run brasp COMMAND -h for the flags of a command, brasp help limits for the")
	fmt.Fprintln(w, "limits that --limit NAME=N raises.")
}
