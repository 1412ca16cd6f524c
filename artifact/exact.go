package artifact

import (
	"fmt"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/exact"
)

// This file gives every kind its exact language as a minimal DFA (issue 7):
// converters brasp → dfa and ltl → dfa (package exact), brasp → brasp with
// --future-only (Theorem 5.1), and through the
// registry every kind with a route to brasp (transformers via the
// decompiler); ToDFA, Equiv and ClassifyExact are what the equiv and classify
// commands call.

func init() {
	RegisterConverter(KindBRASP, KindDFA, braspToDFA)
	RegisterConverter(KindLTL, KindDFA, ltlToDFA)
	RegisterConverter(KindBRASP, KindBRASP, braspToBRASP)
	RegisterConverter(KindTransformer, KindDFA, transformerToDFA)
}

// transformerToDFA decompiles the model (Theorem 4.2, with the options and
// limits of the transformer → brasp converter) and builds the program's
// minimal DFA.
func transformerToDFA(a Artifact, opts Options) (Artifact, error) {
	p, err := decompileTransformer(a, opts)
	if err != nil {
		return nil, err
	}
	return braspToDFA(p, opts)
}

// braspToBRASP is the identity unless Options.FutureOnly asks for Theorem
// 5.1: an equivalent program with only rightmost strict future-masked
// attention, through the minimal DFA and its Krohn–Rhodes cascade
// (exact.FutureOnly).
func braspToBRASP(a Artifact, opts Options) (Artifact, error) {
	p, ok := a.(*Program)
	if !ok {
		return nil, fmt.Errorf("brasp → brasp: unexpected artifact %T", a)
	}
	if !opts.FutureOnly {
		return a, nil
	}
	q, err := exact.FutureOnly(p.Prog, exactLimits(opts), automataLimits(opts))
	if err != nil {
		return nil, err
	}
	return NewProgram(q), nil
}

// exactLimits maps Options.Limit onto the construction's state limit.
func exactLimits(opts Options) exact.Limits {
	return exact.Limits{MaxStates: opts.Limit}
}

func braspToDFA(a Artifact, opts Options) (Artifact, error) {
	p, ok := a.(*Program)
	if !ok {
		return nil, fmt.Errorf("brasp → dfa: unexpected artifact %T", a)
	}
	d, err := exact.ProgramDFALimits(p.Prog, exactLimits(opts))
	if err != nil {
		return nil, err
	}
	return &DFA{D: d}, nil
}

func ltlToDFA(a Artifact, opts Options) (Artifact, error) {
	f, ok := a.(*Formula)
	if !ok {
		return nil, fmt.Errorf("ltl → dfa: unexpected artifact %T", a)
	}
	d, err := exact.FormulaDFALimits(f.F, exactLimits(opts))
	if err != nil {
		return nil, err
	}
	return &DFA{D: d}, nil
}

// ToDFA returns the minimal DFA of any artifact that converts to a DFA.
// For kinds that read only non-empty words the DFA rejects ε; a .dfa or .re
// input keeps its own treatment of ε (Equiv ignores ε anyway).
func ToDFA(a Artifact, opts Options) (*automata.DFA, error) {
	b, err := Convert(a, KindDFA, opts)
	if err != nil {
		return nil, err
	}
	if x, ok := b.(interface{ DFA() *automata.DFA }); ok {
		return automata.Minimize(x.DFA()), nil
	}
	// Another file's DFA artifact: go through its text format.
	text, err := b.Format()
	if err != nil {
		return nil, err
	}
	d, err := automata.Parse("dfa", text)
	if err != nil {
		return nil, fmt.Errorf("reading back a converted DFA: %w", err)
	}
	return automata.Minimize(d), nil
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
}

// Equiv decides whether a and b accept the same non-empty words, through
// their minimal DFAs (exact.Equivalent); when they do not, it returns a
// shortest counterexample. A symbol only one side knows is rejected by the
// other.
func Equiv(a, b Artifact, opts Options) (*EquivResult, error) {
	da, err := ToDFA(a, opts)
	if err != nil {
		return nil, err
	}
	db, err := ToDFA(b, opts)
	if err != nil {
		return nil, err
	}
	eq, w, firstAcc, err := exact.Equivalent(da, db)
	if err != nil {
		return nil, err
	}
	return &EquivResult{Equal: eq, Word: w, Alphabet: exact.Merge(da.Alphabet, db.Alphabet), FirstAccepts: firstAcc}, nil
}
