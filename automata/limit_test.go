package automata

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"

	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/internal/testkit"
)

// chainDFA is a chain 0 → 1 → … → n-1 on a (n-1 absorbing), b a self-loop,
// accepting n-2: counter-free, minimal, with n images X·a^k of n−k states
// each, so its image orbit holds about n²/2 states and n transformations of
// n states each.
func chainDFA(n int) *DFA {
	d := NewDFA(testkit.Letters(2), n)
	for q := range n {
		d.Delta[q][0] = min(q+1, n-1)
		d.Delta[q][1] = q
		d.States[q] = "q" + strconv.Itoa(q)
	}
	d.Accept[n-2] = true
	return d
}

// counterDFA is the saturating counter: a increments up to n-1, b
// decrements down to 0, n-1 accepts. It is counter-free with a transition
// monoid of Θ(n³) elements.
func counterDFA(n int) *DFA {
	d := NewDFA(testkit.Letters(2), n)
	for q := range n {
		d.Delta[q][0] = min(q+1, n-1)
		d.Delta[q][1] = max(q-1, 0)
	}
	d.Accept[n-1] = true
	return d
}

func limitOf(t *testing.T, err error) *budget.Limit {
	t.Helper()
	var le *budget.Error
	if !errors.As(err, &le) {
		t.Fatalf("got %v, want a budget limit error", err)
	}
	return le.Limit
}

// TestClassifyLargeChain: the orbit of a 20,000-state chain would hold 3·10⁹
// ints (the transformations fromRep and toRep of every image); Classify stops
// at orbit-bytes, naming it, instead of running out of memory. Minimising it
// is O(n log n) (a quadratic refinement took seconds).
func TestClassifyLargeChain(t *testing.T) {
	d := chainDFA(20000)
	if m := minimize(t, d); m.NumStates() != 20000 {
		t.Fatalf("the chain minimises to %d states", m.NumStates())
	}
	_, err := Classify(nil, d)
	if l := limitOf(t, err); l != OrbitBytes {
		t.Fatalf("got %v, want orbit-bytes", err)
	}
	want := "the image orbit exceeds the limit orbit-bytes=268435456 bytes"
	if got := err.Error(); len(got) < len(want) || got[:len(want)] != want {
		t.Errorf("message: %s", got)
	}
	// Raised, a smaller chain classifies.
	big := budget.New(context.Background(), budget.Settings{"orbit-bytes": 1 << 30})
	c, err := Classify(big, chainDFA(2000))
	if err != nil || !c.StarFree {
		t.Fatalf("2,000-state chain: %v", err)
	}
}

// TestLimitsAreExact: each construction's meter refuses one byte below what
// it needs and succeeds at it, so the limits in a user's --limit mean what
// they say.
func TestLimitsAreExact(t *testing.T) {
	d := counterDFA(7)
	runs := map[*budget.Limit]func(b *budget.Budget) error{
		OrbitBytes:  func(b *budget.Budget) error { _, err := NewImageOrbit(b, d); return err },
		MonoidBytes: func(b *budget.Budget) error { _, err := TransitionMonoid(b, d); return err },
		SubsetBytes: func(b *budget.Budget) error { _, err := d.NFA().Determinize(b); return err },
		MinimizeBytes: func(b *budget.Budget) error {
			_, err := Minimize(b, randomDFA(rand.New(rand.NewPCG(3, 4)), 300, 3))
			return err
		},
	}
	for l, run := range runs {
		need := minimalLimit(t, l, run)
		if err := run(budget.New(context.Background(), budget.Settings{l.Name: need - 1})); limitOf(t, err) != l {
			t.Errorf("%s=%d: %v", l.Name, need-1, err)
		}
	}
}

// minimalLimit returns the least value of l under which run succeeds.
func minimalLimit(t *testing.T, l *budget.Limit, run func(*budget.Budget) error) int64 {
	t.Helper()
	lo, hi := int64(1), l.Default
	if err := run(budget.New(context.Background(), budget.Settings{l.Name: hi})); err != nil {
		t.Fatalf("%s at its default: %v", l.Name, err)
	}
	for lo < hi {
		mid := (lo + hi) / 2
		if run(budget.New(context.Background(), budget.Settings{l.Name: mid})) == nil {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// TestBytesAreFaithful compares what the orbit and the monoid are charged
// with the heap they keep: within a factor of four either way, so that a
// byte limit bounds memory.
func TestBytesAreFaithful(t *testing.T) {
	for _, c := range []struct {
		limit *budget.Limit
		d     *DFA
		build func(b *budget.Budget, d *DFA) (any, error)
	}{
		{OrbitBytes, chainDFA(500), func(b *budget.Budget, d *DFA) (any, error) { return NewImageOrbit(b, d) }},
		{MonoidBytes, counterDFA(25), func(b *budget.Budget, d *DFA) (any, error) { return TransitionMonoid(b, d) }},
	} {
		charged := minimalLimit(t, c.limit, func(b *budget.Budget) error { _, err := c.build(b, c.d); return err })
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		kept, err := c.build(nil, c.d)
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(kept)
		heap := int64(after.HeapAlloc) - int64(before.HeapAlloc)
		t.Logf("%s: charged %d bytes, heap %d bytes", c.limit.Name, charged, heap)
		if charged < heap/4 || charged > 4*heap {
			t.Errorf("%s: charged %d bytes for a heap of %d", c.limit.Name, charged, heap)
		}
	}
}

// TestMinimizeBytesAreFaithful compares what Minimize is charged with what
// it allocates (its memory is transient but for the result): within a factor
// of four either way.
func TestMinimizeBytesAreFaithful(t *testing.T) {
	for _, d := range []*DFA{chainDFA(20000), randomDFA(rand.New(rand.NewPCG(5, 6)), 20000, 4)} {
		charged := minimalLimit(t, MinimizeBytes, func(b *budget.Budget) error { _, err := Minimize(b, d); return err })
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		m := minimize(t, d)
		runtime.ReadMemStats(&after)
		alloc := int64(after.TotalAlloc - before.TotalAlloc)
		t.Logf("%d states → %d: charged %d bytes, allocated %d bytes", d.NumStates(), m.NumStates(), charged, alloc)
		if charged < alloc/4 || charged > 4*alloc {
			t.Errorf("charged %d bytes for %d allocated", charged, alloc)
		}
	}
}

// TestMinimizeStopsSoonAfterCancel: Minimize looks at its budget at least
// every few thousand units of work, so a context cancelled at its n-th look
// stops it there, whatever the look.
func TestMinimizeStopsSoonAfterCancel(t *testing.T) {
	testkit.StopsSoonAfterCancel(t, 4, func(b *budget.Budget) error {
		_, err := Minimize(b, randomDFA(rand.New(rand.NewPCG(7, 8)), 20000, 3))
		return err
	})
}

// TestCancelStops: a cancelled budget stops every construction with
// budget.ErrStopped.
func TestCancelStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b := budget.New(ctx, nil)
	nth := NewNFA(testkit.Letters(2), 13) // the 12th symbol from the end is b
	nth.Start = []int{0}
	nth.AddTransition(0, 0, 0)
	nth.AddTransition(0, 1, 0)
	nth.AddTransition(0, 1, 1)
	for q := 1; q < 12; q++ {
		nth.AddTransition(q, 0, q+1)
		nth.AddTransition(q, 1, q+1)
	}
	nth.Accept[12] = true
	for name, run := range map[string]func() error{
		"Determinize":      func() error { _, err := nth.Determinize(b); return err },
		"NewImageOrbit":    func() error { _, err := NewImageOrbit(b, chainDFA(500)); return err },
		"TransitionMonoid": func() error { _, err := TransitionMonoid(b, counterDFA(30)); return err },
		"Classify":         func() error { _, err := Classify(b, counterDFA(30)); return err },
		"Minimize":         func() error { _, err := Minimize(b, chainDFA(20000)); return err },
		"stableSemigroup": func() error {
			_, _, _, err := stableSemigroup(b, randomDFA(rand.New(rand.NewPCG(1, 2)), 200, 2))
			return err
		},
	} {
		if err := run(); !errors.Is(err, budget.ErrStopped) {
			t.Errorf("%s: %v, want stopped", name, err)
		}
	}
}

// TestAC0UndecidedByWork: the stable semigroup's work limit leaves the AC0
// answer unknown, naming monoid-work, while the other answers stand.
func TestAC0UndecidedByWork(t *testing.T) {
	c, err := Classify(budget.New(context.Background(), budget.Settings{"monoid-work": 4}), loadDFA(t, "tomita5.dfa"))
	if err != nil {
		t.Fatal(err)
	}
	if c.AC0Undecided == nil || c.AC0Undecided.Limit != MonoidWork || c.StarFree || c.NotStarFreeBy == nil {
		t.Fatalf("%+v", c)
	}
}

func BenchmarkMinimizeChain(b *testing.B) {
	d := chainDFA(20000)
	for b.Loop() {
		if _, err := Minimize(nil, d); err != nil {
			b.Fatal(err)
		}
	}
}
