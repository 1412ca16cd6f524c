package krohnrhodes

import (
	"fmt"
	"slices"

	"github.com/brasp-dev/brasp/automata/internal/transform"
	"github.com/brasp-dev/brasp/budget"
)

// This file enumerates a cascade's reachable global states and verifies
// the cascade on them (Global, Verify).

// Global enumerates the reachable global states breadth-first from the
// start (once; the result is kept, so a Cascade is not safe for concurrent
// use by Global, Verify and Format; CascadeToBRASP does not call it). The
// states, their transitions and the explicit resets are charged to the
// budget's cascade-bytes: there can be exponentially many. Past it, or when
// the budget's context is cancelled, it stops with the budget's error.
func (c *Cascade) Global(b *budget.Budget) (*GlobalStates, error) {
	if c.global != nil {
		return c.global, nil
	}
	g, _, err := c.enumerate(b, b.Meter(CascadeBytes, "the list of global states of the Krohn–Rhodes cascade"), -1, true)
	if err != nil {
		return nil, err
	}
	c.global = g
	return g, nil
}

// enumerate lists the reachable global states breadth-first, at most limit
// of them (all when limit < 0); complete reports whether that is all of
// them. Successors beyond the limit have Delta -1. With explicit, it also
// lists the levels' resets in explicit form (Resets, for Format), numbering
// the prefixes of the states in a trie to merge equal resets. What it keeps
// is charged to meter, its work to b.Step.
func (c *Cascade) enumerate(b *budget.Budget, meter *budget.Meter, limit int, explicit bool) (*GlobalStates, bool, error) {
	levels := len(c.Levels)
	g := &GlobalStates{index: map[string]int{},
		trie: make([]map[[2]int]int, levels), reset: make([]map[[2]int]int, levels), Resets: make([][]CascadeReset, levels)}
	for l := range levels {
		g.trie[l], g.reset[l] = map[[2]int]int{}, map[[2]int]int{}
	}
	var err error
	k := len(c.Automaton.Alphabet)
	// What one global state costs: its tuple and key, its transitions and
	// its image; the trie entries and resets are charged as they are added.
	perState := int64(levels)*(intBytes+keyBytes) + 2*sliceBytes + mapEntryBytes + int64(k)*intBytes + sliceBytes + intBytes
	if err := meter.Add(perState); err != nil {
		return nil, false, err
	}
	if _, err := g.add(meter, c.Start, explicit); err != nil {
		return nil, false, err
	}
	complete := true
	for i := 0; i < len(g.States); i++ {
		if err := b.Step(int64(k * (levels + 1))); err != nil {
			return nil, false, err
		}
		tuple := g.States[i]
		edges, ok := c.cx.chain(tuple)
		if !ok {
			return nil, false, fmt.Errorf("internal error: a reachable global state leaves the chain edges")
		}
		last := 0
		for _, e := range edges {
			last = c.Edges[e].Child
		}
		g.Phi = append(g.Phi, c.Sets[last][0])
		var ids []int
		if explicit {
			ids = g.prefixIDs(tuple)
		}
		row := make([]int, k)
		for a := range k {
			next, reset, _ := c.cx.step(tuple, a)
			for l := range levels {
				if !explicit {
					break
				}
				if !reset[l] {
					continue
				}
				key := [2]int{ids[l], a}
				if j, ok := g.reset[l][key]; ok {
					if g.Resets[l][j].Target != next[l] {
						return nil, false, fmt.Errorf("internal error: level %d is reset to two states on one input", l+1)
					}
					continue
				}
				if err := meter.Add(int64(l)*intBytes + sliceBytes + 2*intBytes + 3*intBytes + mapEntryBytes); err != nil {
					return nil, false, err
				}
				g.reset[l][key] = len(g.Resets[l])
				g.Resets[l] = append(g.Resets[l], CascadeReset{Above: slices.Clone(tuple[:l]), Symbol: a, Target: next[l]})
			}
			j, ok := g.index[transform.Key(next)]
			if !ok {
				if limit >= 0 && len(g.States) >= limit {
					complete = false
					j = -1
				} else {
					if err := meter.Add(perState); err != nil {
						return nil, false, err
					}
					if j, err = g.add(meter, next, explicit); err != nil {
						return nil, false, err
					}
				}
			}
			row[a] = j
		}
		g.Delta = append(g.Delta, row)
	}
	return g, complete, nil
}

// add adds a global state (charged by the caller) and, with explicit, the
// trie entries of its prefixes (charged to meter here).
func (g *GlobalStates) add(meter *budget.Meter, tuple []int, explicit bool) (int, error) {
	id := 0
	for l, s := range tuple {
		if !explicit {
			break
		}
		next, ok := g.trie[l][[2]int{id, s}]
		if !ok {
			if err := meter.Add(3*intBytes + mapEntryBytes); err != nil {
				return 0, err
			}
			next = len(g.trie[l])
			g.trie[l][[2]int{id, s}] = next
		}
		id = next
	}
	g.index[transform.Key(tuple)] = len(g.States)
	g.States = append(g.States, tuple)
	return len(g.States) - 1, nil
}

// prefixIDs returns the ids of the prefixes of tuple of lengths 0..len(tuple)
// (-1 from the first prefix that is not reachable).
func (g *GlobalStates) prefixIDs(tuple []int) []int {
	ids := make([]int, len(tuple)+1)
	for l, s := range tuple {
		id, ok := -1, false
		if ids[l] >= 0 {
			id, ok = g.trie[l][[2]int{ids[l], s}]
		}
		if !ok {
			id = -1
		}
		ids[l+1] = id
	}
	return ids
}

// Verify checks that the cascade emulates its automaton on all reachable
// global states (Global, within the budget's cascade-bytes): the start
// maps to the DFA's start; on every reachable global state and symbol the
// level rules (StepLevels) reset exactly the levels, to exactly the states,
// that the holonomy decomposition's dominating chain does (holonomy.step),
// and the image of the successor under the homomorphism is the DFA's
// successor of the image (Phi is a homomorphism); each level is an
// identity–reset automaton on the explicit inputs (at most one reset target
// per tuple of the levels above and symbol, checked by Global); and every
// reachable DFA state is an image.
func (c *Cascade) Verify(b *budget.Budget) error {
	g, err := c.Global(b)
	if err != nil {
		return err
	}
	return c.check(b, g, true)
}

// check verifies the states of g as Verify describes; the coverage of the
// DFA's states only when g is complete.
func (c *Cascade) check(b *budget.Budget, g *GlobalStates, complete bool) error {
	d := c.Automaton
	if g.Phi[0] != d.Start {
		return fmt.Errorf("cascade start maps to %s, not the start state", d.States[g.Phi[0]])
	}
	for i, tuple := range g.States {
		if err := b.Step(int64(len(d.Alphabet) * (len(tuple) + 1))); err != nil {
			return err
		}
		for a := range d.Alphabet {
			next, reset, _ := c.cx.step(tuple, a)
			want, wantReset, err := c.h.step(tuple, a)
			if err != nil {
				return err
			}
			if !slices.Equal(next, want) || !slices.Equal(reset, wantReset) {
				return fmt.Errorf("internal error: the level rules disagree with the dominating chain on %v and %s", tuple, d.Alphabet[a])
			}
			q, ok := c.Map(next)
			if !ok || q != d.Delta[g.Phi[i]][a] {
				return fmt.Errorf("not a homomorphism: %v on %s", tuple, d.Alphabet[a])
			}
		}
	}
	if !complete {
		return nil
	}
	seen := make([]bool, d.NumStates())
	for _, q := range g.Phi {
		seen[q] = true
	}
	for q, ok := range d.Reachable() {
		if ok && !seen[q] {
			return fmt.Errorf("reachable state %s is not the image of a cascade state", d.States[q])
		}
	}
	return nil
}
