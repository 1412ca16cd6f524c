package ac0

import (
	"fmt"
	"strconv"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/krohnrhodes"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
)

// Result is a B-RASP[MOD] program for a regular language in AC0 with the
// figures of its construction.
type Result struct {
	Program *brasp.Program
	// Minimal is the minimal DFA of the input.
	Minimal *automata.DFA
	// StabilityIndex is s: η(Σ^s)·η(Σ^s) = η(Σ^s); the block length.
	StabilityIndex int
	// BlockAlphabet is |T_s| = |η(Σ^s)|, the alphabet of the block DFA.
	BlockAlphabet int
	// BlockStates is the number of states of the block DFA (the states of
	// the minimal DFA reachable from the start by blocks).
	BlockStates int
	// Images is Σ_(p≤s) |η(Σ^p)|, the number of word images the program
	// tracks inside a block.
	Images int
	// CascadeLevels is the number of levels of the block DFA's
	// Krohn–Rhodes cascade (0 when it has one state).
	CascadeLevels int
}

// NotAC0Error is returned for a language that is not in AC0; Classification
// holds classify's answer, whose NotAC0By witness shows a word of length the
// stability index that counts modulo its period.
type NotAC0Error struct {
	Classification *automata.Classification
}

func (e *NotAC0Error) Error() string {
	c := e.Classification
	w := c.NotAC0By
	if w == nil {
		return "the language is not in AC0"
	}
	alpha := c.Minimal.Alphabet
	at0, at1 := "accepted", "rejected"
	if !w.AcceptedAtZero {
		at0, at1 = at1, at0
	}
	return fmt.Sprintf("the language is not in AC0, so no B-RASP program with MOD predicates (and no transformer with rational sinusoidal position embeddings) recognises it: "+
		"w = %s (of length the stability index %d) counts modulo %d: with u = %s and v = %s, u·w^n·v is %s for n ≡ 0 and %s for n ≡ 1 (mod %d)",
		automata.ShowWord(alpha, w.Word), c.StabilityIndex, w.Period, automata.ShowWord(alpha, w.Prefix),
		automata.ShowWord(alpha, w.Suffix), at0, at1, w.Period)
}

// DFAToBRASP returns a B-RASP program whose only position predicates are
// MOD_r_s (s the stability index) and which accepts exactly the non-empty
// words d accepts, when the language of d is in AC0 (see the package
// documentation for the construction and its proof). It fails with a
// *NotAC0Error carrying classify's witness when the language is not in AC0,
// and with a budget error naming the limit when the construction outgrows
// one. Star-free languages are accepted too (their stable semigroup is
// aperiodic), although for them the MOD-free Krohn–Rhodes route applies.
func DFAToBRASP(b *budget.Budget, d *automata.DFA) (*Result, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	m, err := automata.Minimize(b, d)
	if err != nil {
		return nil, err
	}
	im, err := computeImages(b, m)
	if err != nil {
		return nil, err
	}
	ts := im.levels[im.s-1]
	for _, t := range ts.elems {
		if t.hasCycle() {
			return nil, notAC0(b, m)
		}
	}
	block, states, err := blockDFA(m, ts)
	if err != nil {
		return nil, err
	}
	var kr *brasp.Program
	levels := 0
	if block.NumStates() > 1 {
		c, err := krohnrhodes.Decompose(b, block)
		if err != nil {
			return nil, fmt.Errorf("the block automaton over η(Σ^%d): %w", im.s, err)
		}
		levels = len(c.Levels)
		if kr, err = krohnrhodes.CascadeToBRASP(c); err != nil {
			return nil, err
		}
	}
	c := &construction{b: b, m: m, im: im, block: block, states: states, kr: kr,
		meter: b.Meter(maxBytes, "the B-RASP[MOD] program")}
	p, err := c.build()
	if err != nil {
		return nil, err
	}
	total := 0
	for _, l := range im.levels {
		total += len(l.elems)
	}
	return &Result{Program: p, Minimal: m, StabilityIndex: im.s, BlockAlphabet: len(ts.elems),
		BlockStates: block.NumStates(), Images: total, CascadeLevels: levels}, nil
}

// notAC0 classifies m for the witness of the refusal.
func notAC0(b *budget.Budget, m *automata.DFA) error {
	c, err := automata.Classify(b, m)
	if err != nil {
		return err
	}
	if c.AC0 {
		return fmt.Errorf("internal error: η(Σ^s) has a group element but classify says the language is in AC0")
	}
	return &NotAC0Error{Classification: c}
}

// blockDFA returns the block automaton: its alphabet is T_s = η(Σ^s)
// (symbols t0, t1, …), its states the states of m reachable from the start
// by elements of T_s (states[x] is the state of m of block state x), and
// block letter t maps x to t(x). Its acceptance is that of m (the program
// reads its states, not its acceptance).
func blockDFA(m *automata.DFA, ts *level) (*automata.DFA, []int, error) {
	id := map[int]int{m.Start: 0}
	states := []int{m.Start}
	for k := 0; k < len(states); k++ {
		for _, t := range ts.elems {
			y := int(t[states[k]])
			if _, ok := id[y]; !ok {
				id[y] = len(states)
				states = append(states, y)
			}
		}
	}
	alpha := make(alphabet.Alphabet, len(ts.elems))
	for k := range alpha {
		alpha[k] = "t" + strconv.Itoa(k)
	}
	d := automata.NewDFA(alpha, len(states))
	for x, q := range states {
		d.Accept[x] = m.Accept[q]
		for k, t := range ts.elems {
			d.Delta[x][k] = id[int(t[q])]
		}
	}
	return d, states, d.Validate()
}
