package krohnrhodes

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/internal/testkit"
)

// bodyLines are the lines of a listing after its first, sorted.
func bodyLines(s string) []string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")[1:]
	slices.Sort(lines)
	return lines
}

// TestFormatStreamedAgrees: the streamed explicit form lists every line of
// the explicit form Format writes from the reachable global states (levels,
// resets by the levels above, homomorphism), and nothing else where the
// chain edges allow no unreachable tuple; and the A_3 of the paper's Figure
// comes out as Format writes it.
func TestFormatStreamedAgrees(t *testing.T) {
	ds := append(counterFreeOfSize(1, 6, 30), counterFreeOfSize(2, 9, 20)...)
	ds = append(ds, loadDFA(t, "a3.dfa"), chainDFA(7))
	equal := 0
	for i, d := range ds {
		c, err := Decompose(nil, d)
		if err != nil {
			t.Fatal(err)
		}
		var explicit, streamed strings.Builder
		if err := c.Format(nil, &explicit); err != nil {
			t.Fatal(err)
		}
		if err := c.FormatStreamed(nil, &streamed); err != nil {
			t.Fatal(err)
		}
		g, err := c.Global(nil)
		if err != nil {
			t.Fatal(err)
		}
		want, got := bodyLines(explicit.String()), bodyLines(streamed.String())
		for _, line := range want {
			if _, found := slices.BinarySearch(got, line); !found {
				t.Fatalf("DFA %d: streamed listing lacks %q\n%s", i, line, streamed.String())
			}
		}
		homs := strings.Count(streamed.String(), " -> ")
		if homs < len(g.States) {
			t.Fatalf("DFA %d: %d global states streamed, %d reachable", i, homs, len(g.States))
		}
		if homs == len(g.States) {
			if !slices.Equal(want, got) {
				t.Fatalf("DFA %d: listings differ:\n%s\n%s", i, explicit.String(), streamed.String())
			}
			equal++
		}
	}
	if equal < len(ds)/2 {
		t.Errorf("only %d of %d listings equal", equal, len(ds))
	}
}

// TestFormatStreamedHoldsNoGlobalStates: the 16-state saturating counter's
// cascade has 2^15 global states, whose list Global refuses within a
// cascade-bytes of 4 MiB; the streamed listing prints them all while its
// heap stays a few megabytes, and a cancelled budget stops it at its next
// look.
func TestFormatStreamedHoldsNoGlobalStates(t *testing.T) {
	c, err := Decompose(nil, chainDFA(16))
	if err != nil {
		t.Fatal(err)
	}
	var le *budget.Error
	if _, err := c.Global(budget.New(context.Background(), budget.Settings{"cascade-bytes": 4 << 20})); !errors.As(err, &le) {
		t.Fatalf("Global within 64 MiB: %v", err)
	}
	w := &heapWatcher{}
	if err := c.FormatStreamed(nil, w); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d lines, %d global states, peak heap %.1f MiB", w.lines, w.homs, float64(w.peak)/(1<<20))
	if w.homs != 1<<15 {
		t.Errorf("%d global states listed, want 2^15", w.homs)
	}
	if w.peak > 16<<20 {
		t.Errorf("peak heap %d bytes", w.peak)
	}
	testkit.StopsSoonAfterCancel(t, 6, func(b *budget.Budget) error {
		return c.FormatStreamed(b, &heapWatcher{})
	})
}

// heapWatcher counts the lines written to it and samples the heap every
// 1,024 lines.
type heapWatcher struct {
	lines, homs int
	peak        uint64
}

func (w *heapWatcher) Write(p []byte) (int, error) {
	n := strings.Count(string(p), "\n")
	w.homs += strings.Count(string(p), " -> ")
	if w.lines/1024 != (w.lines+n)/1024 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		w.peak = max(w.peak, ms.HeapAlloc)
	}
	w.lines += n
	return len(p), nil
}
