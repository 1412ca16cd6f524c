package count

import (
	"fmt"
	"math/big"
	"math/rand/v2"

	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/bdd"
	"github.com/brasp-dev/brasp/budget"
)

// MaxSampleProps is the most propositions a symbolic DFA may have for its
// traces to be drawn or listed: a valuation is one 64-bit word, and the
// weights of a diagram's branches (up to 2^k) are machine words. Counting
// has no such bound.
const MaxSampleProps = 62

// guardNodeBytes is what one node of a guard's sampling diagram holds.
const guardNodeBytes = 4*4 + 2*8

// guard draws a valuation uniformly among those leading from one state to
// one successor: a copy of the state's transition diagram restricted to
// the paths reaching that successor, each branch weighted by the number of
// valuations through it.
type guard struct {
	nodes []gnode
	// root is the index of the root node, or -1 when every valuation
	// leads to the successor; rootLevel its variable (k for -1).
	root      int32
	rootLevel int32
}

// gnode is one diagram node of a guard: it tests variable level; lo and hi
// are its children's indices (-1: the successor's leaf), loLevel and
// hiLevel their variables (k for the leaf), wl and wh the number of
// valuations of the variables from level on through each child.
type gnode struct {
	level, lo, hi    int32
	loLevel, hiLevel int32
	wl, wh           uint64
}

// pick draws the valuation.
func (g *guard) pick(rng *rand.Rand) uint64 {
	v := freeBits(rng, 0, g.rootLevel)
	for i := g.root; i >= 0; {
		n := &g.nodes[i]
		if rng.Uint64N(n.wl+n.wh) < n.wl {
			v |= freeBits(rng, n.level+1, n.loLevel)
			i = n.lo
		} else {
			v |= 1<<n.level | freeBits(rng, n.level+1, n.hiLevel)
			i = n.hi
		}
	}
	return v
}

// freeBits is a uniform random value of the bits from..to-1, which a path
// of the diagram skips: the valuation is free there.
func freeBits(rng *rand.Rand, from, to int32) uint64 {
	if to <= from {
		return 0
	}
	return rng.Uint64() >> (64 - (to - from)) << from
}

// FromSymbolic reads a symbolic DFA over propositions: its letters are
// the 2^k valuations, and the weight of an edge the number of valuations
// of its guard, counted on the state's diagram (each node: the valuations
// through its low child plus those through its high child, a variable the
// path skips doubling them). Beyond MaxSampleProps propositions the
// automaton counts but does not draw words.
func FromSymbolic(b *budget.Budget, d *symbolic.DFA) (*Automaton, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	k := len(d.Props)
	m := d.M
	a := &Automaton{start: d.Start, accept: append([]bool(nil), d.Accept...), out: make([][]edge, d.NumStates()), props: k}
	a.letters.Lsh(big.NewInt(1), uint(k))
	if k > MaxSampleProps {
		a.canSample = fmt.Errorf("%d propositions: traces are drawn over at most %d propositions (counting has no such bound)", k, MaxSampleProps)
	} else {
		a.step = func(q int, v uint64) int { return d.Step(q, func(i int) bool { return v>>i&1 == 1 }) }
	}
	meter := b.Meter(TableBytes, "the guards of a symbolic automaton")
	level := func(x bdd.Node) int32 { return int32(min(m.Level(x), k)) }
	for q := range d.NumStates() {
		root := d.Next[q]
		// The states reached, in order of first reach (low children
		// first), each once (two leaves may be one state).
		seen := map[int]bool{}
		for _, to := range d.Successors(q) {
			if seen[to] {
				continue
			}
			seen[to] = true
			// count[x]: the valuations of the variables from x's level on
			// that lead from x to the successor to.
			count := map[bdd.Node]*big.Int{}
			var walk func(x bdd.Node) *big.Int
			walk = func(x bdd.Node) *big.Int {
				if c, ok := count[x]; ok {
					return c
				}
				c := new(big.Int)
				if level(x) == int32(k) {
					if d.Leaf[x] == to {
						c.SetInt64(1)
					}
				} else {
					l := level(x)
					lo, hi := m.Low(x), m.High(x)
					c.Lsh(walk(lo), uint(level(lo)-l-1))
					c.Add(c, new(big.Int).Lsh(walk(hi), uint(level(hi)-l-1)))
				}
				count[x] = c
				return c
			}
			e := edge{to: to}
			e.weight.Lsh(walk(root), uint(level(root)))
			if e.weight.IsUint64() {
				e.small = e.weight.Uint64()
			}
			if err := b.Step(int64(len(count))); err != nil {
				return nil, err
			}
			if k <= MaxSampleProps {
				g, err := guardOf(meter, m, k, root, count)
				if err != nil {
					return nil, err
				}
				e.guard = g
			}
			a.out[q] = append(a.out[q], e)
		}
	}
	return a, nil
}

// guardOf lays out the nodes of the diagram from root with a non-zero
// count for the sampler, weights in machine words (k ≤ MaxSampleProps).
func guardOf(meter *budget.Meter, m *bdd.Manager, k int, root bdd.Node, count map[bdd.Node]*big.Int) (*guard, error) {
	level := func(x bdd.Node) int32 { return int32(min(m.Level(x), k)) }
	g := &guard{root: -1, rootLevel: level(root)}
	index := map[bdd.Node]int32{}
	var lay func(x bdd.Node) int32
	lay = func(x bdd.Node) int32 {
		if level(x) == int32(k) {
			return -1
		}
		if i, ok := index[x]; ok {
			return i
		}
		i := int32(len(g.nodes))
		index[x] = i
		l := level(x)
		g.nodes = append(g.nodes, gnode{level: l})
		lo, hi := m.Low(x), m.High(x)
		n := gnode{level: l, lo: -1, hi: -1, loLevel: level(lo), hiLevel: level(hi)}
		n.wl = count[lo].Uint64() << (n.loLevel - l - 1)
		n.wh = count[hi].Uint64() << (n.hiLevel - l - 1)
		if n.wl != 0 {
			n.lo = lay(lo)
		}
		if n.wh != 0 {
			n.hi = lay(hi)
		}
		g.nodes[i] = n
		return i
	}
	g.root = lay(root)
	return g, meter.Add(int64(len(g.nodes)) * guardNodeBytes)
}
