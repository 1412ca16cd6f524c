package exact

import (
	"fmt"

	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/bdd"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
)

// This file is the bimachine over propositions: the construction of
// ProgramDFA for a program that reads traces of valuations, with the letter
// dimension symbolic. A table's cell (ℓ, r) is a decision diagram over the
// propositions — the vector's value at a position whose prefix leads the
// left machine to ℓ and whose suffix leads the right machine to r, as a
// function of the position's valuation — and each machine state's
// transitions are one diagram whose leaves are the successors (as in
// package automata/symbolic). So k propositions cost diagrams over k
// variables, never the 2^k valuations.

// SymbolicProgramDFA returns the minimal symbolic DFA (over p.Props, in
// that order) of the language of the B-RASP acceptor p over propositions:
// the traces, each step a valuation, that p accepts (the DFA rejects the
// empty trace). It is ProgramDFA's construction with every table cell and
// every transition a decision diagram: a position-wise operation is BDD
// apply on the cells; an attention operation builds the new machine's
// transition diagram of a state (q, φ) by walking together q's diagram and
// the diagrams of the updated summaries (each a function of the valuation
// read, through the other machine's transition diagrams and the cells of
// the score and value), memoised, its leaves the successor states; the
// machines are minimised by Moore refinement on diagrams after each
// attention operation; and the DFA read off the left machine is minimised
// by symbolic.Minimize. Within the budget: the limits of ProgramDFA, and
// bdd-bytes for the diagrams.
func SymbolicProgramDFA(bud *budget.Budget, p *brasp.Program) (*symbolic.DFA, error) {
	if p.Props == nil {
		return nil, fmt.Errorf("the program reads symbols, not propositions (its exact semantics is ProgramDFA)")
	}
	if p.IsTransducer() {
		return nil, ErrTransducer
	}
	props := p.Props
	p, err := prepare(p)
	if err != nil {
		return nil, err
	}
	s, steps, err := newSymMachine(bud, p, len(props))
	if err != nil {
		return nil, err
	}
	out := p.Output.Accept
	if err := runSteps(bud, s, steps, out); err != nil {
		return nil, err
	}
	return s.dfa(props, out)
}

// symMachine is the bimachine over propositions (see bimachine for the
// construction over letters, which this one follows step for step; sides
// is what they share). State q's transitions are the diagram dL[q] (dR[q])
// whose leaves are m.Terminal(successor); a table's cell (ℓ, r) is a
// diagram, the letter being inside it (width 1).
type symMachine struct {
	sides[bdd.Node, bdd.Node]
	m     *bdd.Manager
	k     int // propositions: the variables 0..k-1 of m
	steps []step[bdd.Node]
}

// newSymMachine sets up the initial machines and tables as newBimachine
// does, a proposition vector P_p being the variable p in every cell.
func newSymMachine(bud *budget.Budget, p *brasp.Program, k int) (*symMachine, []stepPlan, error) {
	modL, err := modulus(bud, p)
	if err != nil {
		return nil, nil, err
	}
	m := bdd.New(bud, k)
	s := &symMachine{sides: sides[bdd.Node, bdd.Node]{width: 1, nL: modL + 1, nR: 2, bud: bud}, m: m, k: k}
	// Left state 0: nothing read; state t ≥ 1: t ≡ positions read (mod modL).
	for l := 0; l <= modL; l++ {
		s.dL = append(s.dL, m.Terminal(l%modL+1))
	}
	// Right state 0: nothing read (the last position); 1: otherwise.
	s.dR = []bdd.Node{m.Terminal(1), m.Terminal(1)}
	plans, ntab, err := planSteps(bud, p)
	if err != nil {
		return nil, nil, err
	}
	s.steps = compileSteps(plans, s.compile)
	s.tab = make([][]bdd.Node, ntab)
	for j, v := range p.Vectors {
		if !v.IsInitial() {
			continue
		}
		if v.Kind == brasp.SymbolVector {
			return nil, nil, fmt.Errorf("symbol vector %s in a program over propositions", v.Name)
		}
		tab := make([]bdd.Node, s.nL*s.nR)
		for l := 0; l < s.nL; l++ {
			for r := 0; r < s.nR; r++ {
				var x bdd.Node
				switch {
				case v.Kind == brasp.PropositionVector:
					if v.Prop < 0 || v.Prop >= k {
						return nil, nil, fmt.Errorf("vector %s: proposition %d of %d", v.Name, v.Prop, k)
					}
					x = m.Var(v.Prop)
				case v.Pred.Kind == brasp.First:
					x = boolNode(l == 0)
				case v.Pred.Kind == brasp.Last:
					x = boolNode(r == 0)
				default: // Mod: position l+1 (l ≡ positions read)
					x = boolNode((l+1)%v.Pred.M == v.Pred.R)
				}
				tab[l*s.nR+r] = x
			}
		}
		s.tab[j] = tab
	}
	return s, plans, m.Err()
}

func boolNode(v bool) bdd.Node {
	if v {
		return bdd.True
	}
	return bdd.False
}

// compile turns e into a closure over table indices, as compileExpr does,
// whose Boolean operations are the manager's.
func (s *symMachine) compile(e brasp.Expr, idx map[int]int) cellFn[bdd.Node] {
	m := s.m
	switch e := e.(type) {
	case *brasp.Literal:
		x := boolNode(e.Value)
		return func([][]bdd.Node, int, uint32) bdd.Node { return x }
	case *brasp.Ref:
		k := e.Vec
		if e.Var == brasp.VarI && idx != nil {
			bit := uint32(1) << idx[k]
			return func(_ [][]bdd.Node, _ int, a uint32) bdd.Node { return boolNode(a&bit != 0) }
		}
		return func(t [][]bdd.Node, c int, _ uint32) bdd.Node { return t[k][c] }
	case *brasp.UnaryExpr:
		f := s.compile(e.X, idx)
		return func(t [][]bdd.Node, c int, a uint32) bdd.Node { return m.Not(f(t, c, a)) }
	case *brasp.BinaryExpr:
		f, g := s.compile(e.X, idx), s.compile(e.Y, idx)
		if e.Op == brasp.AND {
			return func(t [][]bdd.Node, c int, a uint32) bdd.Node { return m.And(f(t, c, a), g(t, c, a)) }
		}
		return func(t [][]bdd.Node, c int, a uint32) bdd.Node { return m.Or(f(t, c, a), g(t, c, a)) }
	}
	panic("exact: unknown expression type")
}

// run performs step t: an attention operation refines a machine, a
// position-wise one computes its table cell by cell.
func (s *symMachine) run(t int) error {
	st := s.steps[t]
	if st.att != nil {
		return s.extend(st.att)
	}
	if err := s.positionwise(st.out, st.pw); err != nil {
		return err
	}
	return s.m.Err()
}

// leafState is the state a transition diagram's leaf stands for.
func (s *symMachine) leafState(x bdd.Node) int { return -2 - int(s.m.Low(x)) }

// dfa reads off the language as bimachine.dfa does: the state after a
// non-empty prefix is the left state after it and the output at its last
// position; state 0 is the start. The result is minimised.
func (s *symMachine) dfa(props []string, out int) (*symbolic.DFA, error) {
	m := s.m
	t := s.tab[out]
	n := 1 + 2*s.nL
	d := &symbolic.DFA{Props: props, M: m, Accept: make([]bool, n), Next: make([]bdd.Node, n), Leaf: make(map[bdd.Node]int, n)}
	// Row ℓ: the diagram of δ_L(ℓ, a) and the output at (ℓ, a, r = 0),
	// one code of a leafDiagram.
	ld := newLeafDiagram(m, s.k)
	rows := make([]bdd.Node, s.nL)
	for l := range s.nL {
		ld.reset()
		succ := ld.extend(ld.from(s, s.dL[l], map[bdd.Node]leafRef{}), t[l*s.nR], t[l*s.nR])
		rows[l] = ld.to(succ, map[leafRef]bdd.Node{}, func(e int32) bdd.Node {
			q, code := ld.tuple(e, 1)
			bit := 0
			if code[0] == valTrue {
				bit = 1
			}
			return m.Terminal(1 + 2*q + bit)
		})
	}
	d.Next[0] = rows[0]
	for l := range s.nL {
		for bit := range 2 {
			q := 1 + 2*l + bit
			d.Accept[q] = bit == 1
			d.Next[q] = rows[l]
		}
	}
	for q := range n {
		d.Leaf[m.Terminal(q)] = q
	}
	if err := m.Err(); err != nil {
		return nil, err
	}
	return symbolic.Minimize(s.bud, d)
}

// relabel returns the transition diagram x with each leaf replaced by
// f(the state it stands for), a terminal or a constant, memoised in memo
// (which the caller clears when f changes).
func (s *symMachine) relabel(x bdd.Node, memo *bdd.NodeMap[bdd.Node], f func(q int) bdd.Node) bdd.Node {
	m := s.m
	if m.Level(x) >= s.k {
		return f(s.leafState(x))
	}
	if r, ok := memo.Get(x); ok {
		return r
	}
	r := m.Mk(m.Level(x), s.relabel(m.Low(x), memo, f), s.relabel(m.High(x), memo, f))
	memo.Set(x, r)
	return r
}
