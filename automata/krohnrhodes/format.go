package krohnrhodes

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
)

// This file writes a cascade for people (Format, String).

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
		c.writeHeading(out, fmt.Sprintf("%d reachable global states", len(g.States)))
	case errors.As(err, &le) && le.Limit == CascadeBytes:
		c.writeHeading(out, fmt.Sprintf("global states not listed: %v; levels in context form", err))
	default:
		return err
	}
	for l, lv := range c.Levels {
		c.writeLevel(out, l)
		if g != nil {
			for _, r := range g.Resets[l] {
				c.writeReset(out, l, r.Target, r.Symbol, r.Above)
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

// writeHeading writes the first line, which says how the global states
// are given.
func (c *Cascade) writeHeading(out *lineWriter, globals string) {
	out.printf("cascade of %d identity-reset levels emulating a %d-state DFA (%s)\n",
		len(c.Levels), c.Automaton.NumStates(), globals)
}

// writeLevel writes the heading of level l and its states.
func (c *Cascade) writeLevel(out *lineWriter, l int) {
	lv := c.Levels[l]
	out.printf("level %d: %d states\n", l+1, len(lv.States))
	for s, name := range lv.States {
		mark := ""
		if s == lv.Initial {
			mark = " (initial)"
		}
		out.printf("  %s = %s%s\n", c.levelStateName(l, s), name, mark)
	}
}

// writeReset writes a reset of level l to target on symbol a when the
// levels above are in the states above (the explicit form).
func (c *Cascade) writeReset(out *lineWriter, l, target, a int, above []int) {
	when := ""
	if l > 0 {
		when = " when levels above are " + c.tupleName(above)
	}
	out.printf("  reset to %s on %s%s\n", c.levelStateName(l, target), automata.QuoteState(c.Automaton.Alphabet[a]), when)
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
