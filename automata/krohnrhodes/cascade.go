package krohnrhodes

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/internal/transform"
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

// Format writes the cascade to w for people: each level with its states,
// initial state and inputs, then the homomorphism. When the reachable global
// states fit within the budget's cascade-bytes (Global), the level's resets
// are listed in the explicit form of the paper's Figure, by states of the
// levels above (every input not listed leaves the level unchanged), and the
// homomorphism by global state; otherwise the levels are listed in context
// form (kept inputs by chain set, resets by chain edge, every other input
// resetting to state 0) and the homomorphism by its chain edges, which needs
// no global state, and the first line says why. Either way memory stays
// within cascade-bytes: the context form is written line by line as it is
// produced. A cancelled budget stops it with the budget's error.
func (c *Cascade) Format(b *budget.Budget, w io.Writer) error {
	d := c.Automaton
	out := &lineWriter{w: w, b: b}
	g, err := c.Global(b)
	var le *budget.Error
	switch {
	case err == nil:
		out.printf("cascade of %d identity-reset levels emulating a %d-state DFA (%d reachable global states)\n",
			len(c.Levels), d.NumStates(), len(g.States))
	case errors.As(err, &le) && le.Limit == CascadeBytes:
		out.printf("cascade of %d identity-reset levels emulating a %d-state DFA (global states not listed: %v; levels in context form)\n",
			len(c.Levels), d.NumStates(), err)
	default:
		return err
	}
	for l, lv := range c.Levels {
		out.printf("level %d: %d states\n", l+1, len(lv.States))
		for s, name := range lv.States {
			mark := ""
			if s == lv.Initial {
				mark = " (initial)"
			}
			out.printf("  %s = %s%s\n", c.levelStateName(l, s), name, mark)
		}
		if g != nil {
			for _, r := range g.Resets[l] {
				when := ""
				if l > 0 {
					when = " when levels above are " + c.tupleName(r.Above)
				}
				out.printf("  reset to %s on %s%s\n", c.levelStateName(l, r.Target), automata.QuoteState(d.Alphabet[r.Symbol]), when)
			}
			continue
		}
		for _, r := range lv.Keep {
			out.printf("  keep on %s when the chain passes %s\n", automata.QuoteState(d.Alphabet[r.Symbol]), c.h.setName(r.Set))
		}
		for _, r := range lv.Rules {
			when := ""
			if r.Edge >= 0 {
				when = " when the chain passes " + c.edgeName(r.Edge)
			}
			out.printf("  reset to %s on %s%s\n", c.levelStateName(l, r.Target), automata.QuoteState(d.Alphabet[r.Symbol]), when)
		}
		out.printf("  reset to %s on every other input\n", c.levelStateName(l, 0))
	}
	out.printf("homomorphism:\n")
	if g != nil {
		for i, tuple := range g.States {
			out.printf("  %s -> %s\n", c.tupleName(tuple), automata.QuoteState(d.States[g.Phi[i]]))
		}
		return out.err
	}
	out.printf("  the chain starts at %s; a chain edge P --s--> T continues from P to T when level state s holds; a singleton {x} ends it in x\n", c.h.setName(0))
	for e := range c.Edges {
		out.printf("  %s\n", c.edgeName(e))
	}
	return out.err
}

// String returns the cascade as Format writes it under the default budget.
func (c *Cascade) String() string {
	var s strings.Builder
	if err := c.Format(nil, &s); err != nil {
		return "cascade: " + err.Error()
	}
	return s.String()
}

// lineWriter writes formatted lines to w until the first error (of w or of
// the budget, checked once per line).
type lineWriter struct {
	w   io.Writer
	b   *budget.Budget
	err error
}

func (lw *lineWriter) printf(format string, args ...any) {
	if lw.err != nil {
		return
	}
	if lw.err = lw.b.Step(1); lw.err != nil {
		return
	}
	_, lw.err = fmt.Fprintf(lw.w, format, args...)
}

func (c *Cascade) edgeName(e int) string {
	edge := c.Edges[e]
	return c.h.setName(edge.Parent) + " --" + c.levelStateName(edge.Level, edge.Value) + "--> " + c.h.setName(edge.Child)
}

// levelStateName is the short name of state s of level l: the level number
// then a letter-like index, e.g. "1.0".
func (c *Cascade) levelStateName(l, s int) string { return strconv.Itoa(l+1) + "." + strconv.Itoa(s) }

func (c *Cascade) tupleName(tuple []int) string {
	parts := make([]string, len(tuple))
	for l, s := range tuple {
		parts[l] = c.levelStateName(l, s)
	}
	return "(" + strings.Join(parts, ",") + ")"
}
