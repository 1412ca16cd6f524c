package krohnrhodes

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/budget"
)

// TestCounterCascadeWithinBudget: the cascade of the 41-state saturating
// counter (chainDFA) has too many global states to list (printing them once
// took gigabytes); Format stops enumerating at cascade-bytes (lowered here to
// 4 MiB to keep the test short), says so, and prints the context form, whose
// program is still right.
func TestCounterCascadeWithinBudget(t *testing.T) {
	d := chainDFA(41)
	c, err := Decompose(nil, d)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	small := budget.New(context.Background(), budget.Settings{"cascade-bytes": 4 << 20})
	if err := c.Format(small, &out); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	first, _, _ := strings.Cut(out.String(), "\n")
	t.Logf("%s (%d bytes printed, %d MiB allocated)", first, out.Len(), (after.TotalAlloc-before.TotalAlloc)>>20)
	if !strings.Contains(first, "global states not listed") || !strings.Contains(first, "--limit cascade-bytes=N") {
		t.Errorf("first line: %s", first)
	}
	var le *budget.Error
	if _, err := c.Global(small); !errors.As(err, &le) || le.Limit != CascadeBytes {
		t.Errorf("Global: %v", err)
	}
	p, err := CascadeToBRASP(c)
	if err != nil {
		t.Fatal(err)
	}
	checkProgram(t, d, p, 6, 20, rand.New(rand.NewPCG(41, 41)))
}

// TestDecomposeCancelled: a cancelled budget stops the decomposition.
func TestDecomposeCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b := budget.New(ctx, nil)
	if _, err := Decompose(b, chainDFA(41)); !errors.Is(err, budget.ErrStopped) {
		t.Fatalf("Decompose: %v, want stopped", err)
	}
	c, err := Decompose(nil, chainDFA(41))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Format(b, &strings.Builder{}); !errors.Is(err, budget.ErrStopped) {
		t.Fatalf("Format: %v, want stopped", err)
	}
	if _, _, err := DFAToBRASP(b, chainDFA(41)); !errors.Is(err, budget.ErrStopped) {
		t.Fatalf("DFAToBRASP: %v, want stopped", err)
	}
}

// TestCascadeBytesBoundsDecompose: Decompose's own meter (holonomy sets,
// tiles, rules and the checked global states) names cascade-bytes.
func TestCascadeBytesBoundsDecompose(t *testing.T) {
	var le *budget.Error
	_, err := Decompose(budget.New(context.Background(), budget.Settings{"cascade-bytes": 4096}), chainDFA(41))
	if !errors.As(err, &le) || le.Limit != CascadeBytes {
		t.Fatalf("got %v, want cascade-bytes", err)
	}
}
