package artifact

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/ac0"
	"github.com/brasp-dev/brasp/automata/guarddfa"
	"github.com/brasp-dev/brasp/automata/krohnrhodes"
	"github.com/brasp-dev/brasp/automata/monadfa"
	"github.com/brasp-dev/brasp/automata/regex"
	"github.com/brasp-dev/brasp/budget"
)

// The empty word: a .dfa or .re file may accept ε, but artifacts are run
// only on non-empty words, and dfa → brasp ignores ε (B-RASP reads Σ⁺).

// DFA is a loaded .dfa automaton.
type DFA struct {
	D *automata.DFA
}

// NewDFA wraps an automaton as an artifact.
func NewDFA(d *automata.DFA) *DFA { return &DFA{D: d} }

func loadDFA(b *budget.Budget, filename string, data []byte) (Artifact, error) {
	if monadfa.Looks(data) {
		return loadMONA(b, filename, data)
	}
	if guarddfa.Looks(data) {
		return loadGuards(b, filename, data)
	}
	d, err := automata.Parse(filename, data)
	if err != nil {
		return nil, err
	}
	return NewDFA(d), nil
}

// Kind implements Artifact.
func (d *DFA) Kind() Kind { return KindDFA }

// Alphabet implements Artifact.
func (d *DFA) Alphabet() alphabet.Alphabet { return d.D.Alphabet }

// Accepts implements Artifact.
func (d *DFA) Accepts(w []int) (bool, error) { return d.D.Accepts(w), nil }

// Format implements Artifact: the .dfa text format.
func (d *DFA) Format() ([]byte, error) { return []byte(automata.Format(d.D)), nil }

// Encode implements Encoder: JSON for .json, Graphviz for .dot and .gv, the
// .dfa text format otherwise.
func (d *DFA) Encode(filename string) ([]byte, error) {
	switch strings.ToLower(filepath.Ext(filename)) {
	case ".json":
		b, err := d.D.MarshalJSON()
		return append(b, '\n'), err
	case ".dot", ".gv":
		return []byte(automata.DOT(d.D)), nil
	}
	return d.Format()
}

// Inspect implements Inspector: sizes and the minimal automaton's size.
func (d *DFA) Inspect() string {
	accepting := 0
	for _, a := range d.D.Accept {
		if a {
			accepting++
		}
	}
	eps := "rejects"
	if d.D.Accept[d.D.Start] {
		eps = "accepts"
	}
	minimal := "not minimised: "
	if m, err := automata.Minimize(nil, d.D); err != nil {
		minimal += err.Error()
	} else {
		minimal = fmt.Sprintf("%d after minimisation", m.NumStates())
	}
	return fmt.Sprintf("dfa: alphabet {%s}, %d states (%d accepting, %s); %s the empty word\n",
		d.D.Alphabet, d.D.NumStates(), accepting, minimal, eps)
}

// Regex is a loaded .re regular expression, compiled to its minimal DFA on
// load (under the default state limit) so that running it is fast.
type Regex struct {
	R *regex.Regex
	d *automata.DFA
}

// NewRegex wraps a regular expression as an artifact, building its DFA
// under the budget's regex-states.
func NewRegex(b *budget.Budget, r *regex.Regex) (*Regex, error) {
	d, err := regexToDFA(b, &Regex{R: r}, NoOptions{})
	if err != nil {
		return nil, err
	}
	return &Regex{R: r, d: d.D}, nil
}

func loadRegex(b *budget.Budget, filename string, data []byte) (Artifact, error) {
	r, err := regex.ParseBudget(b, filename, data)
	if err != nil {
		return nil, err
	}
	a, err := NewRegex(b, r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filename, err)
	}
	return a, nil
}

// Automaton is the DFA that runs the input: the automaton itself.
func (d *DFA) Automaton() *automata.DFA { return d.D }

// Automaton is the DFA that runs the input: the expression's minimal DFA.
func (r *Regex) Automaton() *automata.DFA { return r.d }

// Kind implements Artifact.
func (r *Regex) Kind() Kind { return KindRegex }

// Alphabet implements Artifact.
func (r *Regex) Alphabet() alphabet.Alphabet { return r.R.Alphabet }

// Accepts implements Artifact.
func (r *Regex) Accepts(w []int) (bool, error) { return r.d.Accepts(w), nil }

// Format implements Artifact: the .re text format.
func (r *Regex) Format() ([]byte, error) { return []byte(regex.Format(r.R)), nil }

// regexToDFA builds the DFA of a regular expression by Brzozowski
// derivatives (under the budget's regex-states).
func regexToDFA(b *budget.Budget, r *Regex, _ NoOptions) (*DFA, error) {
	d, err := r.R.DFA(b)
	if err != nil {
		return nil, err
	}
	return NewDFA(d), nil
}

// dfaToBRASP is the Krohn–Rhodes construction (Lemmas B.6–B.8) for a
// star-free language, and for a regular language in AC0 that is not
// star-free the block construction of package automata/ac0 (Cor. 5.4): a
// program whose only position predicates are MOD_r_s, which compiles to a
// transformer with rational sinusoidal position embeddings. A language not
// in AC0 is refused with classify's witness. Either result uses only
// rightmost strict future-masked attention.
func dfaToBRASP(b *budget.Budget, d *DFA, _ NoOptions) (*Program, error) {
	p, _, err := krohnrhodes.DFAToBRASP(b, d.D)
	var notStarFree *krohnrhodes.NotCounterFreeError
	if errors.As(err, &notStarFree) {
		res, err := ac0.DFAToBRASP(b, d.D)
		if err != nil {
			return nil, err
		}
		return &Program{Prog: res.Program, futureOnly: true}, nil
	}
	if err != nil {
		return nil, err
	}
	return &Program{Prog: p, futureOnly: true}, nil
}

// Classify returns the classification of any artifact's language (its
// minimal DFA, through ToDFA): star-free, stutter-invariant, in AC0, with
// witnesses and the transformer variants that recognise it (§5).
func Classify(b *budget.Budget, a Artifact, opts Options) (*automata.Classification, error) {
	d, err := monoidDFA(b, a, opts)
	if err != nil {
		return nil, err
	}
	return automata.Classify(b, d)
}

// Cascade returns the Krohn–Rhodes cascade of an artifact's minimal DFA, for
// printing (brasp inspect --cascade).
func Cascade(b *budget.Budget, a Artifact, opts Options) (*krohnrhodes.Cascade, error) {
	d, err := monoidDFA(b, a, opts)
	if err != nil {
		return nil, err
	}
	return krohnrhodes.Decompose(b, d)
}
