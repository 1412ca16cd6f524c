package krohnrhodes

import (
	"io"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
)

// This file writes a cascade's explicit form without listing its global
// states first (FormatStreamed).

// FormatStreamed writes the cascade to w in the explicit form of the paper's
// Figure, however many global states it has: each level with its states and
// its resets by states of the levels above, then the homomorphism by global
// state. Unlike Format it keeps no list of global states: it walks the
// chain-edge DAG depth first, so its memory is the depth of the cascade, and
// every tuple is printed as it is reached. The tuples it lists are those
// whose tile chain follows the chain edges (every reachable global state is
// one; a few unreachable tuples may be too, as the edges over-approximate
// the reachable chains), each once. Each tuple, reset and line is charged to
// b.Step, so the budget's work limit bounds the listing and a cancelled
// context stops it with the budget's error.
func (c *Cascade) FormatStreamed(b *budget.Budget, w io.Writer) error {
	d := c.Automaton
	out := &lineWriter{w: w, b: b}
	c.writeHeading(out, "global states streamed: every tuple whose chain follows the chain edges")
	tuple := make([]int, len(c.Levels))
	for l := range c.Levels {
		c.writeLevel(out, l)
		// One visit per distinct state of the levels above: the walk stops
		// at the first set at level l or below, and a completion of the
		// prefix to a whole chain gives the tuple the step is taken on (the
		// level's input is the levels above, whatever the completion).
		err := c.walkChains(b, tuple, 0, l, func() error {
			full, ok := c.complete(tuple, l)
			if !ok {
				return nil
			}
			for a := range d.Alphabet {
				next, reset, ok := c.cx.step(full, a)
				if !ok || !reset[l] {
					continue
				}
				c.writeReset(out, l, next[l], a, full[:l])
			}
			return out.err
		})
		if err != nil {
			return err
		}
	}
	out.printf("homomorphism:\n")
	err := c.walkChains(b, tuple, 0, len(c.Levels), func() error {
		q, ok := c.cx.state(tuple)
		if ok {
			out.printf("  %s -> %s\n", c.tupleName(tuple), automata.QuoteState(d.States[q]))
		}
		return out.err
	})
	if err != nil {
		return err
	}
	return out.err
}

// walkChains calls visit once per distinct assignment of the levels above
// level stop that a chain following the chain edges from set p makes, with
// tuple holding it (levels the chain skips are 0, levels at or below stop
// are 0 too). It walks depth first, in order of level state, charging each
// set it passes to b.Step.
func (c *Cascade) walkChains(b *budget.Budget, tuple []int, p, stop int, visit func() error) error {
	if err := b.Step(1); err != nil {
		return err
	}
	h := c.h
	if len(h.sets[p]) <= 1 {
		return visit()
	}
	l := h.depthOf(p) - 1
	if l >= stop {
		return visit()
	}
	for s := range c.Levels[l].States {
		e, ok := c.cx.edgeIndex[[2]int{p, s}]
		if !ok {
			continue
		}
		tuple[l] = s
		err := c.walkChains(b, tuple, c.cx.edges[e].Child, stop, visit)
		tuple[l] = 0
		if err != nil {
			return err
		}
	}
	return nil
}

// complete returns a copy of tuple (whose levels at or below stop are 0)
// with those levels set along the first chain edges, so that the whole
// chain follows the edges; false if it cannot be completed.
func (c *Cascade) complete(tuple []int, stop int) ([]int, bool) {
	full := append([]int(nil), tuple...)
	h := c.h
	p := 0
	for len(h.sets[p]) > 1 {
		l := h.depthOf(p) - 1
		if l < stop {
			e, ok := c.cx.edgeIndex[[2]int{p, full[l]}]
			if !ok {
				return nil, false
			}
			p = c.cx.edges[e].Child
			continue
		}
		found := false
		for s := range c.Levels[l].States {
			if e, ok := c.cx.edgeIndex[[2]int{p, s}]; ok {
				full[l], p, found = s, c.cx.edges[e].Child, true
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	return full, true
}
