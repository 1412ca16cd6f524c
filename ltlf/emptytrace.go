package ltlf

import (
	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/bdd"
)

// The empty-trace semantics. LTLf is usually read on non-empty traces;
// LTLf2DFA (and MONA's encoding of it) also reads the empty trace, where a
// formula is evaluated classically with every step quantifier ranging over
// no step at all: a proposition is false, the Boolean connectives are as
// usual, and
//
//	X[!] φ, F φ, φ U ψ, φ M ψ, Y φ, O φ, φ S ψ    false  (they need a step)
//	X φ, G φ, φ R ψ, φ W ψ, Z φ, H φ               true   (vacuously)
//
// so G(F x & F !x) holds only on the empty trace, and !G(…) never does
// there. A source selects it with a line `semantics empty_trace`
// (Formula.EmptyTrace); on non-empty traces nothing changes.

// EvalEmpty is the truth value of the formula on the empty trace.
func (f *Formula) EvalEmpty() bool {
	v := make([]bool, len(f.Nodes))
	for k, n := range f.Nodes {
		a, b := false, false
		if n.Op.Arity() >= 1 {
			a = v[n.A]
		}
		if n.Op.Arity() == 2 {
			b = v[n.B]
		}
		switch n.Op {
		case True, WeakNext, Globally, Release, WeakUntil, WeakYesterday, Historically:
			v[k] = true
		case Not:
			v[k] = !a
		case And:
			v[k] = a && b
		case Or:
			v[k] = a || b
		case Implies:
			v[k] = !a || b
		case Equiv:
			v[k] = a == b
		case Xor:
			v[k] = a != b
		}
	}
	return v[f.Root]
}

// WithEmptyTrace returns d, a DFA of f over non-empty traces, with its
// start state accepting exactly when the empty trace satisfies f
// (EvalEmpty): the start state itself when no transition enters it,
// otherwise a fresh copy of it (same transitions) as the new start state.
// The result needs minimising.
func WithEmptyTrace(f *Formula, d *symbolic.DFA) *symbolic.DFA {
	want := f.EvalEmpty()
	if d.Accept[d.Start] == want {
		return d
	}
	entered := false
	for q := range d.Next {
		for _, r := range d.Successors(q) {
			entered = entered || r == d.Start
		}
	}
	e := *d
	e.Accept = append([]bool(nil), d.Accept...)
	if !entered {
		e.Accept[e.Start] = want
		return &e
	}
	e.Next = append(append([]bdd.Node(nil), d.Next...), d.Next[d.Start])
	e.Accept = append(e.Accept, want)
	e.Start = len(e.Next) - 1
	return &e
}
