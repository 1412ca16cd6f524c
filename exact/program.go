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
	p, err := prepare(p)
	if err != nil {
		return nil, err
	}
	b, steps, err := newBimachine(bud, p)
	if err != nil {
		return nil, err
	}
	out := p.Output.Accept
	if err := runSteps(bud, b, steps, out); err != nil {
		return nil, err
	}
	return b.dfa(p, out)
}

// prepare returns the program the bimachine constructions run: constants
// folded, dead operations and predicates dropped (Mid is refused only when
// the output depends on it), eventually periodic predicates lowered to MOD
// and attention (brasp.LowerPeriodic).
func prepare(p *brasp.Program) (*brasp.Program, error) {
	if p.IsTransducer() {
		return nil, ErrTransducer
	}
	p = brasp.Simplify(p)
	p, err := brasp.LowerPeriodic(p)
	if err != nil {
		return nil, err
	}
	for _, v := range p.Vectors {
		if v.Kind == brasp.PredicateVector && v.Pred.Kind == brasp.Mid {
			return nil, fmt.Errorf("vector %s: %w", v.Name, errMid)
		}
	}
	return p, nil
}

// machines is a bimachine under construction, over letters or over
// propositions, as runSteps drives it.
type machines interface {
	// numTables is the number of tables, hidden ones included.
	numTables() int
	// kept reports whether table k is computed and not dropped.
	kept(k int) bool
	// drop frees table k.
	drop(k int)
	// run performs step t.
	run(t int) error
	// minimize merges the states of both machines that the tables in live
	// and the steps to come cannot tell apart.
	minimize(live []int) error
}

// runSteps performs the steps in order, dropping each table after its last
// reader, and minimises the machines after every attention step (and before
// one, when tables were dropped since) with respect to the live tables; the
// output table out lives to the end.
func runSteps(bud *budget.Budget, b machines, steps []stepPlan, out int) error {
	lastUse := make([]int, b.numTables())
	for k := range lastUse {
		lastUse[k] = -1
	}
	for t, st := range steps {
		for _, k := range st.uses {
			lastUse[k] = t
		}
	}
	lastUse[out] = len(steps)
	live := func(after int) []int {
		var ks []int
		for k, t := range lastUse {
			if t > after && b.kept(k) {
				ks = append(ks, k)
			}
		}
		return ks
	}
	for k := range lastUse {
		if lastUse[k] < 0 {
			b.drop(k)
		}
	}
	if err := b.minimize(live(-1)); err != nil {
		return err
	}
	dropped := false // tables freed since the last minimisation
	for t, st := range steps {
		if st.att != nil && dropped {
			// Attention multiplies the machine it starts from: start it
			// from the smallest one the live tables allow.
			if err := b.minimize(live(t - 1)); err != nil {
				return err
			}
		}
		if err := bud.Err(); err != nil {
			return err
		}
		if err := b.run(t); err != nil {
			return err
		}
		for k, u := range lastUse {
			if u == t && b.kept(k) {
				b.drop(k)
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
			return err
		}
		dropped = false
	}
	return nil
}
