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
// Over propositions it reads "a held k steps before the last", with a
// position-wise vector after every attention so that tables are built too.
func kthFromEnd(t testing.TB, k int, overProps bool) *brasp.Program {
	t.Helper()
	var b strings.Builder
	if overProps {
		b.WriteString("propositions a b\nP1(i) := rightmost [j<i, 1] P_a(j) : 0\n")
	} else {
		b.WriteString("Q_a(i)\nQ_b(i)\nP1(i) := rightmost [j<i, 1] Q_a(j) : 0\n")
	}
	for m := 2; m <= k; m++ {
		prev := fmt.Sprintf("P%d", m-1)
		if overProps {
			fmt.Fprintf(&b, "R%d(i) := %s(i) | (P_b(i) & !P_b(i))\n", m-1, prev)
			prev = fmt.Sprintf("R%d", m-1)
		}
		fmt.Fprintf(&b, "P%d(i) := rightmost [j<i, 1] %s(j) : 0\n", m, prev)
	}
	p, err := brasp.Parse("kth.brasp", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// stopsSoonAfterCancel checks that construct, building the minimal
// automaton of a program, finds want states and looks at its budget every
// few thousand units of work in every step (attention, projection,
// refinement, position-wise tables, the final minimisation), so that a
// cancelled context stops it at its next look wherever it is.
func stopsSoonAfterCancel(t *testing.T, want int, construct func(*budget.Budget) (int, error)) {
	t.Helper()
	b := budget.New(context.Background(), nil)
	n, err := construct(b)
	if err != nil {
		t.Fatal(err)
	}
	if n != want {
		t.Fatalf("%d states, want %d", n, want)
	}
	// Work is charged as it is done: no step between two looks at the
	// context is longer than two table blocks.
	t.Logf("work %d units, largest step %d", b.Used(), b.LargestStep())
	testkit.StopsSoonAfterCancel(t, 6, func(b *budget.Budget) error {
		_, err := construct(b)
		return err
	})
}

func TestProgramDFAStopsSoonAfterCancel(t *testing.T) {
	p := kthFromEnd(t, 12, false)
	stopsSoonAfterCancel(t, 1<<13, func(b *budget.Budget) (int, error) {
		d, err := ProgramDFA(b, p)
		if err != nil {
			return 0, err
		}
		return d.NumStates(), nil
	})
}

// The construction over propositions, as the one over letters.
func TestSymbolicProgramDFAStopsSoonAfterCancel(t *testing.T) {
	p := kthFromEnd(t, 13, true)
	stopsSoonAfterCancel(t, 1<<14, func(b *budget.Budget) (int, error) {
		d, err := SymbolicProgramDFA(b, p)
		if err != nil {
			return 0, err
		}
		return d.NumStates(), nil
	})
}
