package ltlf

import (
	"fmt"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/position"
)

// ToBRASP converts f into a B-RASP program over its propositions that
// accepts exactly the traces satisfying f: Theorem 3.2's construction (each
// temporal operator one attention operation with a strict mask) read on
// traces of valuations. The program declares `propositions` with the
// formula's propositions, so P_p(i) is 1 when p is true at step i; it has
// one vector per subformula, holding the subformula's truth value at every
// step, and its output reads the root's vector at the first step, since
// LTLf reads a formula at step 0 while B-RASP accepts at the last position:
//
//	Holds(i) := leftmost [1, 1] root(j) : 0
//
// (j is the first position for every i). With x = φ's vector and y = ψ's,
// the temporal operators are (all masks strict, i<j the future, j<i the
// past):
//
//	X[!] φ   leftmost  [i<j, 1] x(j) : 0                 (strong next: no next step, 0)
//	X φ      leftmost  [i<j, 1] x(j) : 1                 (weak next: no next step, 1)
//	F φ      x(i) | leftmost [i<j, x(j)] 1 : 0
//	G φ      x(i) & leftmost [i<j, !x(j)] 0 : 1
//	φ U ψ    y(i) | x(i) & leftmost [i<j, !x(j) | y(j)] y(j) : 0
//	φ W ψ    y(i) | x(i) & leftmost [i<j, !x(j) | y(j)] y(j) : 1
//	φ R ψ    y(i) & (x(i) | leftmost [i<j, x(j) | !y(j)] y(j) : 1)
//	φ M ψ    y(i) & (x(i) | leftmost [i<j, x(j) | !y(j)] y(j) : 0)
//	Y φ, Z φ rightmost [j<i, 1] x(j) : 0, and : 1
//	O φ      x(i) | rightmost [j<i, x(j)] 1 : 0
//	H φ      x(i) & rightmost [j<i, !x(j)] 0 : 1
//	φ S ψ    y(i) | x(i) & rightmost [j<i, !x(j) | y(j)] y(j) : 0
//
// The attention of φ U ψ picks the first j > i where the until is decided,
// φ false or ψ true, and reads ψ there (the paper's strict until); R and M
// are the duals !(!φ U !ψ) and !(!φ W !ψ) with the negations pushed into
// the attention, so every operator costs one attention layer and no
// negation vectors. The Boolean connectives are position-wise operations
// (φ -> ψ as !φ | ψ, φ <-> ψ and xor as sums of products). Propositions
// are the initial vectors themselves, and the constants are literals. The
// program's attention depth is the formula's temporal depth (plus one for
// the output's read of the first step), and any number of propositions
// costs one vector each.
func ToBRASP(f *Formula) (*brasp.Program, error) {
	b := brasp.NewPropositionBuilder(f.Props)
	reach := f.reachable()
	vec := make([]int, len(f.Nodes))
	at := func(n int32, v brasp.Var) brasp.Expr {
		switch f.Nodes[n].Op {
		case True, False:
			return brasp.Bool(f.Nodes[n].Op == True)
		}
		return b.At(vec[n], v)
	}
	i := func(n int32) brasp.Expr { return at(n, brasp.VarI) }
	j := func(n int32) brasp.Expr { return at(n, brasp.VarJ) }
	not, and, or := brasp.Negate, brasp.Conjoin, brasp.Disjoin
	future := func(name string, score, value brasp.Expr, def bool) brasp.Expr {
		return b.I(b.Attend(name, position.Leftmost, position.MaskPast, score, value, brasp.Bool(def)))
	}
	past := func(name string, score, value brasp.Expr, def bool) brasp.Expr {
		return b.I(b.Attend(name, position.Rightmost, position.MaskFuture, score, value, brasp.Bool(def)))
	}
	for k, n := range f.Nodes {
		if !reach[k] {
			continue
		}
		x, y := int32(n.A), int32(n.B)
		var e brasp.Expr
		name := n.Op.vectorName()
		switch n.Op {
		case True, False:
			continue // a literal where it is used
		case Prop:
			vec[k] = int(n.A)
			continue
		case Not:
			e = not(i(x))
		case And:
			e = and(i(x), i(y))
		case Or:
			e = or(i(x), i(y))
		case Implies:
			e = or(not(i(x)), i(y))
		case Equiv:
			e = or(and(i(x), i(y)), and(not(i(x)), not(i(y))))
		case Xor:
			e = or(and(i(x), not(i(y))), and(not(i(x)), i(y)))
		case Next, WeakNext:
			vec[k] = b.Attend(name, position.Leftmost, position.MaskPast, brasp.Bool(true), j(x), brasp.Bool(n.Op == WeakNext))
			continue
		case Yesterday, WeakYesterday:
			vec[k] = b.Attend(name, position.Rightmost, position.MaskFuture, brasp.Bool(true), j(x), brasp.Bool(n.Op == WeakYesterday))
			continue
		case Finally:
			e = or(i(x), future(name+"_later", j(x), brasp.Bool(true), false))
		case Globally:
			e = and(i(x), future(name+"_later", not(j(x)), brasp.Bool(false), true))
		case Until, WeakUntil:
			e = or(i(y), and(i(x), future(name+"_later", or(not(j(x)), j(y)), j(y), n.Op == WeakUntil)))
		case Release, StrongRelease:
			e = and(i(y), or(i(x), future(name+"_later", or(j(x), not(j(y))), j(y), n.Op == Release)))
		case Once:
			e = or(i(x), past(name+"_before", j(x), brasp.Bool(true), false))
		case Historically:
			e = and(i(x), past(name+"_before", not(j(x)), brasp.Bool(false), true))
		case Since:
			e = or(i(y), and(i(x), past(name+"_before", or(not(j(x)), j(y)), j(y), false)))
		default:
			return nil, fmt.Errorf("internal error: operator %s in ToBRASP", n.Op)
		}
		vec[k] = b.Positionwise(name, e)
	}
	root := f.Root
	b.SetAccept(b.Attend("Holds", position.Leftmost, position.MaskNone, brasp.Bool(true), j(root), brasp.Bool(false)))
	return b.Program()
}

// vectorName names the vector of a subformula with operator o in the
// program ToBRASP builds.
func (o Op) vectorName() string {
	return [numOps]string{True: "True", False: "False", Prop: "Prop", Not: "Not", And: "And", Or: "Or",
		Implies: "Implies", Equiv: "Equiv", Xor: "Xor", Next: "StrongNext", WeakNext: "Next",
		Finally: "Finally", Globally: "Globally", Until: "Until", Release: "Release", WeakUntil: "WeakUntil",
		StrongRelease: "StrongRelease", Yesterday: "Yesterday", WeakYesterday: "WeakYesterday", Once: "Once",
		Historically: "Historically", Since: "Since"}[o]
}

// reachable marks the nodes reachable from the root.
func (f *Formula) reachable() []bool { return f.reachableFrom(f.Root) }

// reachableFrom marks the nodes reachable from node i (its subformulas,
// which come before it).
func (f *Formula) reachableFrom(i int32) []bool {
	seen := make([]bool, len(f.Nodes))
	seen[i] = true
	for k := i; k >= 0; k-- {
		if !seen[k] {
			continue
		}
		switch n := f.Nodes[k]; n.Op.Arity() {
		case 1:
			seen[n.A] = true
		case 2:
			seen[n.A], seen[n.B] = true, true
		}
	}
	return seen
}

// Steps returns t as the bit sets B-RASP programs over propositions read
// (brasp.Program.RunSteps); they share t's storage.
func (t Trace) Steps() [][]uint64 {
	out := make([][]uint64, len(t))
	for i, s := range t {
		out[i] = s
	}
	return out
}
