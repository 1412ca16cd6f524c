// Package count counts the words of each length that a regular language
// accepts and rejects, exactly, and samples them uniformly: for datasets
// of labelled words (brasp sample) and exact counts (brasp count).
//
// Everything runs on a complete DFA seen as a weighted graph (Automaton):
// from each state, one edge per successor, weighted by the number of
// letters leading there. For a DFA over letters (FromDFA) the weight is how
// many letters; for a symbolic DFA over propositions (FromSymbolic) the
// letters are the 2^k valuations and the weight of an edge is the number of
// valuations satisfying its guard, counted on the decision diagram, never
// by listing valuations.
//
// Count builds the table W_s[n][q] of the words of length n that lead from
// state q to a state of side s (accepting or rejecting):
//
//	W_s[0][q] = 1 if q is on side s, else 0
//	W_s[n][q] = Σ over the edges q → r of weight(q → r) · W_s[n-1][r]
//
// in uint64 while every count of a length fits (the total |Σ|^n does), in
// math/big beyond. A Sampler draws a word of length n and side s uniformly
// by the backward-count method: from the start, with m letters still to
// choose in state q, it takes the edge q → r with probability
// weight(q → r) · W_s[m-1][r] / W_s[m][q], then one of that edge's
// letters uniformly; the product of these probabilities is
// 1 / W_s[n][start] for every word of the side. With big counts the
// choice compares the top 64 bits of a uniform draw below W_s[m][q] with
// the top 64 bits of the edges' cumulative weights, and draws the
// remaining bits only when they are needed to decide (a chance of about
// the number of edges in 2^63), so a step costs a few machine words, and
// the draw stays exactly uniform.
//
// Counts gives the counts of a range of lengths without the table: one
// row rolled forward from the start state, or, for a long first length,
// reached by powers of the matrix of edge weights.
//
// The tables are charged to the count-table-bytes limit; counting and
// sampling charge their steps to the budget's work and stop when its
// context is cancelled.
package count

import (
	"math/big"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
)

// TableBytes bounds the sampling tables (states × lengths × the size of
// a count, for each side), the set of words --distinct keeps, and the rows
// and matrices of Counts.
var TableBytes = budget.Define("count-table-bytes", 1<<30, "bytes",
	"tables that sample the words of each length (states × lengths × count size), the distinct words drawn, and the rows and matrices of counts that count keeps")

// Automaton is a complete DFA as the counting and sampling read it: per
// state, its edges (one per successor, with the number of letters leading
// there and a way to pick one of them uniformly) and whether it accepts.
// Letters are numbers: a letter's index in a DFA's alphabet, or a
// valuation (bit i: proposition i holds) for a symbolic DFA.
type Automaton struct {
	start  int
	accept []bool
	out    [][]edge
	// letters is the number of letters, |Σ| or 2^k.
	letters big.Int
	// step is the successor of a state on a letter.
	step func(q int, letter uint64) int
	// props is the number of propositions of a symbolic DFA (-1 for a
	// DFA over letters).
	props int
	// canSample is nil, or why words cannot be drawn (a symbolic DFA
	// over too many propositions).
	canSample error
}

// edge is one successor of a state: to, reached on weight letters.
type edge struct {
	to     int
	weight big.Int
	small  uint64 // weight, when it fits in 64 bits (always for DFAs over letters)
	// letters lists the letters of the edge (DFAs over letters); guard
	// picks a valuation of it (symbolic DFAs).
	letters []uint64
	guard   *guard
}

// FromDFA reads a complete DFA over letters. The letters of an edge are
// kept in alphabet order.
func FromDFA(d *automata.DFA) (*Automaton, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	a := &Automaton{start: d.Start, accept: append([]bool(nil), d.Accept...), out: make([][]edge, d.NumStates()), props: -1}
	a.letters.SetInt64(int64(len(d.Alphabet)))
	for q, row := range d.Delta {
		idx := map[int]int{}
		for l, r := range row {
			i, ok := idx[r]
			if !ok {
				i = len(a.out[q])
				idx[r] = i
				a.out[q] = append(a.out[q], edge{to: r})
			}
			a.out[q][i].letters = append(a.out[q][i].letters, uint64(l))
		}
		for i := range a.out[q] {
			e := &a.out[q][i]
			e.small = uint64(len(e.letters))
			e.weight.SetUint64(e.small)
		}
	}
	delta := d.Delta
	a.step = func(q int, l uint64) int { return delta[q][l] }
	return a, nil
}

// NumStates is the number of states.
func (a *Automaton) NumStates() int { return len(a.out) }

// Letters is the number of letters (|Σ|, or 2^k over k propositions).
func (a *Automaton) Letters() *big.Int { return new(big.Int).Set(&a.letters) }

// Accepts runs the automaton on a word of letters.
func (a *Automaton) Accepts(w []uint64) bool {
	q := a.start
	for _, l := range w {
		q = a.step(q, l)
	}
	return a.accept[q]
}
