package krohnrhodes

import (
	"fmt"

	"github.com/brasp-dev/brasp/budget"
)

// Contexts: the cascade's level transitions without global states.
//
// A reachable global state of the holonomy cascade stands for a tile chain
// X = P_1 ⊃ P_2 ⊃ … ⊃ P_m = {x} (holonomy.decode): level depth(P_k) holds
// the tile P_(k+1) of P_k, levels that no P_k sits at hold 0. Call the sets
// P_k the contexts of the global state and the consecutive pairs
// (P_k, P_(k+1)) its chain edges. Whether the chain passes a set or an edge
// is a Boolean function of the levels above it (Lemma B.7's input to the
// next level, without listing the tuples).
//
// Reading a letter a maps the chain to the targets T_k = P_k·a, a descending
// sequence, and the new chain is the dominating chain through them: from X it
// walks down tile by tile (holonomy.toward) to T_1, then to the next distinct
// target, and so on (holonomy.step). Consider level l, of height
// H = levels − l + 1 (sets strictly inside another have smaller height, so
// heights decrease along chains and targets):
//
//   - the level keeps its state exactly when the old chain has a set P of
//     height H whose image P·a has height H too (same class: the identity
//     case of step, the holonomy group being trivial);
//   - otherwise let k be the first index with height(T_k) < H. The new chain's
//     set of height H, if any, lies on the walk from T_(k−1) (X when k = 1) down
//     to T_k, so the level is reset to the coordinate of that set, or to 0
//     when the walk skips height H (the level leaves the chain; step resets
//     it to 0). Here height(P_(k−1)) > H, so the edge (P_(k−1), P_k) lies
//     above level l, and it is the only edge of the chain with
//     height(P·a) ≥ H > height(P'·a).
//
// So each level is an identity–reset automaton whose input (the symbol and
// the levels above) is kept when "the symbol is a and the chain passes P"
// for one of its keep pairs (P, a), is reset to a target s ≠ 0 when "the
// symbol is a and the chain passes the edge e" for one of its rules (or just
// "the symbol is a", when height(X·a) < H), and is reset to 0 otherwise. The
// numbers of sets and edges are polynomial in the number of holonomy sets,
// whatever the number of global states. Verify checks these rules against
// holonomy.step on the reachable global states.

// ChainEdge is one step of a tile chain: a global state whose chain passes
// the set Parent and whose level Level (0-based, the level of Parent) is in
// state Value continues the chain with the set Child, a tile of Parent. Sets
// are indices into Cascade.Sets; set 0 is the whole state set. The edges
// form a DAG whose sinks are singletons: the homomorphism onto the DFA, read
// one tile at a time.
type ChainEdge struct {
	Parent, Level, Value, Child int
}

// CascadeRule is one reset of a level in context form: on Symbol, when the
// chain of the levels above passes Edge (an index into Cascade.Edges; -1
// when the rule holds whatever the levels above), the level is reset to
// Target (never 0, the default target).
type CascadeRule struct {
	Symbol, Edge, Target int
}

// CascadeKeep is an identity input of a level in context form: on Symbol,
// when the chain of the levels above passes Set (an index into
// Cascade.Sets, a set of the level's height whose image under Symbol stays
// in its class), the level keeps its state.
type CascadeKeep struct {
	Set, Symbol int
}

// levelRule is a rule as the step function applies it.
type levelRule struct{ level, target int }

// contexts holds the chain edges that can occur in reachable global states
// and the reset rules of every level in context form.
type contexts struct {
	h         *holonomy
	edges     []ChainEdge
	edgeIndex map[[2]int]int // (parent, value) → edge
	pairIndex map[[2]int]int // (parent, child) → edge
	start     []int          // the start tuple
	rules     [][]CascadeRule
	keep      [][]CascadeKeep
	reachZero []bool        // reachZero[d]: some input resets level d to its default state 0
	uncond    [][]levelRule // uncond[a]: levels reset on a (to a state ≠ 0) whatever the levels above
	byEdge    [][]levelRule // byEdge[e*k+a]: levels reset on a (to a state ≠ 0) when the chain passes e
}

// newContexts computes an over-approximation of the chain edges of the
// reachable global states (a fixpoint: the start chain's edges, the walks
// from X to X·a, and for every edge (P, P') and letter a with P·a ≠ P'·a the
// walk from P·a down to P'·a) and the rules of every level. The edges and
// rules are charged to meter, the walks to b.Step.
func newContexts(b *budget.Budget, meter *budget.Meter, h *holonomy) (*contexts, error) {
	k := len(h.d.Alphabet)
	cx := &contexts{h: h, edgeIndex: map[[2]int]int{}, pairIndex: map[[2]int]int{}}
	addEdge := func(p, t int) error {
		if _, ok := cx.pairIndex[[2]int{p, t}]; ok {
			return nil
		}
		d, v, err := h.coordinate(p, t)
		if err != nil {
			return err
		}
		if err := meter.Add(4*intBytes + 2*(2*intBytes+intBytes+mapEntryBytes) + 2*(2*intBytes+2*intBytes+mapEntryBytes)); err != nil {
			return err
		}
		cx.pairIndex[[2]int{p, t}] = len(cx.edges)
		cx.edgeIndex[[2]int{p, v}] = len(cx.edges)
		cx.edges = append(cx.edges, ChainEdge{Parent: p, Level: d, Value: v, Child: t})
		return nil
	}
	addPath := func(q, s int) error {
		for q != s {
			if err := b.Step(int64(len(h.tiles[q]) + 1)); err != nil {
				return err
			}
			t := h.toward(q, s)
			if t < 0 {
				return fmt.Errorf("internal error: no tile on the way to a target")
			}
			if err := addEdge(q, t); err != nil {
				return err
			}
			q = t
		}
		return nil
	}
	start, err := h.initial(h.d.Start)
	if err != nil {
		return nil, err
	}
	cx.start = start
	for p := 0; len(h.sets[p]) > 1; {
		var next int
		for _, t := range h.tiles[p] {
			if h.bits[t].Has(h.d.Start) {
				next = t
				break
			}
		}
		if err := addEdge(p, next); err != nil {
			return nil, err
		}
		p = next
	}
	for a := range k {
		if err := addPath(0, h.imageOf(0, a)); err != nil {
			return nil, err
		}
	}
	for i := 0; i < len(cx.edges); i++ {
		e := cx.edges[i]
		for a := range k {
			if err := addPath(h.imageOf(e.Parent, a), h.imageOf(e.Child, a)); err != nil {
				return nil, err
			}
		}
	}
	if err := cx.computeRules(b, meter); err != nil {
		return nil, err
	}
	cx.computeKeep()
	return cx, nil
}

// target returns the state level d (0-based) is reset to when the new chain
// walks from set q down to set s: the coordinate of the walk's set of the
// level's height; false when the walk skips it (the level leaves the chain
// and keeps its don't-care value).
func (cx *contexts) target(d, q, s int) (int, bool, error) {
	h := cx.h
	H := h.levels - d
	for q != s {
		hq := h.heightOf(q)
		if hq < H {
			break
		}
		t := h.toward(q, s)
		if hq == H {
			_, v, err := h.coordinate(q, t)
			return v, true, err
		}
		q = t
	}
	return 0, false, nil
}

func (cx *contexts) computeRules(b *budget.Budget, meter *budget.Meter) error {
	h := cx.h
	k := len(h.d.Alphabet)
	cx.reachZero = make([]bool, h.levels)
	cx.rules = make([][]CascadeRule, h.levels)
	cx.uncond = make([][]levelRule, k)
	cx.byEdge = make([][]levelRule, len(cx.edges)*k)
	// Levels are numbered from the top: level d (0-based) has height
	// levels − d, so the heights H with lo < H ≤ hi are levels
	// levels−hi … levels−lo−1.
	for a := range k {
		xa := h.imageOf(0, a)
		for d := 0; d < h.levels-h.heightOf(xa); d++ {
			v, ok, err := cx.target(d, 0, xa)
			if err != nil {
				return err
			}
			if !ok || v == 0 {
				cx.reachZero[d] = true
				continue
			}
			cx.rules[d] = append(cx.rules[d], CascadeRule{Symbol: a, Edge: -1, Target: v})
			cx.uncond[a] = append(cx.uncond[a], levelRule{d, v})
		}
	}
	for e, edge := range cx.edges {
		for a := range k {
			pa, ca := h.imageOf(edge.Parent, a), h.imageOf(edge.Child, a)
			if pa == ca {
				continue
			}
			if err := b.Step(int64(h.levels) * int64(h.levels)); err != nil {
				return err
			}
			hi := min(h.heightOf(edge.Parent)-1, h.heightOf(pa))
			lo := h.heightOf(ca)
			for d := h.levels - hi; d < h.levels-lo; d++ {
				v, ok, err := cx.target(d, pa, ca)
				if err != nil {
					return err
				}
				if !ok || v == 0 {
					cx.reachZero[d] = true
					continue
				}
				if err := meter.Add(3*intBytes + 2*intBytes); err != nil {
					return err
				}
				cx.rules[d] = append(cx.rules[d], CascadeRule{Symbol: a, Edge: e, Target: v})
				cx.byEdge[e*k+a] = append(cx.byEdge[e*k+a], levelRule{d, v})
			}
		}
	}
	return nil
}

// keeps reports whether the level of the non-singleton set p keeps its
// state on a when the chain passes p.
func (cx *contexts) keeps(p, a int) bool {
	h := cx.h
	return h.heightOf(h.imageOf(p, a)) == h.heightOf(p)
}

// computeKeep lists the identity inputs of every level: the sets on chains
// (X and the edges' children) with the letters that keep their class.
func (cx *contexts) computeKeep() {
	h := cx.h
	cx.keep = make([][]CascadeKeep, h.levels)
	seen := map[int]bool{}
	add := func(p int) {
		if seen[p] || len(h.sets[p]) < 2 {
			return
		}
		seen[p] = true
		for a := range h.d.Alphabet {
			if cx.keeps(p, a) {
				d := h.depthOf(p) - 1
				cx.keep[d] = append(cx.keep[d], CascadeKeep{Set: p, Symbol: a})
			}
		}
	}
	add(0)
	for _, e := range cx.edges {
		add(e.Child)
	}
}

// chain returns the edges of the tile chain of tuple, or false when the
// tuple's chain leaves the edges of reachable global states.
func (cx *contexts) chain(tuple []int) ([]int, bool) {
	h := cx.h
	var edges []int
	p := 0
	for len(h.sets[p]) > 1 {
		d := h.depthOf(p) - 1
		e, ok := cx.edgeIndex[[2]int{p, tuple[d]}]
		if !ok {
			return nil, false
		}
		edges = append(edges, e)
		p = cx.edges[e].Child
	}
	return edges, true
}

// state returns the DFA state a tuple stands for: the singleton at the end
// of its chain.
func (cx *contexts) state(tuple []int) (int, bool) {
	edges, ok := cx.chain(tuple)
	if !ok {
		return 0, false
	}
	if len(edges) == 0 {
		return cx.h.sets[0][0], true
	}
	return cx.h.sets[cx.edges[edges[len(edges)-1]].Child][0], true
}

// step applies symbol a to tuple with the levels' inputs in context form
// (the cascade product): a level whose set on the chain keeps its class
// keeps its state, every other level is reset, to the target of its rule
// that fires or else to 0. It returns the new tuple and which levels were
// reset.
func (cx *contexts) step(tuple []int, a int) ([]int, []bool, bool) {
	edges, ok := cx.chain(tuple)
	if !ok {
		return nil, nil, false
	}
	k := len(cx.h.d.Alphabet)
	next := make([]int, len(tuple))
	reset := make([]bool, len(tuple))
	for d := range reset {
		reset[d] = true
	}
	keep := func(p int) {
		if len(cx.h.sets[p]) > 1 && cx.keeps(p, a) {
			d := cx.h.depthOf(p) - 1
			reset[d] = false
			next[d] = tuple[d]
		}
	}
	keep(0)
	for _, e := range edges {
		keep(cx.edges[e].Child)
	}
	apply := func(rs []levelRule) {
		for _, r := range rs {
			next[r.level] = r.target
		}
	}
	apply(cx.uncond[a])
	for _, e := range edges {
		apply(cx.byEdge[e*k+a])
	}
	return next, reset, true
}
