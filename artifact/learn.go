package artifact

import (
	"fmt"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/learn"
)

// Learn learns the minimal DFA of a's language of non-empty words by
// active learning (package learn) with a's exact teacher: membership by
// running a's minimal DFA (ToDFA), equivalence by learn.DFATeacher's
// exact check. It is not an edge of the table: its source is a
// teacher, not a kind, and the teachers that matter (a process, a
// trained model) are not files; with a file it verifies the learner, whose
// result must equal ToDFA's. learn.Learn with another Membership and
// Equivalence learns any other teacher.
func Learn(b *budget.Budget, a Artifact, opts Options) (*learn.Result, error) {
	d, err := ToDFA(b, a, opts)
	if err != nil {
		return nil, err
	}
	teacher := &learn.DFATeacher{D: d}
	return learn.Learn(b, d.Alphabet, teacher, teacher)
}

// ValuationAlphabet is the alphabet of the valuations of props in the
// order of symbolic.Valuation (letter v: proposition i holds when bit i of
// v is set), each named as a step of a trace in braces ("{p,q}", "{}"), so
// that letters joined by ';' are a trace in the syntax of brasp run. At
// most 12 propositions (4,096 letters), each named once.
func ValuationAlphabet(props []string) (alphabet.Alphabet, error) {
	seen := make(map[string]bool, len(props))
	for _, p := range props {
		if seen[p] {
			return nil, fmt.Errorf("proposition %s twice", p)
		}
		seen[p] = true
	}
	if len(props) > maxValuationProps {
		return nil, fmt.Errorf("%d propositions: a learner over propositions reads 2^%d valuations (at most %d propositions)",
			len(props), len(props), maxValuationProps)
	}
	names := make([]string, 1<<len(props))
	for v := range names {
		names[v] = valuationName(props, symbolic.Valuation(len(props), v))
	}
	return alphabet.New(names...)
}

// LearnTraces is Learn for a's language of non-empty traces over props
// (a superset of a's propositions, in any order): a must read traces (an
// LTLf formula, a symbolic DFA, a program or model over propositions). The
// learner's letters are the valuations (ValuationAlphabet); Symbolic
// turns the learned DFA into a symbolic one.
func LearnTraces(b *budget.Budget, a Artifact, props []string, opts Options) (*learn.Result, error) {
	side, ok := symbolicInput(a, opts)
	if !ok {
		return nil, fmt.Errorf("--propositions: a %s is not read over propositions", a.Kind())
	}
	alpha, err := ValuationAlphabet(props)
	if err != nil {
		return nil, err
	}
	d, _, err := side.over(b, props)
	if err != nil {
		return nil, err
	}
	letters, err := symbolic.ToLetters(b, rejectEmpty(d), func(v []bool) string { return valuationName(props, v) })
	if err != nil {
		return nil, err
	}
	letters.Alphabet = alpha
	teacher := &learn.DFATeacher{D: letters}
	return learn.Learn(b, alpha, teacher, teacher)
}

// Symbolic is the minimal symbolic DFA over props of d, a DFA over the
// letters of ValuationAlphabet(props) (what LearnTraces learns).
func Symbolic(b *budget.Budget, d *automata.DFA, props []string) (*SymbolicDFA, error) {
	s, err := symbolic.FromLetters(b, d, props)
	if err != nil {
		return nil, err
	}
	if s, err = symbolic.Minimize(b, s); err != nil {
		return nil, err
	}
	return &SymbolicDFA{D: s, bud: b}, nil
}
