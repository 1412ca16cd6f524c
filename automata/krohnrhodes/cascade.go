package krohnrhodes

import (
	"strings"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
)

// Cascade is a cascade product B_1 ∘ B_2 ∘ … ∘ B_k of identity–reset automata
// with a homomorphism onto a DFA (paper, Thm B.5 and Lemmas B.6–B.8). Level d
// reads the input symbol and the current states of levels 1..d-1; on each
// such input it either keeps its state or resets to a fixed state.
//
// The levels' resets are kept in context form (Rules): the levels above
// enter only through the tile chain they determine, and a rule names one
// edge of that chain (see ChainEdge and context.go). This is polynomial in
// the number of holonomy sets. The reachable global states (tuples of level
// states) can be exponentially many; they are enumerated only on demand
// (Global, Verify, Format), within the budget's cascade-bytes.
type Cascade struct {
	Automaton *automata.DFA   // the DFA the cascade emulates
	Levels    []*CascadeLevel // Levels[0] is level 1, which reads only the input
	Start     []int           // the start state: one level state per level
	Sets      [][]int         // the holonomy sets (sorted DFA states) that Edges refer to; Sets[0] is every state
	Edges     []ChainEdge     // the chain edges of the reachable global states: the homomorphism, one tile at a time
	h         *holonomy
	cx        *contexts
	global    *GlobalStates // the reachable global states, once enumerated
}

// CascadeLevel is one identity–reset automaton of a cascade, in context
// form: the inputs in Keep leave the level unchanged, those of Rules reset
// it to their targets, and every other input resets it to state 0.
type CascadeLevel struct {
	States  []string      // state names (the tiles they stand for)
	Initial int           // the state at the start
	Keep    []CascadeKeep // the identity inputs
	Rules   []CascadeRule // the inputs that reset the level to a state other than 0
}

// CascadeReset says that level d is reset to Target when it reads Symbol
// while levels 1..d-1 are in states Above: a reset in the explicit form of the
// paper's Figure, listed by GlobalStates.
type CascadeReset struct {
	Above  []int
	Symbol int
	Target int
}

// GlobalStates lists the reachable global states of a cascade, with their
// transitions and the homomorphism, and the levels' resets in explicit form
// (one per reachable tuple of the levels above and symbol).
type GlobalStates struct {
	States [][]int          // reachable global states: one level-state index per level
	Start  int              // index in States of the start state
	Delta  [][]int          // Delta[g][a]: the successor of global state g on symbol a (-1: not enumerated)
	Phi    []int            // the homomorphism: Phi[g] is a state of the automaton
	Resets [][]CascadeReset // Resets[d]: the resets of level d+1 in explicit form
	index  map[string]int
	// trie numbers the reachable prefixes of global states: trie[l] maps
	// (id of a prefix of length l, state of level l+1) to the id of the
	// prefix of length l+1; the empty prefix has id 0.
	trie  []map[[2]int]int
	reset []map[[2]int]int // (prefix id of Above, Symbol) → index in Resets[d]
}

// DecomposeCheck is the number of reachable global states, in breadth-first
// order from the start, on which Decompose checks the cascade by emulation
// (within the budget's cascade-bytes). Verify checks all of them.
const DecomposeCheck = 1 << 12

// Decompose returns the holonomy decomposition of d into a cascade of
// identity–reset automata. The levels and their resets are built in context
// form, without enumerating global states; the cascade is then checked by
// emulation on its first reachable global states (DecomposeCheck; Verify
// checks them all). d must be counter-free (its transition monoid aperiodic;
// minimise first to decompose a star-free language whose given DFA has
// counters): otherwise Decompose returns a *NotCounterFreeError with the
// witness. The image orbit runs under the budget's orbit-bytes; the
// holonomy sets, tiles, rules and the checked global states under one meter
// of cascade-bytes; the work under b.Step. Past a limit, or when the
// budget's context is cancelled, it stops with the budget's error.
func Decompose(b *budget.Budget, d *automata.DFA) (*Cascade, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	meter := b.Meter(CascadeBytes, "the Krohn–Rhodes cascade")
	h, err := newHolonomy(b, meter, d)
	if err != nil {
		return nil, err
	}
	cx, err := newContexts(b, meter, h)
	if err != nil {
		return nil, err
	}
	c := &Cascade{Automaton: d, Start: cx.start, Sets: h.sets, Edges: cx.edges, h: h, cx: cx}
	for l := range h.levels {
		lv := &CascadeLevel{Initial: cx.start[l], Keep: cx.keep[l], Rules: cx.rules[l]}
		several := repsAtLevel(h, l) > 1
		for _, ls := range h.levelStates[l] {
			r, k := ls[0], ls[1]
			name := h.setName(h.tiles[r][k])
			if several {
				name += "⊂" + h.setName(r)
			}
			lv.States = append(lv.States, name)
		}
		c.Levels = append(c.Levels, lv)
	}
	g, complete, err := c.enumerate(b, meter, DecomposeCheck, false)
	if err != nil {
		return nil, err
	}
	if err := c.check(b, g, complete); err != nil {
		return nil, err
	}
	return c, nil
}

func repsAtLevel(h *holonomy, l int) int {
	reps := map[int]bool{}
	for _, ls := range h.levelStates[l] {
		reps[ls[0]] = true
	}
	return len(reps)
}

func (h *holonomy) setName(p int) string {
	names := make([]string, len(h.sets[p]))
	for i, x := range h.sets[p] {
		names[i] = automata.QuoteState(h.d.States[x])
	}
	return "{" + strings.Join(names, ",") + "}"
}

// StepLevels applies symbol a to a tuple of level states using only the
// level rules: level d is reset if one of its rules fires (the symbol is
// the rule's and the chain of the levels above passes the rule's edge) and
// unchanged otherwise. This is the cascade product itself. It returns nil
// for a tuple whose chain is not one of the reachable global states'.
func (c *Cascade) StepLevels(tuple []int, a int) []int {
	next, _, ok := c.cx.step(tuple, a)
	if !ok {
		return nil
	}
	return next
}

// Map returns the DFA state of a tuple of level states, read off its tile
// chain (the homomorphism); false when the chain is not one of the
// reachable global states'.
func (c *Cascade) Map(tuple []int) (int, bool) {
	if len(tuple) != len(c.Levels) {
		return 0, false
	}
	return c.cx.state(tuple)
}

// Accepts runs the cascade product on w from the level rules alone and
// reports whether the image of the final state under the homomorphism
// accepts.
func (c *Cascade) Accepts(w []int) bool {
	tuple := c.Start
	for _, a := range w {
		next, _, ok := c.cx.step(tuple, a)
		if !ok {
			return false
		}
		tuple = next
	}
	q, ok := c.Map(tuple)
	return ok && c.Automaton.Accept[q]
}

// Size returns the total number of level states, the sum of the levels'
// sizes.
func (c *Cascade) Size() int {
	n := 0
	for _, lv := range c.Levels {
		n += len(lv.States)
	}
	return n
}

// Contexts returns the number of holonomy sets that the chains of reachable
// global states can pass, the whole state set included.
func (c *Cascade) Contexts() int {
	seen := map[int]bool{0: true}
	for _, e := range c.Edges {
		seen[e.Child] = true
	}
	return len(seen)
}
