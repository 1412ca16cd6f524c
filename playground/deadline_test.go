package playground

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/brasp-dev/brasp/budget"
)

// counterSource is the .dfa text of the saturating counter on 0..n-1: a
// increments, b decrements, n-1 accepts. Its Krohn–Rhodes cascade has n-1
// levels and more global states than any limit lets Format list.
func counterSource(n int) string {
	var b strings.Builder
	b.WriteString("alphabet a b\nstart q0\naccept q" + fmt.Sprint(n-1) + "\n")
	for q := range n {
		fmt.Fprintf(&b, "q%d a q%d\nq%d b q%d\n", q, min(q+1, n-1), q, max(q-1, 0))
	}
	return b.String()
}

// wideProgram's output reads n attention vectors: compiling it tabulates a
// function of n inputs (2^n rows).
func wideProgram(n int) string {
	var b strings.Builder
	b.WriteString("Q_a(i)\nQ_b(i)\n")
	var conj []string
	for k := 1; k <= n; k++ {
		fmt.Fprintf(&b, "V%d(i) := rightmost [j<i, 1] Q_a(j) : 0\n", k)
		conj = append(conj, fmt.Sprintf("V%d(i)", k))
	}
	b.WriteString("Y(i) := " + strings.Join(conj, " & ") + "\n")
	return b.String()
}

// TestDeadlineStopsConstructions: a request past its deadline is answered
// 503 and its construction stops computing, freeing its slot, for every
// construction an expensive endpoint runs (exact semantics and
// classification, Krohn–Rhodes and its cascade, decompilation with its
// exact check, compilation). The limits are raised so that only the
// deadline can stop them: each would otherwise compute for minutes. The
// bound on the time to free the slot (60 s) is far above what it takes
// (logged), so a loaded machine does not fail the test; a construction that
// ignores its budget does.
func TestDeadlineStopsConstructions(t *testing.T) {
	raised := budget.Settings{"cascade-bytes": 1 << 30, "orbit-bytes": 1 << 30, "exact-states": 1 << 22, "compile-ffn-inputs": 24}
	for _, c := range []struct {
		name, path string
		body       any
	}{
		{"classify", "/api/dfa", DFARequest{Program: kth(15)}},
		{"cascade", "/api/automaton", AutomatonRequest{Kind: "dfa", Source: counterSource(41)}},
		{"decompile", "/api/decompile", DecompileRequest{Program: kth(16)}},
		{"compile", "/api/compile", CompileRequest{Program: wideProgram(23), Word: "ab"}}, // an 8M-row truth table
	} {
		t.Run(c.name, func(t *testing.T) {
			a := NewAPI(Config{Timeout: 100 * time.Millisecond, Limits: raised})
			body, _ := json.Marshal(c.body)
			start := time.Now()
			r := a.Call(context.Background(), "POST", c.path, body)
			answered := time.Since(start)
			if r.Status != statusUnavailable {
				t.Fatalf("status %d after %v: %s", r.Status, answered, r.Body)
			}
			for len(a.expensive) > 0 {
				if time.Since(start) > 60*time.Second {
					t.Fatalf("the construction still holds its slot 60 s after the request")
				}
				time.Sleep(10 * time.Millisecond)
			}
			t.Logf("answered 503 after %v, slot freed after %v", answered, time.Since(start))
		})
	}
}

// TestStoppedWhileLoading: a deadline that stops a loader is answered as the
// time limit (503, stopped), not as a problem of the source at 0:0.
func TestStoppedWhileLoading(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b := budget.New(ctx, nil)
	err := fmt.Errorf("input.dfa: %w", b.Err())
	e := sourceErrors("source", err)
	if e.Status != statusUnavailable || !e.stopped || len(e.Errors) != 0 {
		t.Fatalf("got %d %+v, want 503 stopped", e.Status, e)
	}
}
