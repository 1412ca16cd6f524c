package artifact

import (
	"fmt"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/exact"
)

// This file gives every kind its exact language as a minimal DFA (issue 7):
// converters brasp → dfa and ltl → dfa (package exact), and through the
// registry every kind with a route to brasp (transformers via the
// decompiler); ToDFA, Equiv and ClassifyExact are what the equiv and classify
// commands call.

func init() {
	if _, ok := kinds[KindDFA]; !ok {
		// The .dfa kind belongs to automata.go; until it registers, load
		// .dfa files here so that equiv and classify can read them.
		Register(KindInfo{Kind: KindDFA, Exts: []string{".dfa"}, Load: loadExactDFA})
	}
	RegisterConverter(KindBRASP, KindDFA, braspToDFA)
	RegisterConverter(KindLTL, KindDFA, ltlToDFA)
}

// ExactDFA is a minimal DFA computed as the exact language of another
// artifact. It reads non-empty words, like the artifact it came from.
type ExactDFA struct {
	D *automata.DFA
}

func loadExactDFA(filename string, data []byte) (Artifact, error) {
	d, err := automata.Parse(filename, data)
	if err != nil {
		return nil, err
	}
	return &ExactDFA{D: d}, nil
}

// Kind implements Artifact.
func (e *ExactDFA) Kind() Kind { return KindDFA }

// Alphabet implements Artifact.
func (e *ExactDFA) Alphabet() alphabet.Alphabet { return e.D.Alphabet }

// Accepts implements Artifact.
func (e *ExactDFA) Accepts(w []int) (bool, error) { return e.D.Accepts(w), nil }

// Format implements Artifact: the .dfa text format.
func (e *ExactDFA) Format() ([]byte, error) { return []byte(automata.Format(e.D)), nil }

// DFA returns the automaton.
func (e *ExactDFA) DFA() *automata.DFA { return e.D }

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
	return &ExactDFA{D: d}, nil
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
	return &ExactDFA{D: d}, nil
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
