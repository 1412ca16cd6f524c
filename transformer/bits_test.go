package transformer_test

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/examples"
	"github.com/brasp-dev/brasp/position"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
)

// growingModel has layers FFNs x ↦ x + ReLU(x/3^20): every layer multiplies
// the activation by (3^20+1)/3^20, adding about 63 bits to the exact
// rational, so that layers·63 bits exceed rational-bits (16,384 by
// default) from some layer on whatever the word. A head per layer makes the
// dense pass compare scores too.
func growingModel(layers int) *transformer.Model {
	q := new(big.Int).Exp(big.NewInt(3), big.NewInt(20), nil)
	r := func(n int64) *big.Rat { return big.NewRat(n, 1) }
	m := &transformer.Model{
		Alphabet:  alphabet.Alphabet{"a", "b"},
		Width:     1,
		Labels:    []string{"x"},
		Embedding: []transformer.Vec{{r(1)}, {r(2)}},
		Output:    transformer.Output{Weight: transformer.Vec{r(1)}, Bias: r(-1)},
	}
	for range layers {
		m.Layers = append(m.Layers, transformer.Layer{
			Heads: []transformer.Head{{Mask: position.MaskPast, Tiebreak: position.Rightmost,
				Score: transformer.Matrix{{r(1)}}, Value: transformer.Matrix{{r(0)}}}},
			FFN: &transformer.FFN{
				W1: transformer.Matrix{{new(big.Rat).SetFrac(big.NewInt(1), q)}}, B1: transformer.Vec{r(0)},
				W2: transformer.Matrix{{r(1)}}, B2: transformer.Vec{r(0)},
			},
		})
	}
	return m
}

// TestRationalBitsInForwardPasses: every exact pass (the runner's fast and
// dense passes, the trace, the attention pattern) stops at rational-bits,
// naming it, on a short word; raised, they run; cancelled, they stop.
// rational-bits is lowered to 2,048 to keep the test short (the
// arithmetic on 16,000-bit rationals takes seconds), except for the trace,
// which runs under the default.
func TestRationalBitsInForwardPasses(t *testing.T) {
	m := growingModel(40) // about 2,500 bits at the last layer
	w := []int{0, 1, 0}
	r, err := transformer.NewRunner(m)
	if err != nil {
		t.Fatal(err)
	}
	r.SetBudget(budget.New(context.Background(), budget.Settings{"rational-bits": 2048}))
	passes := map[string]func(r *transformer.Runner) error{
		"Forward":          func(r *transformer.Runner) error { _, err := r.Forward(w, transformer.FastOptions{}); return err },
		"ForwardDense":     func(r *transformer.Runner) error { _, err := r.ForwardDense(w); return err },
		"Accepts":          func(r *transformer.Runner) error { _, err := r.Accepts(w); return err },
		"AcceptsDense":     func(r *transformer.Runner) error { _, err := r.AcceptsDense(w); return err },
		"AttentionPattern": func(r *transformer.Runner) error { _, _, err := r.AttentionPattern(w); return err },
	}
	for name, pass := range passes {
		err := pass(r)
		var le *budget.Error
		if !errors.As(err, &le) || le.Limit != transformer.RationalBits || !strings.Contains(err.Error(), "--limit rational-bits=N") {
			t.Errorf("%s: %v, want rational-bits", name, err)
		}
	}
	if _, err := growingModel(300).Trace(nil, w); !errors.Is(err, budget.ErrLimit) {
		t.Errorf("Trace: %v, want rational-bits", err)
	}
	// The model's own entry points take the caller's budget: refused at
	// 2,048 bits, run at 4,096.
	direct := func(b *budget.Budget) map[string]func() error {
		return map[string]func() error{
			"Model.Forward":          func() error { _, err := m.Forward(b, w, transformer.FastOptions{}); return err },
			"Model.ForwardDense":     func() error { _, err := m.ForwardDense(b, w); return err },
			"Model.Accepts":          func() error { _, err := m.Accepts(b, w); return err },
			"Model.AcceptsDense":     func() error { _, err := m.AcceptsDense(b, w); return err },
			"Model.Trace":            func() error { _, err := m.Trace(b, w); return err },
			"Model.AttentionPattern": func() error { _, _, err := m.AttentionPattern(b, w); return err },
		}
	}
	for name, pass := range direct(budget.New(context.Background(), budget.Settings{"rational-bits": 2048})) {
		var le *budget.Error
		if err := pass(); !errors.As(err, &le) || le.Limit != transformer.RationalBits {
			t.Errorf("%s at rational-bits=2K: %v, want rational-bits", name, err)
		}
	}
	for name, pass := range direct(budget.New(context.Background(), budget.Settings{"rational-bits": 4096})) {
		if err := pass(); err != nil {
			t.Errorf("%s at rational-bits=4K: %v", name, err)
		}
	}
	if _, err := r.Trace(w); !errors.Is(err, budget.ErrLimit) {
		t.Errorf("Runner.Trace: %v, want the runner's rational-bits", err)
	}
	raised, _ := transformer.NewRunner(m)
	raised.SetBudget(budget.New(context.Background(), budget.Settings{"rational-bits": 4096}))
	for name, pass := range passes {
		if err := pass(raised); err != nil {
			t.Errorf("%s with rational-bits=4K: %v", name, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	stopped, _ := transformer.NewRunner(m)
	stopped.SetBudget(budget.New(ctx, nil))
	long := make([]int, 500)
	for name, pass := range map[string]func() error{
		"Forward":      func() error { _, err := stopped.Forward(long, transformer.FastOptions{}); return err },
		"AcceptsDense": func() error { _, err := stopped.AcceptsDense(long); return err },
	} {
		if err := pass(); !errors.Is(err, budget.ErrStopped) {
			t.Errorf("%s cancelled: %v, want stopped", name, err)
		}
	}
	// The float64 passes of a model whose parameters are exact in float64
	// stop too.
	dyck, err := compile.Compile(nil, examples.MustProgram(examples.Dyck), compile.Options{MultiHead: true})
	if err != nil {
		t.Fatal(err)
	}
	floats, _ := transformer.NewRunner(dyck)
	if !transformer.FloatOK(floats) {
		t.Fatal("the compiled Dyck model does not run in float64")
	}
	floats.SetBudget(budget.New(ctx, nil))
	for name, pass := range map[string]func() error{
		"Forward":          func() error { _, err := floats.Forward(long, transformer.FastOptions{}); return err },
		"ForwardDense":     func() error { _, err := floats.ForwardDense(long); return err },
		"AcceptsDense":     func() error { _, err := floats.AcceptsDense(long); return err },
		"AttentionPattern": func() error { _, _, err := floats.AttentionPattern(long); return err },
		"RunBytes":         func() error { _, err := floats.RunBytes(make([]byte, 500)); return err },
	} {
		if err := pass(); !errors.Is(err, budget.ErrStopped) {
			t.Errorf("float %s cancelled: %v, want stopped", name, err)
		}
	}
}
