//go:build unix

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The hostile growth cases: inputs of a few bytes (or a 10 MB regular
// expression) whose constructions grow without bound, each run once in a
// capped child process (runHostile), each ending with its answer or a
// named limit.

// conjunctionOfF is F p0 & … & F p(n-1): its minimal automaton has 2^n
// states and 3^n edges.
func conjunctionOfF(n int) string {
	fs := make([]string, n)
	for i := range fs {
		fs[i] = fmt.Sprintf("F p%d", i)
	}
	return strings.Join(fs, " & ") + "\n"
}

// yesterdays is "Y" n times before a over the alphabet a b (with a
// conjunct prefix): the letter n positions before the last is a, whose
// minimal automaton has 2^n states or more.
func yesterdays(prefix string, n int) string {
	return "alphabet a b\n" + prefix + strings.Repeat("Y ", n) + "a\n"
}

// wideGuards is a guard automaton over n propositions whose one guard is
// their conjunction and the other the disjunction of their negations.
func wideGuards(n int) string {
	ps := make([]string, n)
	for i := range ps {
		ps[i] = fmt.Sprintf("p%x", i)
	}
	neg := make([]string, n)
	for i, p := range ps {
		neg[i] = "!" + p
	}
	return "propositions " + strings.Join(ps, " ") + "\nstart 0\naccept 0\n0 0 " + strings.Join(ps, "&") +
		"\n0 1 " + strings.Join(neg, "|") + "\n1 1 true\n"
}

func hostileFormulaRepros() []hostileRepro {
	limit := func(names string) string { return `1 exceeds the limit (` + names + `)=\d+ ` }
	return []hostileRepro{
		// A 10 MB concatenation abab…: parsed and turned into terms
		// within the budget, refused by the size of its terms (or of its
		// automaton, or of the heap under the cap).
		{name: "regex-10MB-concatenation", gen: writeFile("c.re", func() string { return "alphabet a b\n" + strings.Repeat("ab", 5_000_000) + "\n" }),
			args: "convert c.re --to dfa", want: limit("regex-terms|regex-states|memory")},
		// Postfix operators nest as parentheses do.
		{name: "regex-deep-postfix", gen: writeFile("p.re", func() string { return "alphabet a\na" + strings.Repeat("*", 100000) + "\n" }),
			args: "convert p.re --to dfa", want: `1 p.re:2:\d+: expression nested deeper than 1000`},
		// Y forty times: the bimachine's left machine.
		{name: "ltl-40-yesterdays", gen: writeFile("y.ltl", func() string { return yesterdays("", 40) }),
			args: "convert y.ltl --to dfa", want: limit("exact-states")},
		// With a future conjunct it goes to the symbolic engine, whose
		// progression states are the limit (lowered here to keep the test
		// short: each state costs microseconds now, not a quarter of a
		// millisecond).
		{name: "ltl-40-yesterdays-future", gen: writeFile("y.ltl", func() string { return yesterdays("F b & ", 40) }),
			args: "convert y.ltl --to dfa --limit ltlf-states=100000", want: limit("ltlf-states")},
		// F p0 & … & F p23 (and … p39) as .bdd: the product that would
		// hold 2^24 states is refused while its first tuple is walked, at
		// the default limit under the memory cap. With 40 propositions the
		// limit is lowered to 32 MB: the refusal is the same, without
		// first building 256 MB (automata/symbolic's
		// TestProductBytesAreFaithful holds what is charged to the heap).
		{name: "ltlf-24-eventually-bdd", gen: writeFile("f.ltlf", func() string { return conjunctionOfF(24) }),
			args: "convert f.ltlf --to dfa -o f.bdd", want: limit("symbolic-product-bytes")},
		{name: "ltlf-40-eventually-bdd", gen: writeFile("f.ltlf", func() string { return conjunctionOfF(40) }),
			args: "convert f.ltlf --to dfa -o f.bdd --limit symbolic-product-bytes=32M", want: limit("symbolic-product-bytes")},
		// 16 propositions: 65,536 states, answered as .bdd; as guards the
		// 43 million edges are refused from their count, pointing to .bdd.
		{name: "ltlf-16-eventually-bdd", gen: writeFile("f.ltlf", func() string { return conjunctionOfF(16) }),
			args: "convert f.ltlf --to dfa -o f.bdd", want: "ok"},
		{name: "ltlf-16-eventually-guards", gen: writeFile("f.ltlf", func() string { return conjunctionOfF(16) }),
			args: "convert f.ltlf --to dfa", want: limit("guard-text-bytes") + `.*a \.bdd output file shares the decision diagrams`},
		// A guard over 200,000 propositions, read in linear time (each
		// literal rebuilt the conjunction so far: minutes and gigabytes).
		{name: "guard-200000-literals", gen: writeFile("w.dfa", func() string { return wideGuards(200000) }),
			args: "convert w.dfa --to dfa -o w.bdd", want: "ok"},
		// 12 propositions: 28 MB of guards, written.
		{name: "ltlf-12-eventually-guards", gen: writeFile("f.ltlf", func() string { return conjunctionOfF(12) }),
			args: "convert f.ltlf --to dfa -o f.dfa", want: "ok"},
	}
}

func TestHostileFormulas(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child process per case")
	}
	for _, c := range hostileFormulaRepros() {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			c.gen(t, dir)
			args := strings.Fields(c.args)
			r := runHostile(t, dir, 2*time.Minute, args...)
			checkHostile(t, args, r, c.want)
			t.Logf("brasp %s: %v, %d KB max RSS", c.args, r.elapsed.Round(time.Millisecond), r.maxRSS)
		})
	}
}

// TestHostileTerminate sends SIGTERM to a capped child a moment into each
// long phase (parsing and terms of a 10 MB expression, LTLf progression,
// writing a guard text of hundreds of megabytes) and wants it to end,
// saying so, within a second and a half.
func TestHostileTerminate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child process per case")
	}
	for _, c := range []struct {
		name string
		file string
		text func() string
		args string
	}{
		{"regex-parse", "c.re", func() string { return "alphabet a b\n" + strings.Repeat("ab", 5_000_000) + "\n" }, "convert c.re --to dfa"},
		{"ltlf-progression", "y.ltl", func() string { return yesterdays("F b & ", 40) }, "convert y.ltl --to dfa"},
		{"guard-text", "f.ltlf", func() string { return conjunctionOfF(14) }, "convert f.ltlf --to dfa --limit guard-text-bytes=4G"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(c.file, c.text)(t, dir)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, os.Args[0], strings.Fields(c.args)...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), hostileChildEnv+"=1")
			var stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = nil, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(700 * time.Millisecond)
			sent := time.Now()
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			err := cmd.Wait()
			took := time.Since(sent)
			t.Logf("brasp %s: ended %v after SIGTERM: %v", c.args, took.Round(time.Millisecond), err)
			if runtimeDump.MatchString(stderr.String()) {
				t.Fatalf("a runtime dump:\n%s", firstLines(stderr.String(), 20))
			}
			if took > 1500*time.Millisecond {
				t.Errorf("ended %v after SIGTERM, want within 1.5 s", took)
			}
			if out := stderr.String(); err != nil && !regexp.MustCompile(`brasp: interrupted|exceeds the limit`).MatchString(out) {
				t.Errorf("exit %v with %q, want interrupted (or a limit reached first)", err, out)
			}
			_ = filepath.Join
		})
	}
}
