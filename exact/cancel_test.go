package exact

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/internal/testkit"
)

// kthFromEnd is the program of "the k-th symbol before the last is a": a
// chain of k attention operations, whose minimal DFA has 2^(k+1) states.
func kthFromEnd(t testing.TB, k int) *brasp.Program {
	t.Helper()
	var b strings.Builder
	b.WriteString("Q_a(i)\nQ_b(i)\nP1(i) := rightmost [j<i, 1] Q_a(j) : 0\n")
	for m := 2; m <= k; m++ {
		fmt.Fprintf(&b, "P%d(i) := rightmost [j<i, 1] P%d(j) : 0\n", m, m-1)
	}
	p, err := brasp.Parse("kth.brasp", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestProgramDFAStopsSoonAfterCancel: the exact semantics looks at its
// budget every few thousand units of work in every step (attention,
// projection, refinement, position-wise tables, the final minimisation),
// so a cancelled context stops it at its next look wherever it is.
func TestProgramDFAStopsSoonAfterCancel(t *testing.T) {
	p := kthFromEnd(t, 12)
	b := budget.New(context.Background(), nil)
	d, err := ProgramDFA(b, p)
	if err != nil {
		t.Fatal(err)
	}
	if d.NumStates() != 1<<13 {
		t.Fatalf("%d states, want 2^13", d.NumStates())
	}
	// Work is charged as it is done: no step between two looks at the
	// context is longer than two table blocks.
	t.Logf("work %d units, largest step %d", b.Used(), b.LargestStep())
	if b.LargestStep() > testkit.MaxStep {
		t.Errorf("a step of %d units", b.LargestStep())
	}
	testkit.StopsSoonAfterCancel(t, 6, func(b *budget.Budget) error {
		_, err := ProgramDFA(b, p)
		return err
	})
}
