package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/budget"
)

// TestConvertNormalFormExit checks the exit statuses of --normal-form and
// of unknown kinds:
// 2 for usage errors (like a bad flag), 1 for a limit hit (like any failed
// conversion), never 3 (a panic), and 0 otherwise.
func TestConvertNormalFormExit(t *testing.T) {
	recall := filepath.Join("..", "..", "examples", "associative_recall.brasp")
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"convert", recall, "--to", "brasp", "--normal-form", "unary"}, 0, ""},
		{[]string{"convert", recall, "--to", "brasp", "--normal-form", "unary-value", "--simplify"}, 0, ""},
		{[]string{"convert", recall, "--to", "brasp", "--normal-form", "nope"}, 2, `unknown normal form "nope"`},
		{[]string{"convert", recall, "--to", "brasp", "--normal-form"}, 2, "flag needs an argument"},
		{[]string{"convert", recall, "--to", "ltl", "--normal-form", "unary"}, 2, "apply only to --to brasp"},
		{[]string{"convert", recall, "--to", "brasp", "--normal-form", "unary-score", "--limit", "7"}, 1, "exceeds the limit unary-score-copies=7 operations (needs 8) (raise it with --limit unary-score-copies=N)"},
		{[]string{"convert", recall, "--to", "brasp", "--normal-form", "unary", "--limit", "unary-score-copies=23"}, 1, "exceeds the limit unary-score-copies=23 operations (needs 24)"},
		{[]string{"convert", recall, "--to", "nfa"}, 2, `convert: --to: unknown kind "nfa"`},
		{[]string{"convert", recall, "--to", "brasp", "--limit", "-3"}, 2, "convert: --limit -3: want a positive bound"},
		{[]string{"equiv", "--limit", "-1", recall, recall}, 2, "equiv: --limit -1: want a positive bound"},
		{[]string{"run", "--from", "nfa", recall, "ab"}, 2, `--from: unknown kind "nfa"`},
	} {
		var stdout, stderr bytes.Buffer
		code := Main(c.args, strings.NewReader(""), &stdout, &stderr)
		if code != c.code || !strings.Contains(stderr.String(), c.msg) {
			t.Errorf("brasp %s: exit %d, stderr %q; want exit %d and %q", strings.Join(c.args, " "), code, stderr.String(), c.code, c.msg)
		}
		if code != 0 && stdout.Len() > 0 {
			t.Errorf("brasp %s failed but wrote %q", strings.Join(c.args, " "), stdout.String())
		}
	}
}

// TestAmount checks that limits are shown as --limit reads them back.
func TestAmount(t *testing.T) {
	for n, want := range map[int64]string{1: "1", 400: "400", 4096: "4K", 268435456: "256M", 1 << 40: "1024G", 3 << 20: "3M", 1<<20 + 1: "1048577"} {
		if got := amount(n); got != want {
			t.Errorf("amount(%d) = %s, want %s", n, got, want)
		}
		if s := (budget.Settings{}); s.Set("work="+amount(n)) != nil || s["work"] != n {
			t.Errorf("amount(%d) = %s does not read back as %d: %v", n, amount(n), n, s)
		}
	}
}
