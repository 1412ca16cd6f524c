package budget

import (
	"context"
	"errors"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

var testCells = Define("test-cells", 100, "cells", "cells of the test construction")

func TestMeterStopsAtTheNamedLimit(t *testing.T) {
	b := New(context.Background(), nil)
	m := b.Meter(testCells, "test table")
	if err := m.Add(100); err != nil {
		t.Fatalf("Add(100) at the limit 100: %v", err)
	}
	err := m.Add(1)
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("Add past the limit: got %v, want a limit error", err)
	}
	want := "test table exceeds the limit test-cells=100 cells (needs 101) (raise it with --limit test-cells=N)"
	if err.Error() != want {
		t.Fatalf("message:\n got %s\nwant %s", err, want)
	}
}

func TestSettingsRaiseTheLimit(t *testing.T) {
	s := Settings{}
	if err := s.Set("test-cells=2K"); err != nil {
		t.Fatal(err)
	}
	b := New(context.Background(), s)
	if got := b.Max(testCells); got != 2048 {
		t.Fatalf("Max = %d, want 2048", got)
	}
	if err := b.Check(testCells, 2048, "x"); err != nil {
		t.Fatal(err)
	}
	if err := b.Check(testCells, 2049, "x"); !errors.Is(err, ErrLimit) {
		t.Fatalf("Check past the raised limit: %v", err)
	}
}

func TestSettingsErrors(t *testing.T) {
	for arg, want := range map[string]string{
		"test-cells":              "want NAME=N",
		"nosuch=3":                `unknown limit "nosuch"`,
		"test-cells=0":            "want a positive integer",
		"test-cells=-3":           "want a positive integer",
		"test-cells=x":            "want a positive integer",
		"test-cells=9G":           "",
		"work=99999999999999999G": "too large",
	} {
		err := Settings{}.Set(arg)
		if want == "" {
			if err != nil {
				t.Errorf("Set(%q): %v", arg, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Set(%q) = %v, want an error containing %q", arg, err, want)
		}
	}
}

func TestStepStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	b := New(ctx, nil)
	for i := 0; i < 3*checkEvery; i++ {
		if err := b.Step(1); err != nil {
			t.Fatalf("live budget stopped: %v", err)
		}
	}
	cancel()
	var err error
	for i := 0; i <= checkEvery && err == nil; i++ {
		err = b.Step(1)
	}
	if !errors.Is(err, ErrStopped) || !errors.Is(err, context.Canceled) {
		t.Fatalf("after cancel: %v, want ErrStopped wrapping context.Canceled", err)
	}
}

func TestLargestStep(t *testing.T) {
	b := New(context.Background(), nil)
	for _, n := range []int64{3, 700, 5} {
		if err := b.Step(n); err != nil {
			t.Fatal(err)
		}
	}
	if b.LargestStep() != 700 || b.Used() != 708 {
		t.Fatalf("LargestStep %d, Used %d", b.LargestStep(), b.Used())
	}
}

func TestStepChargesWork(t *testing.T) {
	b := New(context.Background(), Settings{"work": 10 * checkEvery})
	var err error
	for i := 0; i < 20 && err == nil; i++ {
		err = b.Step(checkEvery)
	}
	var le *Error
	if !errors.As(err, &le) || le.Limit != Work {
		t.Fatalf("got %v, want the work limit", err)
	}
}

func TestNilBudget(t *testing.T) {
	var b *Budget
	if err := b.Step(1 << 50); err != nil {
		t.Fatal(err)
	}
	if b.Max(testCells) != 100 || b.Context() == nil || b.Err() != nil {
		t.Fatal("nil budget is not the default budget")
	}
	if err := b.Meter(testCells, "x").Add(101); !errors.Is(err, ErrLimit) {
		t.Fatalf("nil budget's meter: %v", err)
	}
}

func TestDefinePanicsOnDuplicate(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	Define("test-cells", 1, "cells", "again")
}

// TestLookupAndAll: every defined limit is found by name and listed once,
// in name order; unknown names are not found.
func TestLookupAndAll(t *testing.T) {
	more := Define("test-aaa", 7, "things", "a limit that sorts first")
	if l, ok := Lookup("test-cells"); !ok || l != testCells {
		t.Errorf("Lookup(test-cells) = %v, %v", l, ok)
	}
	if l, ok := Lookup("test-aaa"); !ok || l != more {
		t.Errorf("Lookup(test-aaa) = %v, %v", l, ok)
	}
	if _, ok := Lookup("test-none"); ok {
		t.Error("Lookup found an undefined limit")
	}
	all := All()
	seen := map[string]int{}
	for i, l := range all {
		seen[l.Name]++
		if i > 0 && all[i-1].Name >= l.Name {
			t.Errorf("All: %s before %s", all[i-1].Name, l.Name)
		}
	}
	if seen["test-cells"] != 1 || seen["test-aaa"] != 1 || seen[Work.Name] != 1 {
		t.Errorf("All: %v", seen)
	}
}

func TestMemoryBackstop(t *testing.T) {
	hold := make([]byte, 8<<20)
	runtime.GC()
	b := New(context.Background(), Settings{"memory": 1 << 20})
	var err error
	for i := 0; i < 1<<20 && err == nil; i++ {
		err = b.Step(1)
	}
	var le *Error
	if !errors.As(err, &le) || le.Limit != Memory {
		t.Fatalf("Step past the memory ceiling: %v, want the limit memory", err)
	}
	if !strings.Contains(err.Error(), "--limit memory=N") {
		t.Errorf("message %q does not say how to raise the limit", err)
	}
	runtime.KeepAlive(hold)
	// Under a generous ceiling the same loop runs to its end.
	b = New(context.Background(), Settings{"memory": 1 << 40})
	for i := 0; i < 1<<20; i++ {
		if err := b.Step(1); err != nil {
			t.Fatalf("Step under the memory ceiling: %v", err)
		}
	}
}

func TestMemoryDefaultFollowsTheRuntime(t *testing.T) {
	if Memory.Default <= 0 {
		t.Fatalf("memory default %d", Memory.Default)
	}
	old := debug.SetMemoryLimit(64 << 20)
	defer debug.SetMemoryLimit(old)
	if got := New(context.Background(), nil).memoryMax(); got > 64<<20 {
		t.Errorf("ceiling %d above the runtime's soft limit %d", got, 64<<20)
	}
	if got := New(context.Background(), Settings{"memory": 1 << 40}).memoryMax(); got != 1<<40 {
		t.Errorf("ceiling %d, want the user's setting %d", got, int64(1)<<40)
	}
}

// BenchmarkStep is Step in a tight loop, the cost every construction pays
// per unit of work (the context, the work limit and the live heap).
func BenchmarkStep(b *testing.B) {
	bud := New(context.Background(), nil)
	for b.Loop() {
		if err := bud.Step(1); err != nil {
			b.Fatal(err)
		}
	}
}
