package ltlf

import (
	"fmt"
	"strings"
)

// Step is the set of propositions true at one step of a trace, a bit set
// over proposition indices.
type Step []uint64

// Has reports whether proposition i holds.
func (s Step) Has(i int) bool { return i/64 < len(s) && s[i/64]>>(i%64)&1 == 1 }

// With returns s with proposition i added (s may be reused).
func (s Step) With(i int) Step {
	for len(s) <= i/64 {
		s = append(s, 0)
	}
	s[i/64] |= 1 << (i % 64)
	return s
}

// Trace is a finite sequence of steps. LTLf formulas are read on non-empty
// traces.
type Trace []Step

// ParseTrace reads a trace written as steps separated by ';', each step
// the comma-separated propositions true in it: "a,b;;c" is the three steps
// {a,b}, {}, {c}. A step may be written in braces ("{a,b};{};{c}"), and
// "{}" alone is the one-step trace where nothing holds; the empty string is
// refused, since LTLf traces are non-empty. Every name must be one of
// props.
func ParseTrace(props []string, s string) (Trace, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("empty trace: LTLf traces have at least one step (write {} for one step where nothing holds)")
	}
	index := make(map[string]int, len(props))
	for i, p := range props {
		index[p] = i
	}
	var t Trace
	for k, part := range strings.Split(s, ";") {
		part = strings.TrimSpace(part)
		if strings.HasPrefix(part, "{") && strings.HasSuffix(part, "}") {
			part = strings.TrimSpace(part[1 : len(part)-1])
		}
		var step Step
		if part != "" {
			for _, name := range strings.Split(part, ",") {
				name = strings.TrimSpace(name)
				if len(name) >= 2 && name[0] == '"' && name[len(name)-1] == '"' {
					name = name[1 : len(name)-1]
				}
				i, ok := index[name]
				if !ok {
					if name == "" {
						return nil, fmt.Errorf("step %d: empty proposition name", k+1)
					}
					return nil, fmt.Errorf("step %d: %q is not a proposition of the formula (%s)", k+1, name,
						strings.Join(props, " "))
				}
				step = step.With(i)
			}
		}
		t = append(t, step)
	}
	return t, nil
}

// FormatTrace writes t in the syntax ParseTrace reads, naming propositions
// from props.
func FormatTrace(props []string, t Trace) string {
	var b strings.Builder
	if len(t) == 1 && len(stepProps(props, t[0])) == 0 {
		return "{}"
	}
	for k, s := range t {
		if k > 0 {
			b.WriteByte(';')
		}
		for j, p := range stepProps(props, s) {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(p)
		}
	}
	return b.String()
}

func stepProps(props []string, s Step) []string {
	var out []string
	for i, p := range props {
		if s.Has(i) {
			out = append(out, p)
		}
	}
	return out
}
