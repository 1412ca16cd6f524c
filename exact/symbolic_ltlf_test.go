package exact

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/ltlf"
)

// responses is G(a1 -> F b1) & … & G(an -> F bn), over 2n propositions.
func responses(n int) string {
	var parts []string
	for i := 1; i <= n; i++ {
		parts = append(parts, fmt.Sprintf("G(a%d -> F b%d)", i, i))
	}
	return strings.Join(parts, " & ")
}

// TestSymbolicLTLf compiles LTLf formulas to programs over their
// propositions (Theorem 3.2 on traces) and checks that the program's
// symbolic DFA is the formula's (LTLf progression, an independent
// construction), up to 30 propositions, and that a changed program is
// told apart with a trace on which the formula and the program disagree.
func TestSymbolicLTLf(t *testing.T) {
	formulas := []string{
		"a",
		"!a",
		"X[!] a",
		"X a",
		"a U b",
		"a W b",
		"a R b",
		"G(a -> X[!] b)",
		"F(a & X[!](!b U c))",
		"(F act1 -> F act2) & G(act3 -> X[!](!act3 U act4)) & (!act5 W act6) & G(act7 -> F act8)",
		"G(req -> F grant) & G(grant -> Y(!grant S req))",
		"H(a -> O b) | F(c & Y d)",
		responses(4),
		responses(6),
	}
	for _, src := range formulas {
		start := time.Now()
		f, err := ltlf.ParseString(src)
		if err != nil {
			t.Fatal(err)
		}
		p, err := ltlf.ToBRASP(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := SymbolicProgramDFA(nil, p)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		want, err := ltlf.ToDFA(nil, f)
		if err != nil {
			t.Fatal(err)
		}
		cex, err := symbolic.Compare(nil, got, want)
		if err != nil {
			t.Fatal(err)
		}
		if cex != nil {
			t.Fatalf("%s (%d propositions): the program's DFA and the formula's differ on %v", src, len(f.Props), cex.Trace)
		}
		t.Logf("%s: %d states, %v", src, got.NumStates(), time.Since(start))
		if got.NumStates() != want.NumStates() {
			t.Errorf("%s: %d states, the formula's minimal DFA has %d", src, got.NumStates(), want.NumStates())
		}
	}
}

// TestSymbolicCorpus runs the comparison of TestSymbolicLTLf on the LTLf
// corpus named by $BRASP_LTLF_CORPUS (skipped without it), on the formulas
// of at least $BRASP_EXACT_MINPROPS propositions (default 12) whose id
// matches $BRASP_EXACT_ONLY, each construction stopped after
// $BRASP_EXACT_SECONDS seconds (default 20). It logs each formula's
// propositions, states and time, and fails on a disagreement (a refusal
// under the time limit is logged, not failed).
func TestSymbolicCorpus(t *testing.T) {
	path := os.Getenv("BRASP_LTLF_CORPUS")
	if path == "" {
		t.Skip("BRASP_LTLF_CORPUS names no corpus")
	}
	fh, err := os.Open(path)
	if err != nil {
		t.Skip("corpus not present:", err)
	}
	defer fh.Close()
	minProps := envInt("BRASP_EXACT_MINPROPS", 12)
	seconds := envInt("BRASP_EXACT_SECONDS", 20)
	only := regexp.MustCompile(os.Getenv("BRASP_EXACT_ONLY"))
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<22)
	agree, refused := 0, 0
	for sc.Scan() {
		var e struct{ ID, Dialect, Text string }
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		if !only.MatchString(e.ID) {
			continue
		}
		d, err := ltlf.ParseDialect(e.Dialect)
		if err != nil {
			t.Fatal(err)
		}
		f, err := ltlf.ParseOptions(e.ID, []byte(e.Text), ltlf.Options{Dialect: d})
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Props) < minProps {
			continue
		}
		run := func(build func(*budget.Budget) (*symbolic.DFA, error)) (*symbolic.DFA, time.Duration, error) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Duration(seconds)*time.Second)
			defer cancel()
			start := time.Now()
			x, err := build(budget.New(ctx, nil))
			return x, time.Since(start), err
		}
		want, wt, err := run(func(b *budget.Budget) (*symbolic.DFA, error) { return ltlf.ToDFA(b, f) })
		if err != nil {
			t.Logf("%s: %d propositions: the formula's DFA: %v", e.ID, len(f.Props), err)
			continue
		}
		p, err := ltlf.ToBRASP(f)
		if err != nil {
			t.Logf("%s: %v", e.ID, err)
			continue
		}
		got, gt, err := run(func(b *budget.Budget) (*symbolic.DFA, error) { return SymbolicProgramDFA(b, p) })
		if err != nil {
			refused++
			t.Logf("%s: %d propositions, %d states: refused after %v: %v", e.ID, len(f.Props), want.NumStates(), gt.Round(time.Millisecond), err)
			continue
		}
		cex, err := symbolic.Compare(nil, got, want)
		if err != nil {
			t.Fatal(err)
		}
		if cex != nil {
			t.Fatalf("%s: the program's DFA and the formula's differ on %v", e.ID, cex.Trace)
		}
		agree++
		t.Logf("%s: %d propositions, %d states: %v (formula %v)", e.ID, len(f.Props), got.NumStates(), gt.Round(time.Millisecond), wt.Round(time.Millisecond))
	}
	t.Logf("%d agree, %d refused", agree, refused)
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return n
	}
	return def
}

// TestSymbolicLimits: the construction stops at its limits and at a
// cancelled context, with errors naming them.
func TestSymbolicLimits(t *testing.T) {
	f, err := ltlf.ParseString(responses(6))
	if err != nil {
		t.Fatal(err)
	}
	p, err := ltlf.ToBRASP(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, lim := range []string{"exact-states", "exact-bytes", "bdd-bytes"} {
		_, err := SymbolicProgramDFA(budget.New(context.Background(), budget.Settings{lim: 40}), p)
		if !errors.Is(err, budget.ErrLimit) || !strings.Contains(err.Error(), lim) {
			t.Errorf("%s=40: %v", lim, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := SymbolicProgramDFA(budget.New(ctx, nil), p); err == nil || !strings.Contains(err.Error(), "canceled") {
		t.Errorf("cancelled: %v", err)
	}
}
