package ltlf

import (
	"math"
	"slices"

	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/budget"
)

// connectives builds the minimal DFAs of the Boolean combinations at the
// top of a formula, each subformula once (the formula is a DAG: a
// subformula repeated in several conjuncts is one node).
type connectives struct {
	b    *budget.Budget
	f    *Formula
	done map[int32]*symbolic.DFA
	dist map[int32]int32
}

// distribute rewrites node i by G(φ ∧ ψ) = G φ ∧ G ψ, the same for X[!]
// and X, and F(φ ∨ ψ) = F φ ∨ F ψ (equal at every step of every trace),
// applied again to the results, so that X[!] G (φ₁ ∧ … ∧ φₙ) becomes
// the conjunction of the X[!] G φₖ: each an automaton of its own, combined
// by minimised products, instead of one progression whose states carry
// every conjunct's obligations at once (a SYNTCOMP counter over 25
// propositions: 4.4 s to 1 s).
func (c *connectives) distribute(i int32) int32 {
	if j, ok := c.dist[i]; ok {
		return j
	}
	f := c.f
	n := f.Nodes[i]
	j := i
	switch n.Op {
	case Globally, Next, WeakNext, Finally:
		a := c.distribute(n.A)
		an := f.Nodes[a]
		if (an.Op == And && n.Op != Finally) || (an.Op == Or && n.Op == Finally) {
			j = f.Mk(an.Op, c.distribute(f.Mk(n.Op, an.A, 0)), c.distribute(f.Mk(n.Op, an.B, 0)))
		} else if a != n.A {
			j = f.Mk(n.Op, a, 0)
		}
	}
	c.dist[i] = j
	return j
}

func (c *connectives) dfa(i int32) (*symbolic.DFA, error) {
	if d, ok := c.done[i]; ok {
		return d, nil
	}
	d, err := c.build(i)
	if err != nil {
		return nil, err
	}
	c.done[i] = d
	return d, nil
}

func (c *connectives) build(i int32) (*symbolic.DFA, error) {
	b, f := c.b, c.f
	n := f.Nodes[i]
	if j := c.distribute(i); j != i {
		return c.dfa(j)
	}
	var op func([]bool) bool
	switch n.Op {
	case Not:
		op = func(v []bool) bool { return !v[0] }
	case And:
		op = func(v []bool) bool { return v[0] && v[1] }
	case Or:
		op = func(v []bool) bool { return v[0] || v[1] }
	case Implies:
		op = func(v []bool) bool { return !v[0] || v[1] }
	case Equiv:
		op = func(v []bool) bool { return v[0] == v[1] }
	case Xor:
		op = func(v []bool) bool { return v[0] != v[1] }
	default:
		g := *f
		g.Root = i
		d, err := ToDFAUnminimized(b, &g)
		if err != nil {
			return nil, err
		}
		return symbolic.Minimize(b, d)
	}
	if n.Op == And || n.Op == Or {
		return c.chain(i, op)
	}
	ops := []int32{n.A}
	if n.Op != Not {
		ops = append(ops, n.B)
	}
	var ds []*symbolic.DFA
	for _, j := range ops {
		d, err := c.dfa(j)
		if err != nil {
			return nil, err
		}
		// An empty conjunct or a full disjunct decides the connective:
		// the other operand is not built.
		if (n.Op == And && symbolic.IsEmpty(d)) || (n.Op == Or && symbolic.IsFull(d)) {
			return d, nil
		}
		ds = append(ds, d)
	}
	p, err := symbolic.Product(b, ds, op)
	if err != nil {
		return nil, err
	}
	return symbolic.Minimize(b, p)
}

// operands appends the operands of the chain of op (And or Or) at node i,
// each distributed, and each once.
func (c *connectives) operands(i int32, op Op, out []int32) []int32 {
	j := c.distribute(i)
	if n := c.f.Nodes[j]; n.Op == op {
		return c.operands(n.B, op, c.operands(n.A, op, out))
	}
	if slices.Contains(out, j) {
		return out
	}
	return append(out, j)
}

// chain builds a conjunction or disjunction of any number of operands as a
// whole: every operand's DFA first (one empty conjunct or full disjunct
// decides it), then minimised products of two automata at a time, the
// pair that pairCost ranks cheapest first, until one is left, stopping as
// soon as an intermediate product is empty (full).
func (c *connectives) chain(i int32, op func([]bool) bool) (*symbolic.DFA, error) {
	and := c.f.Nodes[i].Op == And
	decided := func(d *symbolic.DFA) bool {
		if and {
			return symbolic.IsEmpty(d)
		}
		return symbolic.IsFull(d)
	}
	var ds []*symbolic.DFA
	var sups [][]int32
	for _, j := range c.operands(i, c.f.Nodes[i].Op, nil) {
		d, err := c.dfa(j)
		if err != nil {
			return nil, err
		}
		if decided(d) {
			return d, nil
		}
		ds = append(ds, d)
		sups = append(sups, c.f.support(j))
	}
	if len(ds) > exactChain {
		return c.longChain(ds, sups, op, decided)
	}
	for len(ds) > 1 {
		x, y, best := 0, 1, math.Inf(1)
		for a := range ds {
			if err := c.b.Step(int64(len(ds))); err != nil {
				return nil, err
			}
			for b := a + 1; b < len(ds); b++ {
				if cost := pairCost(ds[a], ds[b], sups[a], sups[b]); cost < best {
					x, y, best = a, b, cost
				}
			}
		}
		d, err := c.product(ds[x], ds[y], op)
		if err != nil {
			return nil, err
		}
		if decided(d) {
			return d, nil
		}
		ds[x], sups[x] = d, union(sups[x], sups[y])
		ds = slices.Delete(ds, y, y+1)
		sups = slices.Delete(sups, y, y+1)
	}
	return ds[0], nil
}

// product is the minimised product of two automata under op.
func (c *connectives) product(x, y *symbolic.DFA, op func([]bool) bool) (*symbolic.DFA, error) {
	p, err := symbolic.Product(c.b, []*symbolic.DFA{x, y}, op)
	if err != nil {
		return nil, err
	}
	return symbolic.Minimize(c.b, p)
}

// pairCost ranks the pairs of a chain's automata for the next product: the
// logarithm of the bound on the product's states, |A|·|B|, plus one for each
// proposition that only the operand reading fewer propositions lacks.
// Automata over the same propositions constrain each other, so their
// minimised product usually stays far below the bound (a counter's
// constraints on its bits), while a proposition that only one of them reads
// keeps that one's states apart in the product. On the SYNTCOMP
// specifications this order beats both taking the two smallest automata
// first (which multiplies unrelated constraints early: a double counter
// over 27 propositions took 8 s and 1 GB instead of 0.8 s and 125 MB) and
// the formula's own order (5 times slower on random Syft conjunctions).
func pairCost(a, b *symbolic.DFA, sa, sb []int32) float64 {
	added := unionSize(sa, sb) - max(len(sa), len(sb))
	return math.Log2(float64(a.NumStates())) + math.Log2(float64(b.NumStates())) + float64(added)
}

// unionSize is len(union(a, b)), without building the union.
func unionSize(a, b []int32) int {
	n := len(a) + len(b)
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case b[j] < a[i]:
			j++
		default:
			n--
			i, j = i+1, j+1
		}
	}
	return n
}

// union merges two sorted lists of proposition indices.
func union(a, b []int32) []int32 {
	out := make([]int32, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		switch {
		case a[0] < b[0]:
			out, a = append(out, a[0]), a[1:]
		case b[0] < a[0]:
			out, b = append(out, b[0]), b[1:]
		default:
			out, a, b = append(out, a[0]), a[1:], b[1:]
		}
	}
	return append(append(out, a...), b...)
}
