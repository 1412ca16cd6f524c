package artifact

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/exact"
	"github.com/brasp-dev/brasp/transformer"
)

// This file gives every kind its exact language as a minimal DFA (package
// exact): the edges brasp → dfa and ltl → dfa, and ToDFA and Equiv, what
// the equiv and classify commands call.

// braspToDFA is the exact semantics of a program: its minimal DFA over
// non-empty words, or for a program over propositions its minimal symbolic
// DFA over them (exact.SymbolicProgramDFA: any number of propositions).
func braspToDFA(b *budget.Budget, p *Program, _ NoOptions) (Artifact, error) {
	if p.Prog.Props != nil {
		return p.symbolicDFA(b)
	}
	d, err := exact.ProgramDFA(b, p.Prog)
	if err != nil {
		return nil, err
	}
	return NewDFA(d), nil
}

// ltlToDFA is the exact semantics of a formula: its minimal DFA over
// non-empty words.
func ltlToDFA(b *budget.Budget, f *Formula, _ NoOptions) (*DFA, error) {
	d, err := exact.FormulaDFA(b, f.F)
	if err != nil {
		return nil, err
	}
	return NewDFA(d), nil
}

// ToDFA returns the minimal DFA of any artifact that converts to a DFA.
// For kinds that read only non-empty words the DFA rejects ε; a .dfa or .re
// input keeps its own treatment of ε (Equiv ignores ε anyway).
func ToDFA(b *budget.Budget, a Artifact, opts Options) (*automata.DFA, error) {
	d, err := Convert(b, a, KindDFA, opts)
	if err != nil {
		return nil, err
	}
	if s, ok := d.(*SymbolicDFA); ok {
		if d, err = s.Letters(b); err != nil {
			return nil, err
		}
	}
	x, ok := d.(*DFA)
	if !ok {
		return nil, fmt.Errorf("dfa: want *artifact.DFA, have %T", d)
	}
	return automata.Minimize(b, x.D)
}

// EquivResult is the outcome of Equiv.
type EquivResult struct {
	// Equal: the two inputs accept the same non-empty words.
	Equal bool
	// Word is a shortest non-empty word on which they differ (first in
	// short-lex order), over Alphabet; nil when Equal.
	Word []int
	// Alphabet is the merged alphabet the word is written in (the first
	// input's symbols, then the second's new ones).
	Alphabet alphabet.Alphabet
	// FirstAccepts: the first input accepts Word (and the second rejects it).
	FirstAccepts bool
	// Trace, for two LTLf inputs, is a shortest trace on which they differ
	// (in the syntax of brasp run: "a,b;;c"), instead of Word.
	Trace string
	// Transducers: both inputs are transducers, compared by their output
	// at every position (exact.TransducersEquivalent); Word is then a
	// shortest word on which the outputs differ, Position (1-based) the
	// first position where they do, and FirstOutputs and SecondOutputs the
	// output symbols each puts out there (one where it is defined).
	Transducers                 bool
	Position                    int
	FirstOutputs, SecondOutputs []string
}

// ErrUnconfirmed is matched by the error Equiv returns when its
// counterexample, run on the inputs themselves, does not separate them: a
// bug in a construction, never an answer.
var ErrUnconfirmed = errors.New("internal error: the counterexample does not separate the inputs when run")

// Equiv decides whether x and y accept the same non-empty words, through
// their minimal DFAs (automata.CompareAligned on Σ⁺; two LTLf formulas: their minimal
// symbolic DFAs, over any number of propositions, with a shortest
// counterexample trace; an LTLf formula and another kind: the DFA over
// valuation letters); when they do not, it returns a
// shortest counterexample. A symbol only one side knows is rejected by the
// other. Before answering "not equivalent", Equiv runs the counterexample on
// x and y themselves, so the verdict never rests on the DFA constructions
// alone; if they do not disagree on it as the DFAs do, the error matches
// ErrUnconfirmed.
//
// Two transducers are equivalent when they have the same output at every
// position of every non-empty word (see equivTransducers); a transducer and
// an acceptor are never compared.
func Equiv(b *budget.Budget, x, y Artifact, opts Options) (*EquivResult, error) {
	if (declaresEmpty(x) || declaresEmpty(y)) && !isTransducer(x) && !isTransducer(y) {
		// The empty trace is part of the language of a formula under the
		// empty-trace semantics: it is compared first, against the
		// other input's own verdict on it.
		if ex, ey := emptyVerdict(x), emptyVerdict(y); ex != ey {
			return &EquivResult{Word: []int{}, Alphabet: automata.MergeAlphabets(x.Alphabet(), y.Alphabet()),
				FirstAccepts: ex, Trace: "the empty trace"}, nil
		}
	}
	if sx, ok := symbolicInput(x, opts); ok {
		if sy, ok := symbolicInput(y, opts); ok {
			return equivSymbolic(b, sx, sy)
		}
	}
	if px, ok := propsOf(x); ok {
		if py, ok := propsOf(y); ok {
			// Inputs over propositions compare over the union of them,
			// each keeping its own order first (letters are named with the
			// propositions sorted, so the orders need not agree).
			var err error
			if x, err = withProps(x, union(px, py)); err != nil {
				return nil, err
			}
			if y, err = withProps(y, union(py, px)); err != nil {
				return nil, err
			}
		}
	}
	tx, ty := isTransducer(x), isTransducer(y)
	switch {
	case tx && ty:
		return equivTransducers(b, x, y, opts)
	case tx || ty:
		return nil, fmt.Errorf("one input is a transducer and the other an acceptor: a transducer has outputs, not a language")
	}
	dx, err := ToDFA(b, x, opts)
	if err != nil {
		return nil, err
	}
	dy, err := ToDFA(b, y, opts)
	if err != nil {
		return nil, err
	}
	d, err := automata.CompareAligned(b, dx, dy, automata.SigmaPlus)
	if err != nil {
		return nil, err
	}
	if d == nil {
		return &EquivResult{Equal: true, Alphabet: automata.MergeAlphabets(dx.Alphabet, dy.Alphabet)}, nil
	}
	// The verdict rests on the inputs themselves, not only on their DFAs.
	accX, errX := acceptsIn(x, d.Alphabet, d.Word)
	accY, errY := acceptsIn(y, d.Alphabet, d.Word)
	if errX != nil || errY != nil || accX != d.AcceptedByFirst || accY == d.AcceptedByFirst {
		return nil, fmt.Errorf("%w: %s (%v, %v)", ErrUnconfirmed, automata.ShowWord(d.Alphabet, d.Word), errX, errY)
	}
	r := &EquivResult{Word: d.Word, Alphabet: d.Alphabet, FirstAccepts: d.AcceptedByFirst}
	if readsTraces(x) || readsTraces(y) {
		// The letters are valuations named like steps ({a,b}): show the
		// word as the trace brasp run reads.
		r.Trace = traceOf(d.Alphabet, d.Word)
	}
	return r, nil
}

// declaresEmpty reports whether a is an LTLf formula under the empty-trace
// semantics (a `semantics empty_trace` line), whose verdict on the empty
// trace is part of its language.
func declaresEmpty(a Artifact) bool {
	f, ok := a.(*LTLf)
	return ok && f.F.EmptyTrace
}

// emptyVerdict is a's verdict on the empty word or trace: an LTLf formula's
// under its semantics, an automaton's start state's, and reject for the
// kinds that read non-empty words only (programs, LTL formulas,
// transformers).
func emptyVerdict(a Artifact) bool {
	switch a := a.(type) {
	case *LTLf:
		return a.F.Eval(nil)
	case *SymbolicDFA:
		return a.D.Accept[a.D.Start]
	case *Program, *Formula, *Transformer:
		return false
	}
	acc, err := a.Accepts([]int{})
	return err == nil && acc
}

// propsOf returns the propositions of an input that reads traces.
func propsOf(a Artifact) ([]string, bool) {
	switch a := a.(type) {
	case *LTLf:
		return a.F.Props, true
	case *Program:
		return a.Prog.Props, a.Prog.Props != nil
	case *Transformer:
		return a.M.Props, a.M.Props != nil
	case *SymbolicDFA:
		return a.D.Props, true
	}
	return nil, false
}

// union is xs followed by the elements of ys not in xs.
func union(xs, ys []string) []string {
	out := append([]string(nil), xs...)
	in := make(map[string]bool, len(xs)+len(ys))
	for _, x := range xs {
		in[x] = true
	}
	for _, y := range ys {
		if !in[y] {
			in[y] = true
			out = append(out, y)
		}
	}
	return out
}

// withProps reads an input over propositions over props, which extends
// its own: a proposition it does not mention is one it ignores.
func withProps(a Artifact, props []string) (Artifact, error) {
	own, _ := propsOf(a)
	if len(own) == len(props) {
		return a, nil
	}
	switch a := a.(type) {
	case *LTLf:
		f, err := a.F.WithProps(props)
		if err != nil {
			return nil, err
		}
		return &LTLf{F: f}, nil
	case *Program:
		p := *a.Prog
		p.Props = props
		return NewProgram(&p), nil
	case *Transformer:
		m := *a.M
		m.Props = props
		m.Embedding = append([]transformer.Vec(nil), a.M.Embedding...)
		for range len(props) - len(own) {
			m.Embedding = append(m.Embedding, transformer.Zeros(m.Width))
		}
		return NewTransformer(&m), nil
	case *SymbolicDFA:
		d, _, err := a.over(nil, props)
		if err != nil {
			return nil, err
		}
		return &SymbolicDFA{D: d, mona: a.mona, guards: a.guards, prog: a.prog, bud: a.bud}, nil
	}
	return a, nil
}

// symbolicInput returns a as an input equiv compares symbolically: an
// LTLf formula, a DFA read from MONA's output or built from a program, or
// an acceptor over propositions (a program, or a model through its
// decompiled program).
func symbolicInput(a Artifact, opts Options) (symbolicSide, bool) {
	switch a := a.(type) {
	case *LTLf:
		return a, true
	case *SymbolicDFA:
		return a, a.mona != nil || a.guards != nil || a.prog != nil
	case *Program:
		return a, a.Prog.Props != nil && !a.Prog.IsTransducer()
	case *Transformer:
		return &modelSide{t: a, opts: opts.Decompile}, a.M.Props != nil && !a.M.IsTransducer()
	}
	return nil, false
}

// readsTraces reports whether a reads traces of valuations (an LTLf
// formula, a program over propositions).
func readsTraces(a Artifact) bool {
	tr, ok := a.(TraceRunner)
	return ok && tr.ReadsTraces()
}

// acceptsIn runs a on w, a word over alpha; a word with a symbol outside a's
// alphabet is rejected.
func acceptsIn(a Artifact, alpha alphabet.Alphabet, w []int) (bool, error) {
	own := a.Alphabet()
	v := make([]int, len(w))
	for i, k := range w {
		if v[i] = own.Index(alpha[k]); v[i] < 0 {
			return false, nil
		}
	}
	return a.Accepts(v)
}

func isTransducer(a Artifact) bool {
	t, ok := a.(Transducer)
	return ok && t.IsTransducer()
}

// equivTransducers compares two transducers exactly: both are converted to
// B-RASP (a transformer is decompiled) and exact.TransducersEquivalent
// decides whether their outputs agree everywhere. A difference is
// confirmed by running both inputs themselves on the word.
func equivTransducers(b *budget.Budget, x, y Artifact, opts Options) (*EquivResult, error) {
	progs := make([]*Program, 2)
	for k, a := range []Artifact{x, y} {
		p, err := Convert(b, a, KindBRASP, Options{Decompile: opts.Decompile})
		if err != nil {
			return nil, err
		}
		progs[k] = p.(*Program)
	}
	letters, err := transducerLetters(progs[0], progs[1])
	if err != nil {
		return nil, err
	}
	d, err := exact.TransducersEquivalent(b, letters[0], letters[1])
	if err != nil {
		return nil, err
	}
	alpha := x.Alphabet()
	r := &EquivResult{Equal: d == nil, Transducers: true, Alphabet: alpha}
	if d == nil {
		return r, nil
	}
	// The difference is found on x's program, whose alphabet may list the
	// symbols in another order than x itself.
	w := make([]int, len(d.Word))
	for i, s := range d.Word {
		w[i] = alpha.Index(letters[0].Alphabet[s])
	}
	r.Word, r.Position, r.FirstOutputs, r.SecondOutputs = w, d.Position, d.First, d.Second
	if readsTraces(x) || readsTraces(y) {
		r.Trace = traceOf(alpha, w)
	}
	ox, errX := outputAt(x, alpha, w, d.Position)
	oy, errY := outputAt(y, alpha, w, d.Position)
	if errX == nil && errY == nil && ox == oy {
		return nil, fmt.Errorf("%w: %s at position %d (both output %s)", ErrUnconfirmed, automata.ShowWord(alpha, w), d.Position, ox)
	}
	return r, nil
}

// transducerLetters returns the two programs over letters that
// exact.TransducersEquivalent compares: programs over propositions read
// the valuations of their (common) propositions as letters, named alike
// whatever order each lists them in.
func transducerLetters(x, y *Program) ([2]*brasp.Program, error) {
	px, py := x.Prog.Props, y.Prog.Props
	if (px == nil) != (py == nil) {
		return [2]*brasp.Program{}, fmt.Errorf("one transducer reads words of symbols, the other traces of propositions")
	}
	if px != nil && !sameSet(px, py) {
		return [2]*brasp.Program{}, fmt.Errorf("the transducers read different propositions (%s and %s)", strings.Join(px, " "), strings.Join(py, " "))
	}
	var out [2]*brasp.Program
	for k, p := range []*Program{x, y} {
		l, err := p.letters()
		if err != nil {
			return out, err
		}
		out[k] = l
	}
	return out, nil
}

// sameSet reports whether a and b list the same strings.
func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	as, bs := slices.Clone(a), slices.Clone(b)
	slices.Sort(as)
	slices.Sort(bs)
	return slices.Equal(as, bs)
}

// traceOf shows a word of valuation letters (named like steps: {a,b}) as
// the trace brasp run reads.
func traceOf(alpha alphabet.Alphabet, w []int) string {
	steps := make([]string, len(w))
	for i, l := range w {
		steps[i] = alpha[l]
	}
	return strings.Join(steps, ";")
}

// outputAt is the symbol a transducer outputs at position pos (1-based) of
// w, a word over alpha; an error where it outputs no symbol or several.
func outputAt(a Artifact, alpha alphabet.Alphabet, w []int, pos int) (string, error) {
	own := a.Alphabet()
	v := make([]int, len(w))
	for i, k := range w {
		v[i] = own.Index(alpha[k])
	}
	out, outAlpha, err := a.(Transducer).Transduce(v)
	if err != nil {
		return "", err
	}
	return outAlpha[out[pos-1]], nil
}
