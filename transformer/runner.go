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

// runner returns a runner of m within b.
func (m *Model) runner(b *budget.Budget) (*Runner, error) {
	r, err := NewRunner(m)
	if err != nil {
		return nil, err
	}
	r.SetBudget(b)
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
	if err := r.m.checkWord(w); err != nil {
		return nil, err
	}
	return r.forward(word{n: len(w), at: func(i int) int { return w[i] }}, opts)
}

// ForwardBytes is Forward on a word stored a byte per symbol (as
// alphabet.ParseCompact stores it). With the class of every position kept
// in a byte too while a layer has at most 256 distinct activation vectors
// (fast.go), a run costs about two bytes per symbol plus what the model's
// classes need.
func (r *Runner) ForwardBytes(w []byte, opts FastOptions) (*Activations, error) {
	return r.forward(word{n: len(w), at: func(i int) int { return int(w[i]) }, bytes: w}, opts)
}

// ForwardWide is Forward on a word stored two bytes per symbol (as
// alphabet.ParseWide stores the words of alphabets of more than 256
// symbols).
func (r *Runner) ForwardWide(w []uint16, opts FastOptions) (*Activations, error) {
	return r.forward(word{n: len(w), at: func(i int) int { return int(w[i]) }}, opts)
}

// forward runs the fast pass on the word of n symbols given by sym: in
// checked float64 when the parameters allow it, and again in exact
// rationals if some operation would round.
func (r *Runner) forward(w word, opts FastOptions) (*Activations, error) {
	limit := opts.maxClasses()
	if r.floatOK {
		a, err := r.fastPass(r.bud, w, newFloatKernel(r, limit))
		if !errors.Is(err, errInexact) {
			return a, err
		}
	}
	return r.fastPass(r.bud, w, newExactKernel(r.bud, r.m, r.period, limit))
}

// forwardExact is the fast pass in exact rationals only, within b.
func (m *Model) forwardExact(b *budget.Budget, w []int, opts FastOptions) (*Activations, error) {
	r, err := NewRunner(m)
	if err != nil {
		return nil, err
	}
	if err := m.checkWord(w); err != nil {
		return nil, err
	}
	return r.fastPass(b, word{n: len(w), at: func(i int) int { return w[i] }}, newExactKernel(b, m, r.period, opts.maxClasses()))
}

// ForwardDense is Model.ForwardDense.
func (r *Runner) ForwardDense(w []int) (*Activations, error) {
	if r.floatOK {
		xs, err := r.denseFloat(w)
		if err == nil {
			return newActivations(identityClasses(len(w)), xs, nil), nil
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
// reports errInexact. It overwrites x; the result is x or, when the layer
// has an FFN, dst's storage (grown as needed), and nil dst allocates.
func (r *Runner) finishFloat(l int, x, dst []float64, c *checked) ([]float64, error) {
	layer := &r.m.Layers[l]
	if layer.AttentionNorm != nil && !normFloat(r.layers[l].attNorm, x) {
		return nil, errInexact
	}
	if f := r.layers[l].ffn; f != nil {
		x, _ = c.ffnInto(dst, f, x)
	}
	if layer.FFNNorm != nil && !normFloat(r.layers[l].ffnNorm, x) {
		return nil, errInexact
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
	o := &Outputs{t: t, a: a}
	out := make([]int, a.Len())
	for i := range out {
		g, err := o.At(i)
		if err != nil {
			return nil, err
		}
		out[i] = g
	}
	return out, nil
}

// Outputs reads a transducer's output symbols off the activations of a
// pass, applying the output layer once per distinct final vector, so that
// a long word's output can be written position by position without a
// slice of symbols (Model.Outputs).
type Outputs struct {
	t       *Transduction
	a       *Activations
	byClass map[int]int
}

// Outputs returns the output reader of a transducer model over a, the
// activations of one of its passes (nil for an acceptor).
func (m *Model) Outputs(a *Activations) *Outputs {
	if m.Transduction == nil {
		return nil
	}
	return &Outputs{t: m.Transduction, a: a}
}

// At returns the output symbol at 0-based position i, as an index into
// the model's Transduction.Symbols, or an error if no output symbol or
// more than one scores ≥ 0 there.
func (o *Outputs) At(i int) (int, error) {
	c := o.a.ClassOf(i)
	if g, ok := o.byClass[c]; ok {
		return g, nil
	}
	x := o.a.At(i)
	g := -1
	for k := range o.t.Symbols {
		s := o.t.Weight[k].Dot(x)
		if s.Add(s, o.t.Bias[k]).Sign() < 0 {
			continue
		}
		if g >= 0 {
			return 0, fmt.Errorf("position %d: output symbols %s and %s both score ≥ 0", i+1, o.t.Symbols[g], o.t.Symbols[k])
		}
		g = k
	}
	if g < 0 {
		return 0, fmt.Errorf("position %d: no output symbol scores ≥ 0", i+1)
	}
	if o.byClass == nil {
		o.byClass = map[int]int{}
	}
	o.byClass[c] = g
	return g, nil
}

// Verdict applies an acceptor's output layer to the last position of a,
// the activations of one of its passes.
func (m *Model) Verdict(a *Activations) (bool, error) {
	if m.Output.Weight == nil {
		return false, errNoAccept
	}
	return m.decide(a.At(a.Len() - 1)), nil
}

// RunBytes runs the fast pass on a word stored a byte per symbol
// (ForwardBytes), and the dense pass if the fast one meets too many
// distinct activation vectors, as Accepts does.
func (r *Runner) RunBytes(w []byte) (*Activations, error) {
	a, err := r.ForwardBytes(w, FastOptions{})
	var cle *ClassLimitError
	if errors.As(err, &cle) {
		return r.ForwardDense(widenWord(w))
	}
	return a, err
}

// RunWide is RunBytes for a word stored two bytes per symbol.
func (r *Runner) RunWide(w []uint16) (*Activations, error) {
	a, err := r.ForwardWide(w, FastOptions{})
	var cle *ClassLimitError
	if errors.As(err, &cle) {
		return r.ForwardDense(widenWord(w))
	}
	return a, err
}

// widenWord returns w as a slice of ints.
func widenWord[S byte | uint16](w []S) []int {
	out := make([]int, len(w))
	for i, s := range w {
		out[i] = int(s)
	}
	return out
}
