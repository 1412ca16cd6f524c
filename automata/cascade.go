package automata

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Cascade is a cascade product B_1 ∘ B_2 ∘ … ∘ B_k of identity–reset automata
// with a homomorphism onto a DFA (paper, Thm B.5 and Lemmas B.6–B.8). Level d
// reads the input symbol and the current states of levels 1..d-1; on each
// such input it either keeps its state or resets to a fixed state. Only the
// global states reachable from the start are listed.
type Cascade struct {
	Automaton *DFA            // the DFA the cascade emulates
	Levels    []*CascadeLevel // Levels[0] is level 1, which reads only the input
	States    [][]int         // reachable global states: one level-state index per level
	Start     int             // index in States of the start state
	Delta     [][]int         // Delta[g][a]: the successor of global state g on symbol a
	Phi       []int           // the homomorphism: Phi[g] is a state of Automaton
	index     map[string]int
	// trie numbers the reachable prefixes of global states: trie[l] maps
	// (id of a prefix of length l, state of level l+1) to the id of the
	// prefix of length l+1; the empty prefix has id 0.
	trie     []map[[2]int]int
	decode   []decodeEdge // how Phi reads a global state, one tile at a time
	setState map[int]int  // the DFA state of each singleton set reached by decode
}

// decodeEdge is one step of the homomorphism: a global state whose tile
// chain passes through set Parent and whose level Level (0-based) is in state
// Value continues the chain with set Child. Sets are numbered by the
// decomposition; set 0 is the whole state set. The edges form a DAG whose
// sinks are singletons, so Phi needs one test per chain step instead of one
// per global state.
type decodeEdge struct {
	Parent, Level, Value, Child int
}

// CascadeLevel is one identity–reset automaton of a cascade.
type CascadeLevel struct {
	States  []string       // state names (the tiles they stand for)
	Initial int            // the state at the start
	Resets  []CascadeReset // the inputs that reset the level; every other input leaves it unchanged
	reset   map[[2]int]int // (prefix id of Above, Symbol) → index in Resets
}

// CascadeReset says that level d is reset to Target when it reads Symbol
// while levels 1..d-1 are in states Above.
type CascadeReset struct {
	Above  []int
	Symbol int
	Target int
}

// prefixIDs returns the ids of the prefixes of tuple of lengths 0..len(tuple)
// (-1 from the first prefix that is not reachable).
func (c *Cascade) prefixIDs(tuple []int) []int {
	ids := make([]int, len(tuple)+1)
	for l, s := range tuple {
		id, ok := -1, false
		if ids[l] >= 0 {
			id, ok = c.trie[l][[2]int{ids[l], s}]
		}
		if !ok {
			id = -1
		}
		ids[l+1] = id
	}
	return ids
}

// Decompose returns the holonomy decomposition of d into a cascade of
// identity–reset automata, built lazily over the global states reachable from
// the start, and checked with Verify. d must be counter-free (its transition
// monoid aperiodic; minimise first to decompose a star-free language whose
// given DFA has counters): otherwise Decompose returns a *NotCounterFreeError
// with the witness. Limits.MaxImages bounds the image orbit and
// Limits.MaxCascade the number of reachable global states (*LimitError).
func Decompose(d *DFA, limits Limits) (*Cascade, error) {
	limits = limits.withDefaults()
	if err := d.Validate(); err != nil {
		return nil, err
	}
	h, err := newHolonomy(d, limits)
	if err != nil {
		return nil, err
	}
	c := &Cascade{Automaton: d, index: map[string]int{}, setState: map[int]int{}, trie: make([]map[[2]int]int, h.levels)}
	for l := range c.trie {
		c.trie[l] = map[[2]int]int{}
	}
	seenEdge := map[decodeEdge]bool{}
	for l := range h.levels {
		lv := &CascadeLevel{reset: map[[2]int]int{}}
		for _, ls := range h.levelStates[l] {
			r, k := ls[0], ls[1]
			name := h.setName(h.tiles[r][k])
			if repsAtLevel(h, l) > 1 {
				name += "⊂" + h.setName(r)
			}
			lv.States = append(lv.States, name)
		}
		c.Levels = append(c.Levels, lv)
	}
	start, err := h.initial(d.Start)
	if err != nil {
		return nil, err
	}
	for l, lv := range c.Levels {
		lv.Initial = start[l]
	}
	c.add(start)
	k := len(d.Alphabet)
	for g := 0; g < len(c.States); g++ {
		chain, err := h.decode(c.States[g])
		if err != nil {
			return nil, err
		}
		last := chain[len(chain)-1]
		c.Phi = append(c.Phi, h.sets[last][0])
		c.setState[last] = h.sets[last][0]
		for i := 0; i+1 < len(chain); i++ {
			l := h.depthOf(chain[i]) - 1
			e := decodeEdge{Parent: chain[i], Level: l, Value: c.States[g][l], Child: chain[i+1]}
			if !seenEdge[e] {
				seenEdge[e] = true
				c.decode = append(c.decode, e)
			}
		}
		row := make([]int, k)
		ids := c.prefixIDs(c.States[g])
		for a := range k {
			next, reset, err := h.step(c.States[g], a)
			if err != nil {
				return nil, err
			}
			for l, lv := range c.Levels {
				if !reset[l] {
					continue
				}
				key := [2]int{ids[l], a}
				if i, ok := lv.reset[key]; ok {
					if lv.Resets[i].Target != next[l] {
						return nil, fmt.Errorf("internal error: level %d is reset to two states on one input", l+1)
					}
					continue
				}
				lv.reset[key] = len(lv.Resets)
				lv.Resets = append(lv.Resets, CascadeReset{Above: slices.Clone(c.States[g][:l]), Symbol: a, Target: next[l]})
			}
			j, ok := c.index[transformationKey(next)]
			if !ok {
				if len(c.States) >= limits.MaxCascade {
					return nil, &LimitError{Name: "max-cascade", Limit: limits.MaxCascade, What: "Krohn–Rhodes cascade"}
				}
				j = c.add(next)
			}
			row[a] = j
		}
		c.Delta = append(c.Delta, row)
	}
	if err := c.Verify(); err != nil {
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
		names[i] = quoteState(h.d.States[x])
	}
	return "{" + strings.Join(names, ",") + "}"
}

func (c *Cascade) add(tuple []int) int {
	id := 0
	for l, s := range tuple {
		next, ok := c.trie[l][[2]int{id, s}]
		if !ok {
			next = len(c.trie[l])
			c.trie[l][[2]int{id, s}] = next
		}
		id = next
	}
	c.index[transformationKey(tuple)] = len(c.States)
	c.States = append(c.States, tuple)
	return len(c.States) - 1
}

// StepLevels applies symbol a to a tuple of level states using only the
// level tables: level d is reset if (states of levels 1..d-1, a) is one of its
// resets and unchanged otherwise. This is the cascade product itself.
func (c *Cascade) StepLevels(tuple []int, a int) []int {
	next := slices.Clone(tuple)
	ids := c.prefixIDs(tuple)
	for l, lv := range c.Levels {
		if ids[l] < 0 {
			break // an unreachable prefix: no reset is listed below it
		}
		if i, ok := lv.reset[[2]int{ids[l], a}]; ok {
			next[l] = lv.Resets[i].Target
		}
	}
	return next
}

// Map returns the DFA state of a reachable tuple of level states.
func (c *Cascade) Map(tuple []int) (int, bool) {
	g, ok := c.index[transformationKey(tuple)]
	if !ok {
		return 0, false
	}
	return c.Phi[g], true
}

// Accepts runs the cascade product on w from the level tables alone and
// reports whether the image of the final state under the homomorphism
// accepts.
func (c *Cascade) Accepts(w []int) bool {
	tuple := c.States[c.Start]
	for _, a := range w {
		tuple = c.StepLevels(tuple, a)
	}
	q, ok := c.Map(tuple)
	return ok && c.Automaton.Accept[q]
}

// Verify checks that the cascade emulates its automaton: the start maps to
// the DFA's start, and on every reachable global state and symbol the level
// tables (StepLevels) give the listed successor, whose image under Phi is the
// DFA's successor of the image (Phi is a homomorphism), and that each level is
// an identity–reset automaton (at most one reset target per input, which
// StepLevels guarantees by construction).
func (c *Cascade) Verify() error {
	d := c.Automaton
	if c.Phi[c.Start] != d.Start {
		return fmt.Errorf("cascade start maps to %s, not the start state", d.States[c.Phi[c.Start]])
	}
	for g, tuple := range c.States {
		for a := range d.Alphabet {
			next := c.StepLevels(tuple, a)
			j, ok := c.index[transformationKey(next)]
			if !ok || j != c.Delta[g][a] {
				return fmt.Errorf("level tables disagree with the global transition of %v on %s", tuple, d.Alphabet[a])
			}
			if c.Phi[j] != d.Delta[c.Phi[g]][a] {
				return fmt.Errorf("not a homomorphism: %v on %s", tuple, d.Alphabet[a])
			}
		}
	}
	seen := make([]bool, d.NumStates())
	for _, q := range c.Phi {
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

// Format writes the cascade for people: each level with its states, initial
// state and resets (every input not listed leaves the level unchanged), then
// the homomorphism from the reachable global states to the DFA's states.
func (c *Cascade) Format() string {
	d := c.Automaton
	var b strings.Builder
	fmt.Fprintf(&b, "cascade of %d identity-reset levels emulating a %d-state DFA (%d reachable global states)\n",
		len(c.Levels), d.NumStates(), len(c.States))
	for l, lv := range c.Levels {
		fmt.Fprintf(&b, "level %d: %d states\n", l+1, len(lv.States))
		for s, name := range lv.States {
			mark := ""
			if s == lv.Initial {
				mark = " (initial)"
			}
			fmt.Fprintf(&b, "  %s = %s%s\n", c.levelStateName(l, s), name, mark)
		}
		for _, r := range lv.Resets {
			fmt.Fprintf(&b, "  reset to %s on %s", c.levelStateName(l, r.Target), quoteState(d.Alphabet[r.Symbol]))
			if l > 0 {
				b.WriteString(" when levels above are " + c.tupleName(r.Above))
			}
			b.WriteByte('\n')
		}
	}
	b.WriteString("homomorphism:\n")
	for g, tuple := range c.States {
		fmt.Fprintf(&b, "  %s -> %s\n", c.tupleName(tuple), quoteState(d.States[c.Phi[g]]))
	}
	return b.String()
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
