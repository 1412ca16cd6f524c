package compile

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
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
		c.opts.MaxFFNInputs = DefaultMaxFFNInputs
		if err := c.run(); err != nil {
			t.Fatal(err)
		}
		m := c.model()
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
