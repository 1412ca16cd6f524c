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

// kthFromEndProps is kthFromEnd over propositions: "proposition a held k
// steps before the last", with a position-wise vector after every
// attention so that tables are built too.
func kthFromEndProps(t testing.TB, k int) *brasp.Program {
	t.Helper()
	var b strings.Builder
	b.WriteString("propositions a b\nP1(i) := rightmost [j<i, 1] P_a(j) : 0\n")
	for m := 2; m <= k; m++ {
		fmt.Fprintf(&b, "R%d(i) := P%d(i) | (P_b(i) & !P_b(i))\n", m-1, m-1)
		fmt.Fprintf(&b, "P%d(i) := rightmost [j<i, 1] R%d(j) : 0\n", m, m-1)
	}
	p, err := brasp.Parse("kth.brasp", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSymbolicProgramDFAStopsSoonAfterCancel: the construction over
// propositions looks at its budget every few thousand units of work in
// every step, as the construction over letters does.
func TestSymbolicProgramDFAStopsSoonAfterCancel(t *testing.T) {
	p := kthFromEndProps(t, 13)
	b := budget.New(context.Background(), nil)
	d, err := SymbolicProgramDFA(b, p)
	if err != nil {
		t.Fatal(err)
	}
	if d.NumStates() != 1<<14 {
		t.Fatalf("%d states, want 2^14", d.NumStates())
	}
	t.Logf("work %d units, largest step %d", b.Used(), b.LargestStep())
	testkit.StopsSoonAfterCancel(t, 6, func(b *budget.Budget) error {
		_, err := SymbolicProgramDFA(b, p)
		return err
	})
}
