package compile

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/internal/testkit"
)

// chain is a program of n attention operations, each reading the previous
// one: its compiled width grows with n and so does every head's d×d matrix.
func chain(t *testing.T, n int) *brasp.Program {
	t.Helper()
	var b strings.Builder
	b.WriteString("Q_a(i)\nQ_b(i)\nP0(i) := Q_a(i)\n")
	for k := 1; k <= n; k++ {
		fmt.Fprintf(&b, "P%d(i) := rightmost [j<i, P%d(j)] P%d(j) : P%d(i)\n", k, k-1, k-1, k-1)
	}
	p, err := brasp.Parse("chain.brasp", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestParamsLimit: a 100-operation chain (33 million parameters, several
// GB as exact rationals) is refused by compile-params before any matrix is
// allocated, naming the limit; params counts exactly what the model holds.
func TestParamsLimit(t *testing.T) {
	_, err := Compile(nil, chain(t, 100), Options{})
	var le *budget.Error
	if !errors.As(err, &le) || le.Limit.Name != "compile-params" || !strings.Contains(err.Error(), "--limit compile-params=N") {
		t.Fatalf("got %v, want a compile-params error", err)
	}
	for _, opts := range Variants {
		p := chain(t, 6)
		c := &compiler{p: p, opts: opts, avail: map[int]slot{}}
		c.maxFFN = maxFFNInputs.Default
		if err := c.run(); err != nil {
			t.Fatal(err)
		}
		m, err := c.model()
		if err != nil {
			t.Fatal(err)
		}
		if got, want := c.params(), int64(m.NumParams()); got != want {
			t.Errorf("%v: params %d, the model has %d", opts, got, want)
		}
		small := budget.New(context.Background(), budget.Settings{"compile-params": int64(m.NumParams()) - 1})
		if _, err := Compile(small, p, opts); !errors.Is(err, budget.ErrLimit) {
			t.Errorf("%v: one parameter over the limit: %v", opts, err)
		}
		exact := budget.New(context.Background(), budget.Settings{"compile-params": int64(m.NumParams())})
		if _, err := Compile(exact, p, opts); err != nil {
			t.Errorf("%v: at the limit: %v", opts, err)
		}
	}
}

// wide is a program whose output reads n attention vectors: its FFN's truth
// table has 2^n rows.
func wide(t *testing.T, n int) *brasp.Program {
	t.Helper()
	var b strings.Builder
	b.WriteString("Q_a(i)\nQ_b(i)\n")
	var conj []string
	for k := 1; k <= n; k++ {
		fmt.Fprintf(&b, "V%d(i) := rightmost [j<i, %s] Q_a(j) : 0\n", k, map[bool]string{true: "1", false: "!Q_b(j)"}[k%2 == 1])
		conj = append(conj, fmt.Sprintf("V%d(i)", k))
	}
	b.WriteString("Y(i) := " + strings.Join(conj, " & ") + "\n")
	p, err := brasp.Parse("wide.brasp", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFFNInputsLimit: a function over compile-ffn-inputs coordinates is
// refused with the budget error naming it; the limit is exact and raisable.
func TestFFNInputsLimit(t *testing.T) {
	p := wide(t, 6)
	for _, opts := range Variants {
		var le *budget.Error
		_, err := Compile(budget.New(context.Background(), budget.Settings{"compile-ffn-inputs": 5}), p, opts)
		// The sequential FFN reads the 6 vectors; the fused FFNs of the
		// multi-head construction read more.
		if !errors.As(err, &le) || le.Limit.Name != "compile-ffn-inputs" || le.Need < 6 || (!opts.MultiHead && le.Need != 6) || !strings.Contains(err.Error(), "--limit compile-ffn-inputs=N") {
			t.Fatalf("%v: got %v, want compile-ffn-inputs", opts, err)
		}
		if _, err := Compile(budget.New(context.Background(), budget.Settings{"compile-ffn-inputs": le.Need}), p, opts); err != nil {
			t.Errorf("%v: at the limit: %v", opts, err)
		}
	}
	if _, err := Compile(nil, wide(t, 21), Options{}); !errors.Is(err, budget.ErrLimit) {
		t.Errorf("21 inputs under the default: %v", err)
	}
}

// TestCompileCancelled: a cancelled budget stops the compiler at its next
// truth table.
func TestCompileCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Compile(budget.New(ctx, nil), wide(t, 14), Options{}); !errors.Is(err, budget.ErrStopped) {
		t.Fatalf("got %v, want stopped", err)
	}
}

// TestCompileStopsSoonAfterCancel: the compiler looks at its budget every
// few thousand units of work while it builds the model's matrices too, not
// only in its truth tables. A 20-operation chain compiles to 41 layers of
// width 84 (168 with layer norm).
func TestCompileStopsSoonAfterCancel(t *testing.T) {
	p := chain(t, 20)
	for _, opts := range []Options{{}, {LayerNorm: true}} {
		testkit.StopsSoonAfterCancel(t, 6, func(b *budget.Budget) error {
			_, err := Compile(b, p, opts)
			return err
		})
	}
}
