package transformer

import (
	"errors"
	"fmt"
	"sync"

	"github.com/brasp-dev/brasp/budget"
)

// Runner runs one model many times: it converts the parameters to float64
// once (when they are exactly representable) so that each forward pass can
// compute in float64 while every operation is provably exact, falling back
// to exact rational arithmetic otherwise. A Runner reads its model on every
// call; the model must not change while the Runner is in use. A Runner is
// safe for concurrent use.
type Runner struct {
	m       *Model
	bud     *budget.Budget // of the exact passes (SetBudget)
	floatOK bool
	emb     [][]float64
	layers  []floatLayer
	period  positionClasses

	mu       sync.Mutex
	posCache map[positionKey][]float64 // float θ_n(i) by position key; nil entry: inexact
}

type floatLayer struct {
	heads            []floatHead
	ffn              *floatFFN
	attNorm, ffnNorm *floatNorm
}

type floatHead struct {
	S, V floatMatrix
}

// NewRunner validates m and prepares it for repeated forward passes.
func NewRunner(m *Model) (*Runner, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	r := &Runner{m: m, floatOK: true, posCache: map[positionKey][]float64{}}
	var err error
	if r.period, err = positionPeriod(m.Position); err != nil {
		return nil, err
	}
	ok := func(b bool) {
		if !b {
			r.floatOK = false
		}
	}
	for _, e := range m.Embedding {
		f, exact := e.Float64s()
		ok(exact)
		r.emb = append(r.emb, f)
	}
	for l := range m.Layers {
		layer := &m.Layers[l]
		fl := floatLayer{attNorm: newFloatNorm(layer.AttentionNorm), ffnNorm: newFloatNorm(layer.FFNNorm)}
		for h := range layer.Heads {
			S, ok1 := toFloats(layer.Heads[h].Score)
			V, ok2 := toFloats(layer.Heads[h].Value)
			ok(ok1 && ok2)
			fl.heads = append(fl.heads, floatHead{S, V})
		}
		if f := layer.FFN; f != nil {
			ff, exact := newFloatFFN(f)
			ok(exact)
			fl.ffn = ff
		}
		r.layers = append(r.layers, fl)
	}
	return r, nil
}

// SetBudget makes the runner's exact passes run within b: its context
// stops them, and its rational-bits bounds every exact activation (a
// hostile model can otherwise grow its rationals without bound on a short
// word). Without it they run under the default limits, never cancelled.
// Call it before the runner is used.
func (r *Runner) SetBudget(b *budget.Budget) { r.bud = b }

// Model returns the model the runner runs.
func (r *Runner) Model() *Model { return r.m }

// Forward is Model.Forward (the fast pass), computed in float64 when that
// is provably exact.
func (r *Runner) Forward(w []int, opts FastOptions) (*Activations, error) {
	if r.floatOK {
		a, err := r.fastFloat(w, opts)
		if !errors.Is(err, errInexact) {
			return a, err
		}
	}
	return r.m.forwardExact(r.bud, w, opts)
}

// ForwardDense is Model.ForwardDense.
func (r *Runner) ForwardDense(w []int) (*Activations, error) {
	if r.floatOK {
		xs, err := r.denseFloat(w)
		if err == nil {
			class := make([]int, len(w))
			for i := range class {
				class[i] = i
			}
			return newActivations(class, xs, nil), nil
		}
		if !errors.Is(err, errInexact) {
			return nil, err
		}
	}
	return r.m.denseExact(r.bud, w)
}

// Accepts runs the fast pass and the output layer, falling back to the
// dense pass if the fast one meets too many distinct activation vectors.
func (r *Runner) Accepts(w []int) (bool, error) {
	if r.m.Output.Weight == nil {
		return false, errNoAccept
	}
	a, err := r.Forward(w, FastOptions{})
	var cle *ClassLimitError
	if errors.As(err, &cle) {
		return r.AcceptsDense(w)
	}
	if err != nil {
		return false, err
	}
	return r.m.decide(a.At(len(w) - 1)), nil
}

// AcceptsDense runs the dense pass and the output layer.
func (r *Runner) AcceptsDense(w []int) (bool, error) {
	if r.m.Output.Weight == nil {
		return false, errNoAccept
	}
	if r.floatOK {
		xs, err := r.denseFloat(w)
		if err == nil {
			return r.m.decide(floatsToVec(xs[len(xs)-1])), nil
		}

		if !errors.Is(err, errInexact) {
			return false, err
		}
	}
	a, err := r.m.denseExact(r.bud, w)
	if err != nil {
		return false, err
	}
	return r.m.decide(a.At(len(w) - 1)), nil
}

// embedFloat returns the float64 embedding of every position, or
// errInexact.
func (r *Runner) embedFloat(w []int) ([][]float64, error) {
	xs := make([][]float64, len(w))
	for i, s := range w {
		x, err := r.embedOne(s, i, len(w))
		if err != nil {
			return nil, err
		}
		xs[i] = x
	}
	return xs, nil
}

// embedOne returns emb(s) + θ_n(i+1) in float64, or errInexact.
func (r *Runner) embedOne(s, i, n int) ([]float64, error) {
	m := r.m
	if len(m.Position) == 0 {
		return append([]float64(nil), r.emb[s]...), nil
	}
	k := keyOf(i+1, n, r.period)
	r.mu.Lock()
	pv, ok := r.posCache[k]
	if !ok {
		pv, _ = m.positionVector(i+1, n).Float64s()
		r.posCache[k] = pv
	}
	r.mu.Unlock()
	if pv == nil {
		return nil, errInexact
	}
	var c checked
	x := make([]float64, m.Width)
	for j := range x {
		x[j] = c.add(r.emb[s][j], pv[j])
	}
	if c.inexact {
		return nil, errInexact
	}
	return x, nil
}

// finishFloat applies norm, FFN and norm to the attention residual x, or
// reports errInexact.
func (r *Runner) finishFloat(l int, x []float64, c *checked) ([]float64, error) {
	layer := &r.m.Layers[l]
	if layer.AttentionNorm != nil {
		y, ok := normFloat(r.layers[l].attNorm, x)
		if !ok {
			return nil, errInexact
		}
		x = y
	}
	if f := r.layers[l].ffn; f != nil {
		x, _ = c.ffn(f, x)
	}
	if layer.FFNNorm != nil {
		y, ok := normFloat(r.layers[l].ffnNorm, x)
		if !ok {
			return nil, errInexact
		}
		x = y
	}
	if c.inexact {
		return nil, errInexact
	}
	return x, nil
}

// errNoAccept is returned when an acceptor verdict is asked of a transducer
// without acceptor output.
var errNoAccept = errors.New("the model is a transducer without an accept output (use Transduce)")

// Transduce runs the fast pass (falling back to the dense one if it meets
// too many distinct activation vectors) and the transducer's output layer:
// the output symbol at each position, as indices into
// Model().Transduction.Symbols.
func (r *Runner) Transduce(w []int) ([]int, error) {
	t := r.m.Transduction
	if t == nil {
		return nil, fmt.Errorf("the model is an acceptor, not a transducer")
	}
	a, err := r.Forward(w, FastOptions{})
	var cle *ClassLimitError
	if errors.As(err, &cle) {
		a, err = r.ForwardDense(w)
	}
	if err != nil {
		return nil, err
	}
	return transduce(t, a)
}

// transduce applies the transducer output layer to every position.
func transduce(t *Transduction, a *Activations) ([]int, error) {
	out := make([]int, a.Len())
	byClass := map[int]int{}
	for i := range out {
		c := a.ClassOf(i)
		if g, ok := byClass[c]; ok {
			out[i] = g
			continue
		}
		x := a.At(i)
		g := -1
		for k := range t.Symbols {
			s := t.Weight[k].Dot(x)
			if s.Add(s, t.Bias[k]).Sign() < 0 {
				continue
			}
			if g >= 0 {
				return nil, fmt.Errorf("position %d: output symbols %s and %s both score ≥ 0", i+1, t.Symbols[g], t.Symbols[k])
			}
			g = k
		}
		if g < 0 {
			return nil, fmt.Errorf("position %d: no output symbol scores ≥ 0", i+1)
		}
		byClass[c] = g
		out[i] = g
	}
	return out, nil
}
