// Package mona cross-checks the exact semantics of LTL formulas against MONA
// (https://www.brics.dk/mona/, Debian package mona), an independent
// implementation of the weak monadic second-order logic of finite strings.
//
// Translate writes a formula in MONA's M2L-Str: the alphabet becomes
// second-order variables P0, P1, … that partition the positions (exactly one
// letter per position), every subformula of the DAG becomes a predicate
// N<id>(var1 x) whose temporal operators quantify over fresh variables in
// nested scopes (no prenex form: MONA needs 85 s for a flat prenex STAIR_16
// and a fraction of a second for the nested one), and the formula is
// evaluated at the last position of a non-empty word:
//
//	ex1 n: n = max($) & N<root>(n);
//
// which also excludes the empty string that m2l-str otherwise includes. Run
// calls `mona -q -w` and ParseDFA reads the minimal DFA MONA prints (its
// state 0 is a dummy initial state that reads one don't-care symbol before
// the word) back into an automata.DFA over the formula's alphabet, so that
// exact.Equivalent can compare it with exact.FormulaDFA.
package mona

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/ltl"
)

// ErrUnsupported is returned for atoms the translation does not cover: the
// MOD_r_m and Mid predicates.
var ErrUnsupported = errors.New("not translated to MONA")

// Path is the MONA executable looked up on $PATH.
const Path = "mona"

// Available reports whether the mona executable is on $PATH.
func Available() bool {
	_, err := exec.LookPath(Path)
	return err == nil
}

// Translate returns a MONA M2L-Str program whose models (over the tracks
// P0…P(k-1), one per symbol) are exactly the encodings of the non-empty
// words the formula accepts.
func Translate(f *ltl.Formula) (string, error) {
	alpha := f.Alphabet()
	var b strings.Builder
	b.WriteString("m2l-str;\n")
	// letters lists "P0", "P1", ... each in format, separated by sep.
	letters := func(format, sep string) {
		for k := range alpha {
			if k > 0 {
				b.WriteString(sep)
			}
			fmt.Fprintf(&b, format, k)
		}
	}
	b.WriteString("var2 ")
	letters("P%d", ", ")
	b.WriteString(";\n")
	// Exactly one letter per position.
	b.WriteString("all1 p: (")
	letters("p in P%d", " | ")
	b.WriteString(")")
	for k := range alpha {
		for l := k + 1; l < len(alpha); l++ {
			fmt.Fprintf(&b, " & ~(p in P%d & p in P%d)", k, l)
		}
	}
	b.WriteString(";\n")
	for _, g := range f.Nodes() {
		body, err := node(g)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "pred N%d(var1 x) = %s;\n", g.ID(), body)
	}
	fmt.Fprintf(&b, "ex1 n: n = max($) & N%d(n);\n", f.ID())
	return b.String(), nil
}

// node is the body of the predicate of g at position x; its operands are
// the predicates N<id> of its subformulas, applied to positions bound in
// nested scopes.
func node(g *ltl.Formula) (string, error) {
	sub := func(h *ltl.Formula, v string) string { return fmt.Sprintf("N%d(%s)", h.ID(), v) }
	var x, y string
	if g.X != nil {
		x = sub(g.X, "x")
	}
	if g.Y != nil {
		y = sub(g.Y, "x")
	}
	switch g.Op {
	case ltl.OpTrue:
		return "true", nil
	case ltl.OpFalse:
		return "false", nil
	case ltl.OpSymbol:
		return fmt.Sprintf("x in P%d", g.Symbol), nil
	case ltl.OpPredicate:
		switch g.Pred.Kind {
		case brasp.First:
			return "x = 0", nil
		case brasp.Last:
			return "x = max($)", nil
		}
		return "", fmt.Errorf("predicate %s: %w", g.Pred.Name(), ErrUnsupported)
	case ltl.OpNot:
		return "~" + x, nil
	case ltl.OpAnd:
		return "(" + x + " & " + y + ")", nil
	case ltl.OpOr:
		return "(" + x + " | " + y + ")", nil
	case ltl.OpImplies:
		return "(" + x + " => " + y + ")", nil
	case ltl.OpIff:
		return "(" + x + " <=> " + y + ")", nil
	}
	phi := func(v string) string { return sub(g.X, v) }
	psi := func(v string) string { return sub(g.Y, v) }
	// succ(y): y is the position right after x; pred(y): right before.
	succ := "x < y & (all1 z: x < z => y <= z)"
	pred := "y < x & (all1 z: z < x => z <= y)"
	switch g.Op {
	case ltl.OpSince:
		return fmt.Sprintf("(ex1 y: y < x & %s & (all1 z: y < z & z < x => %s))", psi("y"), phi("z")), nil
	case ltl.OpUntil:
		return fmt.Sprintf("(ex1 y: x < y & %s & (all1 z: x < z & z < y => %s))", psi("y"), phi("z")), nil
	case ltl.OpSinceNS:
		return fmt.Sprintf("(ex1 y: y <= x & %s & (all1 z: y < z & z <= x => %s))", psi("y"), phi("z")), nil
	case ltl.OpUntilNS:
		return fmt.Sprintf("(ex1 y: x <= y & %s & (all1 z: x <= z & z < y => %s))", psi("y"), phi("z")), nil
	case ltl.OpNext:
		return fmt.Sprintf("(ex1 y: %s & %s)", succ, phi("y")), nil
	case ltl.OpWeakNext:
		return fmt.Sprintf("(all1 y: (%s) => %s)", succ, phi("y")), nil
	case ltl.OpYesterday:
		return fmt.Sprintf("(ex1 y: %s & %s)", pred, phi("y")), nil
	case ltl.OpWeakYesterday:
		return fmt.Sprintf("(all1 y: (%s) => %s)", pred, phi("y")), nil
	case ltl.OpEventually:
		return fmt.Sprintf("(ex1 y: x <= y & %s)", phi("y")), nil
	case ltl.OpGlobally:
		return fmt.Sprintf("(all1 y: x <= y => %s)", phi("y")), nil
	case ltl.OpOnce:
		return fmt.Sprintf("(ex1 y: y <= x & %s)", phi("y")), nil
	case ltl.OpHistorically:
		return fmt.Sprintf("(all1 y: y <= x => %s)", phi("y")), nil
	}
	return "", fmt.Errorf("operator %v: %w", g.Op, ErrUnsupported)
}

// Run runs `mona -q -w` on a program and returns its DFA over alpha (read by
// ParseDFA) and the CPU time (user + system) of the mona process, which,
// unlike its wall-clock time, does not count waiting for a busy machine.
func Run(ctx context.Context, program string, alpha alphabet.Alphabet) (*automata.DFA, time.Duration, error) {
	f, err := os.CreateTemp("", "brasp-*.mona")
	if err != nil {
		return nil, 0, err
	}
	defer os.Remove(f.Name())
	if _, err := f.WriteString(program); err != nil {
		f.Close()
		return nil, 0, err
	}
	if err := f.Close(); err != nil {
		return nil, 0, err
	}
	cmd := exec.CommandContext(ctx, Path, "-q", "-w", f.Name())
	out, err := cmd.Output()
	var elapsed time.Duration
	if cmd.ProcessState != nil {
		elapsed = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, elapsed, fmt.Errorf("mona: %v: %s", err, strings.TrimSpace(string(ee.Stderr)))
		}
		return nil, elapsed, fmt.Errorf("mona: %w", err)
	}
	d, err := ParseDFA(string(out), alpha)
	return d, elapsed, err
}

// ParseDFA reads the automaton printed by `mona -w` for a program from
// Translate: free variables P0…P(k-1), one per symbol of alpha. Symbol k is
// the track vector with a 1 exactly at P<k>. MONA's state 0 reads one
// don't-care symbol before the word; the DFA returned starts in its
// successor. Acceptance of the empty word is not meaningful (the programs
// exclude it) and is set to false.
func ParseDFA(out string, alpha alphabet.Alphabet) (*automata.DFA, error) {
	var vars []string
	accept := map[int]bool{}
	type tr struct {
		from, to int
		bits     string
	}
	var trs []tr
	n := 0
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "DFA for formula with free variables:"):
			vars = strings.Fields(strings.TrimPrefix(line, "DFA for formula with free variables:"))
		case strings.HasPrefix(line, "Accepting states:"):
			for _, s := range strings.Fields(strings.TrimPrefix(line, "Accepting states:")) {
				q, err := strconv.Atoi(s)
				if err != nil {
					return nil, fmt.Errorf("mona output: bad state %q", s)
				}
				accept[q] = true
			}
		case strings.HasPrefix(line, "Automaton has "):
			f := strings.Fields(line)
			if len(f) < 3 {
				return nil, fmt.Errorf("mona output: %q", line)
			}
			var err error
			if n, err = strconv.Atoi(f[2]); err != nil {
				return nil, fmt.Errorf("mona output: %q", line)
			}
		case strings.HasPrefix(line, "State "):
			// State 3: 0X1 -> state 5
			var t tr
			head, rest, ok := strings.Cut(strings.TrimPrefix(line, "State "), ":")
			if !ok {
				return nil, fmt.Errorf("mona output: %q", line)
			}
			bits, to, ok := strings.Cut(strings.TrimSpace(rest), "-> state ")
			if !ok {
				return nil, fmt.Errorf("mona output: %q", line)
			}
			var err1, err2 error
			t.from, err1 = strconv.Atoi(strings.TrimSpace(head))
			t.to, err2 = strconv.Atoi(strings.TrimSpace(to))
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("mona output: %q", line)
			}
			t.bits = strings.TrimSpace(bits)
			trs = append(trs, t)
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("mona output has no automaton:\n%s", out)
	}
	// Track position of each symbol's variable.
	track := make([]int, len(alpha))
	for k := range alpha {
		track[k] = -1
		for t, v := range vars {
			if v == "P"+strconv.Itoa(k) {
				track[k] = t
			}
		}
	}
	for k, t := range track {
		if t < 0 {
			return nil, fmt.Errorf("mona output: no track for symbol %s", alphabet.Quote(alpha[k]))
		}
	}
	matches := func(bits string, k int) bool {
		if len(bits) != len(vars) {
			return false
		}
		for t := range vars {
			want := byte('0')
			if t == track[k] {
				want = '1'
			}
			if bits[t] != 'X' && bits[t] != want {
				return false
			}
		}
		return true
	}
	delta := make([][]int, n)
	for q := range delta {
		delta[q] = make([]int, len(alpha))
		for k := range alpha {
			delta[q][k] = -1
		}
	}
	start := -1
	for _, t := range trs {
		if t.from < 0 || t.from >= n || t.to < 0 || t.to >= n {
			return nil, fmt.Errorf("mona output: transition %d → %d out of range", t.from, t.to)
		}
		if t.from == 0 {
			start = t.to
		}
		for k := range alpha {
			if matches(t.bits, k) {
				delta[t.from][k] = t.to
			}
		}
	}
	if start < 0 {
		return nil, fmt.Errorf("mona output: no transition from the dummy state 0")
	}
	d := automata.NewDFA(alpha, n)
	d.Start = start
	for q := range n {
		d.Accept[q] = accept[q]
		for k := range alpha {
			r := delta[q][k]
			if r < 0 {
				return nil, fmt.Errorf("mona output: state %d has no transition on %s", q, alphabet.Quote(alpha[k]))
			}
			d.Delta[q][k] = r
		}
	}
	// Accepting the empty word would need the start state accepting; a
	// non-empty word that returns to the start state keeps MONA's verdict.
	if accept[start] {
		return nil, fmt.Errorf("mona output: the start state accepts, but the translation excludes the empty word")
	}
	return d, nil
}
