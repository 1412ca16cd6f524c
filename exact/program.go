package exact

import (
	"errors"
	"fmt"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
)

// ErrNotRegular is wrapped by the error returned for a program or formula
// that uses the position predicate Mid, whose languages need not be regular.
var ErrNotRegular = errors.New("not regular")

// errMid is the reason given for refusing Mid.
var errMid error = midError{}

// midError is errMid's type: a constant, so that no error is formatted at
// start-up.
type midError struct{}

func (midError) Error() string {
	return "Mid is " + ErrNotRegular.Error() + ": {#a^m#b^m#} is definable with it"
}

func (midError) Unwrap() error { return ErrNotRegular }

// ErrTransducer is returned for a B-RASP transducer: it maps words to words
// and has no language to turn into an automaton.
var ErrTransducer = errors.New("a transducer has no language (exact semantics needs an acceptor)")

// The limits of the construction, raisable with --limit NAME=N.
var (
	maxStates = budget.Define("exact-states", 100000, "states",
		"states of the left or right machine of the exact semantics (brasp/ltl/transformer → dfa), before minimisation")
	maxTableBytes = budget.Define("exact-bytes", 1<<26, "bytes",
		"bytes of the exact semantics' truth tables and attention summaries (left states × symbols × right states per table)")
	maxAtoms = budget.Define("exact-atoms", 8, "vectors",
		"vectors one attention operation's score and value read at i in the exact semantics (2^atoms summaries per state)")
	maxModulus = budget.Define("exact-modulus", 1<<12, "positions",
		"least common multiple of the MOD moduli, the exact semantics' position counter")
)

// ProgramDFA returns the minimal DFA of the language of the B-RASP acceptor
// p (a language of non-empty words: the DFA rejects ε), within the budget
// (the limits exact-states, exact-bytes, exact-atoms, exact-modulus and the
// budget's work and context).
func ProgramDFA(bud *budget.Budget, p *brasp.Program) (*automata.DFA, error) {
	if p.IsTransducer() {
		return nil, ErrTransducer
	}
	// Constants folded, dead operations and predicates dropped: Mid is
	// refused only when the output depends on it.
	p = brasp.Simplify(p)
	// Eventually periodic table predicates are definable with MOD and
	// attention (brasp.LowerPeriodic).
	p, err := brasp.LowerPeriodic(p)
	if err != nil {
		return nil, err
	}
	for _, v := range p.Vectors {
		if v.Kind == brasp.PredicateVector && v.Pred.Kind == brasp.Mid {
			return nil, fmt.Errorf("vector %s: %w", v.Name, errMid)
		}
	}
	b, steps, err := newBimachine(bud, p)
	if err != nil {
		return nil, err
	}
	// Liveness: the last step reading each table; the output lives to the end.
	lastUse := make([]int, len(b.tab))
	for k := range lastUse {
		lastUse[k] = -1
	}
	for t, st := range steps {
		for _, k := range st.uses {
			lastUse[k] = t
		}
	}
	out := p.Output.Accept
	lastUse[out] = len(steps)
	live := func(after int) []int {
		var ks []int
		for k, t := range lastUse {
			if t > after && b.tab[k] != nil {
				ks = append(ks, k)
			}
		}
		return ks
	}
	for k := range b.tab {
		if lastUse[k] < 0 {
			b.tab[k] = nil
		}
	}
	if err := b.minimize(live(-1)); err != nil {
		return nil, err
	}
	dropped := false // tables freed since the last minimisation
	for t, st := range steps {
		if st.att != nil && dropped {
			// Attention multiplies the machine it starts from: start it
			// from the smallest one the live tables allow.
			if err := b.minimize(live(t - 1)); err != nil {
				return nil, err
			}
		}
		switch {
		case st.att == nil:
			tab := make([]bool, b.nL*b.sigma*b.nR)
			if err := bud.Step(int64(len(tab))); err != nil {
				return nil, err
			}
			for c := range tab {
				tab[c] = st.pw(b.tab, c, 0)
			}
			b.tab[st.out] = tab
		default:
			if err := b.extend(st.att); err != nil {
				return nil, err
			}
		}
		for k, u := range lastUse {
			if u == t && b.tab[k] != nil {
				b.tab[k] = nil
				dropped = true
			}
		}
		// Only attention grows the machines; a position-wise step adds a
		// table of the same size, so minimising after it rarely pays for
		// the partition refinement over every live table (a Krohn–Rhodes
		// program of 1,561 vectors went from 17.5 s to under 1 s).
		if st.att == nil {
			continue
		}
		if err := b.minimize(live(t)); err != nil {
			return nil, err
		}
		dropped = false
	}
	return b.dfa(p, out), nil
}
