package krohnrhodes

import (
	"strconv"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
)

// CascadeToBRASP compiles a cascade of identity–reset automata into a B-RASP
// program that accepts exactly the non-empty words the cascade's automaton
// accepts (paper, Lemmas B.6–B.8 and the proof of Thm B.4). It uses only
// rightmost, strictly future-masked attention (as Thm 5.1 promises). Level d
// in state s before position i is Lemma B.6's "most recent reset wins":
//
//	L<d>_<s>(i) := rightmost [j<i, reset_d(j)] resetTo_s(j) : [s initial],
//
// where reset_d(j), as in Lemma B.7, is a Boolean combination of the symbol
// at j and vectors of levels 1..d-1 at j; Lemma B.8 stacks the levels. The
// homomorphism of the proof of Thm B.4 (A_r := ⋁ C_q over φ(q) = r) is read
// one tile at a time: C_<P>(i) says that the tile chain of the global state
// before i passes the set P, A_<x>(i) that the DFA is in state x before i
// (C of {x}), and Y(i), the output vector, that it accepts after reading i.
//
// The level inputs are in context form (context.go): level d is reset at
// j unless an identity input is read there, "the symbol is a and the chain
// passes the set P" (Q_a(j) ∧ C_P(j), P a set of the level's height that a
// keeps in its class); the target is s ≠ 0 when one of the level's rules for
// s fires, "the symbol is a and the chain passes the edge P --t--> T"
// (Q_a(j) ∧ C_P(j) ∧ L<level of P>_<t>(j)), and 0 when none does. R<d>(i)
// names the reset condition when the level has more than two states. This is
// Lemma B.7 with the tuples of states of the levels above grouped by the tile
// chain they determine: the program's size is polynomial in the number of
// holonomy sets and edges, whatever the number of global states, and no
// global state is enumerated (cascade-bytes bounds only the decomposition). A level
// with a single reachable state needs no vector.
func CascadeToBRASP(c *Cascade) (*brasp.Program, error) {
	return contextProgram(c)
}

// finish adds the output vector: Y(i) says that the DFA accepts after
// reading position i, from the state vectors A_x (before i) and the symbol
// at i (the proof of Thm B.4).
func finish(b *brasp.Builder, d *automata.DFA, order []int, stateVec []brasp.Expr) (*brasp.Program, error) {
	var accept []brasp.Expr
	for _, x := range order {
		var syms []brasp.Expr
		for a := range d.Alphabet {
			if d.Accept[d.Delta[x][a]] {
				syms = append(syms, b.I(b.SymbolVec(a)))
			}
		}
		if len(syms) > 0 {
			accept = append(accept, brasp.And(stateVec[x], brasp.Or(syms...)))
		}
	}
	b.SetAccept(b.Positionwise("Y", brasp.Or(accept...)))
	return b.Program()
}

func stateVectorName(d *automata.DFA, x int) string {
	if alphabet.IsBare(d.States[x]) {
		return "A_" + d.States[x]
	}
	return "A_" + strconv.Itoa(x)
}

// DFAToBRASP minimises d, decomposes it (Decompose) and compiles the cascade
// into B-RASP (CascadeToBRASP). The program accepts exactly the non-empty
// words d accepts; the empty word, which B-RASP never reads, is ignored. It
// fails with a *NotCounterFreeError carrying the witness when the language is
// not star-free, and with the budget's error when a limit of Decompose is
// exceeded or the budget's context is cancelled.
func DFAToBRASP(b *budget.Budget, d *automata.DFA) (*brasp.Program, *Cascade, error) {
	m, err := automata.Minimize(b, d)
	if err != nil {
		return nil, nil, err
	}
	c, err := Decompose(b, m)
	if err != nil {
		return nil, nil, err
	}
	p, err := CascadeToBRASP(c)
	if err != nil {
		return nil, nil, err
	}
	return p, c, nil
}
