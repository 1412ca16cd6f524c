package toltlf

import (
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/bdd"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/ltl"
	"github.com/brasp-dev/brasp/ltlf"
)

// maxLetterBytes bounds the letter automaton written out from the symbolic
// one.
var maxLetterBytes = budget.Define("ltl-letter-dfa-bytes", 1<<30, "bytes",
	"bytes of the letter automaton of an LTL formula written out from its symbolic automaton (states × letters × 8)")

// DFA returns the minimal DFA of the language of f (f read at the last
// position of non-empty words; the DFA rejects ε), built by ltlf.ToDFA
// from Translate(f) and written out over f's letters: the letter numbered
// a reads the valuation of its code. States are numbered as by
// automata.Minimize. It returns an error wrapping ErrUnsupported when f is
// outside the translation's reach (then package exact's bimachine builds
// the automaton) and the engines' budget errors.
func DFA(b *budget.Budget, f *ltl.Formula) (*automata.DFA, error) {
	g, err := Translate(b, f)
	if err != nil {
		return nil, err
	}
	sd, err := ltlf.ToDFA(b, g)
	if err != nil {
		return nil, err
	}
	alpha := f.Alphabet()
	d, err := Letters(b, sd, alpha)
	if err != nil {
		return nil, err
	}
	if len(alpha) == 1<<Bits(len(alpha)) {
		// Every valuation is a letter: states told apart by some trace of
		// valuations are told apart by a word, and the symbolic DFA is
		// minimal, so the letter DFA is too. Only its numbering is left.
		return breadthFirst(d), nil
	}
	return automata.Minimize(b, d)
}

// breadthFirst renumbers the states of d in breadth-first order from the
// start, symbols in alphabet order, as automata.Minimize does, dropping
// unreachable ones.
func breadthFirst(d *automata.DFA) *automata.DFA {
	id := make([]int, d.NumStates())
	for q := range id {
		id[q] = -1
	}
	id[d.Start] = 0
	order := []int{d.Start}
	for i := 0; i < len(order); i++ {
		for _, r := range d.Delta[order[i]] {
			if id[r] < 0 {
				id[r] = len(order)
				order = append(order, r)
			}
		}
	}
	out := automata.NewDFA(d.Alphabet, len(order))
	for i, q := range order {
		out.States[i] = d.States[q]
		out.Accept[i] = d.Accept[q]
		for a, r := range d.Delta[q] {
			out.Delta[i][a] = id[r]
		}
	}
	out.Start = 0
	return out
}

// Letters writes the symbolic automaton d over the code bits of alpha's
// letters (Props(len(alpha))) as an automaton over alpha. Codes of no
// letter are never read, so the result may have states that only they
// told apart: minimise it.
func Letters(b *budget.Budget, d *symbolic.DFA, alpha []string) (*automata.DFA, error) {
	n, s := d.NumStates(), len(alpha)
	k := Bits(s)
	if err := b.Meter(maxLetterBytes, "letter automaton").Add(8 * int64(n) * int64(s)); err != nil {
		return nil, err
	}
	out := automata.NewDFA(alpha, n)
	out.Start = d.Start
	copy(out.Accept, d.Accept)
	m := d.M
	for q := range n {
		row := out.Delta[q]
		var walk func(x bdd.Node, level, lo int)
		walk = func(x bdd.Node, level, lo int) {
			if lo >= s {
				return
			}
			if l := m.Level(x); l >= k {
				to := d.Leaf[x]
				for a := lo; a < min(s, lo+1<<(k-level)); a++ {
					row[a] = to
				}
				return
			} else if l > level {
				walk(x, level+1, lo)
				walk(x, level+1, lo+1<<(k-level-1))
				return
			}
			walk(m.Low(x), level+1, lo)
			walk(m.High(x), level+1, lo+1<<(k-level-1))
		}
		walk(d.Next[q], 0, 0)
		if err := b.Step(int64(s)); err != nil {
			return nil, err
		}
	}
	return out, nil
}
