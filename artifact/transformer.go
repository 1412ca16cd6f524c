package artifact

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/ltlf"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
	"github.com/brasp-dev/brasp/transformer/decompile"
)

// Transformer is a masked hard-attention transformer (package transformer)
// as an artifact. It runs words with the fast forward pass, through a
// runner prepared once, within the budget it was loaded or built with (its
// exact passes stop at rational-bits and when its context is cancelled).
type Transformer struct {
	M *transformer.Model

	bud    *budget.Budget
	once   sync.Once
	runner *transformer.Runner
	err    error

	batchMu sync.Mutex
	batch   *transformer.Batch // AcceptWord's, made on first use
	word    []int              // AcceptWord's scratch
}

// NewTransformer wraps a model as an artifact.
func NewTransformer(m *transformer.Model) *Transformer { return &Transformer{M: m} }

// loadTransformer reads a .safetensors file by its extension, a .json file
// otherwise; with --from transformer and another extension, a file whose
// first non-blank byte is '{' is read as JSON.
func loadTransformer(b *budget.Budget, filename string, data []byte) (Artifact, error) {
	var m *transformer.Model
	var err error
	ext := strings.ToLower(filepath.Ext(filename))
	if ext == ".safetensors" || (ext != ".json" && !bytes.HasPrefix(bytes.TrimSpace(data), []byte("{"))) {
		m, err = transformer.DecodeSafetensorsWithin(b, data)
	} else {
		m, err = transformer.DecodeJSONWithin(b, data)
	}
	var je *transformer.JSONError
	if errors.As(err, &je) {
		return nil, fmt.Errorf("%s:%v", filename, err)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filename, err)
	}
	return &Transformer{M: m, bud: b}, nil
}

// prepare makes the runner, once.
func (t *Transformer) prepare() error {
	t.once.Do(func() {
		t.runner, t.err = t.runnerOf(t.M)
	})
	return t.err
}

// Kind implements Artifact.
func (t *Transformer) Kind() Kind { return KindTransformer }

// Alphabet implements Artifact: the model's symbols or, for a model over
// propositions, their valuations as for LTLf (nil beyond 12 propositions).
func (t *Transformer) Alphabet() alphabet.Alphabet {
	if t.M.Props != nil {
		return valuationAlphabet(t.M.Props)
	}
	return t.M.Alphabet
}

// Accepts implements Artifact with the fast forward pass (which falls back
// to the dense pass if it meets too many distinct activation vectors). A
// model over propositions reads the valuation letters of Alphabet.
func (t *Transformer) Accepts(w []int) (bool, error) {
	if t.M.Props != nil {
		return t.acceptsSteps(valuationSteps(w))
	}
	return withRunner(t, func(r *transformer.Runner) (bool, error) { return r.Accepts(w) })
}

// RunBytes runs the model (over symbols) on a word stored a byte per
// symbol (alphabet.ParseCompact) with the runner's fast pass, which keeps a
// byte or two per position (transformer.Runner.RunBytes), within the
// artifact's budget.
func (t *Transformer) RunBytes(w []byte) (*transformer.Activations, error) {
	return withRunner(t, func(r *transformer.Runner) (*transformer.Activations, error) { return r.RunBytes(w) })
}

// AcceptWord decides a word of the model (over symbols, an acceptor) of n
// symbols sym(0) … sym(n−1) with one transformer.Batch kept for the
// artifact's life: every activation vector, score and combination met on
// earlier words is reused, so a word costs a scan per head and a table
// look-up per position and layer (Runner.Accepts' verdicts). It charges
// the budget one unit per position and is safe for concurrent use (the
// batch is locked).
func (t *Transformer) AcceptWord(n int, sym func(i int) int) (bool, error) {
	if err := t.prepare(); err != nil {
		return false, err
	}
	if err := t.bud.Step(int64(n) + 1); err != nil {
		return false, err
	}
	t.batchMu.Lock()
	defer t.batchMu.Unlock()
	if t.batch == nil {
		t.batch = t.runner.NewBatch(transformer.FastOptions{})
	}
	t.word = t.word[:0]
	for i := range n {
		t.word = append(t.word, sym(i))
	}
	return t.batch.Accept(t.word)
}

// RunWide is RunBytes for a word stored two bytes per symbol
// (alphabet.ParseWide).
func (t *Transformer) RunWide(w []uint16) (*transformer.Activations, error) {
	return withRunner(t, func(r *transformer.Runner) (*transformer.Activations, error) { return r.RunWide(w) })
}

// Trace records every intermediate value of the model's exact dense pass
// on w (transformer.Model.Trace) within the artifact's budget, so that the
// user's rational-bits and context bound it.
func (t *Transformer) Trace(w []int) (*transformer.Trace, error) {
	return withRunner(t, func(r *transformer.Runner) (*transformer.Trace, error) { return r.Trace(w) })
}

// runnerOf is the fast runner of m within t's budget.
func (t *Transformer) runnerOf(m *transformer.Model) (*transformer.Runner, error) {
	r, err := transformer.NewRunner(m)
	if err != nil {
		return nil, err
	}
	r.SetBudget(t.bud)
	return r, nil
}

// withRunner calls f with t's runner, prepared first.
func withRunner[T any](t *Transformer, f func(*transformer.Runner) (T, error)) (T, error) {
	if err := t.prepare(); err != nil {
		var zero T
		return zero, err
	}
	return f(t.runner)
}

// OverTrace returns, for a model over propositions, the model over the
// distinct steps of the trace written s (transformer.Model.OverSteps, its
// symbols named {a,b}, {}, …) as an artifact with t's budget, and the trace
// as a word of it: running, tracing or inspecting that word is running the
// model on the trace.
func (t *Transformer) OverTrace(s string) (*Transformer, []int, error) {
	tr, err := ltlf.ParseTrace(t.M.Props, s)
	if err != nil {
		return nil, nil, err
	}
	m, w, err := t.M.OverSteps(tr.Steps())
	if err != nil {
		return nil, nil, err
	}
	return &Transformer{M: m, bud: t.bud}, w, nil
}

// ReadsTraces implements TraceRunner: a model over propositions reads
// traces.
func (t *Transformer) ReadsTraces() bool { return t.M.Props != nil }

// RunTrace implements TraceRunner: s is a trace such as "a,b;;c", read
// through the model's multi-hot embedding.
func (t *Transformer) RunTrace(s string) (bool, error) { return t.RunTraceBytes([]byte(s)) }

// RunTraceBytes is RunTrace on a trace written in line, stored a byte per
// step (two past 256 distinct steps; ltlf.ParseTraceCompact) and run by the
// compact fast pass of the model over the trace's distinct steps
// (transformer.Model.OverStepSet), within the artifact's budget: a long
// trace costs a few bytes per step.
func (t *Transformer) RunTraceBytes(line []byte) (bool, error) {
	ct, err := ltlf.ParseTraceCompact(t.M.Props, line)
	if errors.Is(err, ltlf.ErrTooManySteps) {
		tr, err := ltlf.ParseTrace(t.M.Props, string(line))
		if err != nil {
			return false, err
		}
		return t.acceptsSteps(tr.Steps())
	}
	if err != nil {
		return false, err
	}
	steps := make([][]uint64, len(ct.Steps))
	for k, s := range ct.Steps {
		steps[k] = s
	}
	m, err := t.M.OverStepSet(steps)
	if err != nil {
		return false, err
	}
	r, err := t.runnerOf(m)
	if err != nil {
		return false, err
	}
	var a *transformer.Activations
	if ct.Narrow != nil {
		a, err = r.RunBytes(ct.Narrow)
	} else {
		a, err = r.RunWide(ct.Wide)
	}
	if err != nil {
		return false, err
	}
	return m.Verdict(a)
}

// acceptsSteps runs a model over propositions on a trace: the model over
// the trace's distinct steps (transformer.Model.OverSteps) on the word of
// its steps.
func (t *Transformer) acceptsSteps(steps [][]uint64) (bool, error) {
	if len(steps) == 0 {
		return false, nil
	}
	m, w, err := t.M.OverSteps(steps)
	if err != nil {
		return false, err
	}
	r, err := t.runnerOf(m)
	if err != nil {
		return false, err
	}
	return r.Accepts(w)
}

// Format implements Artifact: the JSON encoding.
func (t *Transformer) Format() ([]byte, error) { return transformer.EncodeJSON(t.M), nil }

// Encode implements Encoder: safetensors for a .safetensors file name, JSON
// otherwise.
func (t *Transformer) Encode(filename string) ([]byte, error) {
	if strings.EqualFold(filepath.Ext(filename), ".safetensors") {
		return transformer.EncodeSafetensors(t.M)
	}
	return t.Format()
}

// Inspect implements Inspector: layers, heads, width, parameters, and what
// each head and FFN reads and writes.
func (t *Transformer) Inspect() string { return transformer.Describe(t.M) }

// compileProgram is Thm 4.1 (sequential) or, with opts.MultiHead, Thm C.4;
// with opts.LayerNorm, the layer-norm encoding of §4.3.
func compileProgram(b *budget.Budget, p *Program, opts CompileOptions) (*Transformer, error) {
	m, err := compile.Compile(b, p.Prog, opts)
	if err != nil {
		return nil, err
	}
	return &Transformer{M: m, bud: b}, nil
}

// decompileModel is Thm 4.2: the depth-preserving translation, or the
// smaller one with opts.Smaller. A model over propositions becomes a
// program over the same propositions (coordinate-wise, or through its
// valuations: see package decompile).
func decompileModel(b *budget.Budget, t *Transformer, opts DecompileOptions) (*Program, error) {
	p, err := decompile.Decompile(b, t.M, opts)
	if err != nil {
		return nil, err
	}
	return NewProgram(p), nil
}

// IsTransducer implements Transducer.
func (t *Transformer) IsTransducer() bool { return t.M.IsTransducer() }

// Transduce implements Transducer: the output symbol at every position.
func (t *Transformer) Transduce(w []int) ([]int, alphabet.Alphabet, error) {
	if t.M.Props != nil {
		return t.transduceSteps(valuationSteps(w))
	}
	if err := t.prepare(); err != nil {
		return nil, nil, err
	}
	out, err := t.runner.Transduce(w)
	if err != nil {
		return nil, nil, err
	}
	return out, t.M.Transduction.Symbols, nil
}

// TransduceTrace implements TraceTransducer: the output word of a model
// over propositions on the trace s.
func (t *Transformer) TransduceTrace(s string) ([]int, alphabet.Alphabet, error) {
	tr, err := ltlf.ParseTrace(t.M.Props, s)
	if err != nil {
		return nil, nil, err
	}
	return t.transduceSteps(tr.Steps())
}

// transduceSteps runs a model over propositions on a trace of steps, read
// through the model over the trace's distinct steps.
func (t *Transformer) transduceSteps(steps [][]uint64) ([]int, alphabet.Alphabet, error) {
	if len(steps) == 0 {
		return nil, t.M.Transduction.Symbols, nil
	}
	m, w, err := t.M.OverSteps(steps)
	if err != nil {
		return nil, nil, err
	}
	r, err := t.runnerOf(m)
	if err != nil {
		return nil, nil, err
	}
	out, err := r.Transduce(w)
	if err != nil {
		return nil, nil, err
	}
	return out, t.M.Transduction.Symbols, nil
}
