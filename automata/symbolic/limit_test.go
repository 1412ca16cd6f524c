package symbolic_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/bdd"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/internal/testkit"
	"github.com/brasp-dev/brasp/ltlf"
)

// eventually returns the minimal DFA of F p_from & … & F p_{to-1} over the
// propositions p0 … p_{n-1}: 2^(to-from) states, each remembering which of
// its propositions have held.
func eventually(t testing.TB, n, from, to int) *symbolic.DFA {
	t.Helper()
	var props, conj []string
	for i := range n {
		props = append(props, fmt.Sprintf("p%d", i))
	}
	for i := from; i < to; i++ {
		conj = append(conj, fmt.Sprintf("F p%d", i))
	}
	f, err := ltlf.ParseString("propositions " + strings.Join(props, " ") + "\n" + strings.Join(conj, " & ") + "\n")
	if err != nil {
		t.Fatal(err)
	}
	d, err := ltlf.ToDFA(nil, f)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func and(v []bool) bool { return v[0] && v[1] }

// leastLimit returns the least value of the limit named name under which
// run succeeds, by bisection, after checking that run fails one below it
// naming that limit.
func leastLimit(t *testing.T, name string, run func(*budget.Budget) error) int64 {
	t.Helper()
	lo, hi := int64(1), int64(1)<<40
	for lo < hi {
		mid := (lo + hi) / 2
		if run(budget.New(context.Background(), budget.Settings{name: mid})) == nil {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	err := run(budget.New(context.Background(), budget.Settings{name: lo - 1}))
	var le *budget.Error
	if !errors.As(err, &le) || le.Limit.Name != name {
		t.Fatalf("%s=%d: %v, want that limit", name, lo-1, err)
	}
	return lo
}

// TestProductBytesAreFaithful: what a product is charged under
// symbolic-product-bytes is the heap it keeps, within a factor of two, and
// the limit refuses one byte below it.
func TestProductBytesAreFaithful(t *testing.T) {
	for _, n := range []int{10, 14} {
		a, c := eventually(t, n, 0, n-1), eventually(t, n, n-1, n)
		product := func(b *budget.Budget) (*symbolic.DFA, error) {
			return symbolic.Product(b, []*symbolic.DFA{a, c}, and)
		}
		charged := leastLimit(t, "symbolic-product-bytes", func(b *budget.Budget) error { _, err := product(b); return err })
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		p, err := product(nil)
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap := int64(after.HeapAlloc) - int64(before.HeapAlloc)
		t.Logf("%d states: charged %d bytes, heap %d bytes", p.NumStates(), charged, heap)
		if charged < heap/2 || charged > 2*heap {
			t.Errorf("%d states: charged %d bytes for a heap of %d", p.NumStates(), charged, heap)
		}
		runtime.KeepAlive(p)
		runtime.KeepAlive(a)
		runtime.KeepAlive(c)
	}
}

// TestMinimizeBytesAreExact: minimize-bytes refuses one byte below what
// symbolic.Minimize needs, and what it needs grows with the automaton.
func TestMinimizeBytesAreExact(t *testing.T) {
	var last int64
	for _, n := range []int{8, 12} {
		a, c := eventually(t, n, 0, n-1), eventually(t, n, n-1, n)
		charged := leastLimit(t, "minimize-bytes", func(b *budget.Budget) error {
			p, err := symbolic.Product(nil, []*symbolic.DFA{a, c}, and)
			if err != nil {
				t.Fatal(err)
			}
			_, err = symbolic.Minimize(b, p)
			return err
		})
		t.Logf("%d propositions: minimize-bytes %d", n, charged)
		if charged < 8*last {
			t.Errorf("%d propositions: %d bytes, %d for %d fewer", n, charged, last, 4)
		}
		last = charged
	}
}

// TestStopSoonAfterCancel: Product and Minimize look at their budget every
// few thousand units of work.
func TestStopSoonAfterCancel(t *testing.T) {
	a, c := eventually(t, 12, 0, 11), eventually(t, 12, 11, 12)
	testkit.StopsSoonAfterCancel(t, 3, func(b *budget.Budget) error {
		_, err := symbolic.Product(b, []*symbolic.DFA{a, c}, and)
		return err
	})
	testkit.StopsSoonAfterCancel(t, 3, func(b *budget.Budget) error {
		p, err := symbolic.Product(nil, []*symbolic.DFA{a, c}, and)
		if err != nil {
			t.Fatal(err)
		}
		_, err = symbolic.Minimize(b, p)
		return err
	})
}

// TestMinimizeChain: a chain of 40,000 states, each distinguished from the
// next only by the distance to the one accepting state, is minimal; the
// refinement splits it with work about n log n (Moore's rounds would take
// n rounds over n states, 1.6·10^9 steps, far past the limit here).
func TestMinimizeChain(t *testing.T) {
	const n = 40_000
	m := bdd.New(nil, 1)
	d := &symbolic.DFA{Props: []string{"a"}, M: m, Accept: make([]bool, n), Next: make([]bdd.Node, n), Leaf: map[bdd.Node]int{}}
	for q := range n {
		d.Leaf[m.Terminal(q)] = q
		d.Next[q] = m.Mk(0, m.Terminal(min(q+1, n-1)), m.Terminal(0))
	}
	d.Accept[n-2] = true
	b := budget.New(context.Background(), budget.Settings{"work": 1 << 26})
	min, err := symbolic.Minimize(b, d)
	if err != nil {
		t.Fatal(err)
	}
	if min.NumStates() != n {
		t.Fatalf("%d states, want %d", min.NumStates(), n)
	}
	t.Logf("work %d", b.Used())
}
