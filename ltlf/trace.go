package ltlf

import (
	"bytes"
	"errors"
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
// props; a name may be written in double quotes (without escapes, as in
// the formula), inside which ';' and ',' are part of the name.
func ParseTrace(props []string, s string) (Trace, error) {
	var t Trace
	err := scanSteps([]byte(s), props, propIndex(props), func(step Step) bool {
		t = append(t, append(Step(nil), step...))
		return true
	})
	return t, err
}

// propIndex maps each proposition to its index.
func propIndex(props []string) map[string]int {
	index := make(map[string]int, len(props))
	for i, p := range props {
		index[p] = i
	}
	return index
}

// errStopped is scanSteps' error when its callback stopped it.
var errStopped = errors.New("stopped")

// scanSteps is the one reader of a trace written in s (see ParseTrace): it
// calls f with every step in order (the step is reused between calls) and
// returns the first problem, or errStopped when f returns false.
func scanSteps(s []byte, props []string, index map[string]int, f func(Step) bool) error {
	if len(bytes.TrimSpace(s)) == 0 {
		return fmt.Errorf("empty trace: LTLf traces have at least one step (write {} for one step where nothing holds)")
	}
	var step Step
	for k := 1; ; k++ {
		end, err := cutUnquoted(s, ';', k)
		if err != nil {
			return err
		}
		part := bytes.TrimSpace(s[:end])
		if len(part) >= 2 && part[0] == '{' && part[len(part)-1] == '}' {
			part = bytes.TrimSpace(part[1 : len(part)-1])
		}
		clear(step)
		step = step[:0]
		for len(part) > 0 {
			comma, _ := cutUnquoted(part, ',', k) // (quotes balance: checked above)
			name := bytes.TrimSpace(part[:comma])
			if len(name) >= 2 && name[0] == '"' && name[len(name)-1] == '"' {
				name = name[1 : len(name)-1]
			}
			i, ok := index[string(name)]
			if !ok {
				if len(name) == 0 {
					return fmt.Errorf("step %d: empty proposition name", k)
				}
				return fmt.Errorf("step %d: %q is not a proposition of the formula (%s)", k, name, strings.Join(props, " "))
			}
			step = step.With(i)
			if comma == len(part) {
				break
			}
			part = part[comma+1:]
			if len(bytes.TrimSpace(part)) == 0 {
				return fmt.Errorf("step %d: empty proposition name", k)
			}
		}
		if !f(step) {
			return errStopped
		}
		if end == len(s) {
			return nil
		}
		s = s[end+1:]
	}
}

// cutUnquoted is the index of the first sep outside double quotes in s, or
// len(s); an unclosed quote is an error of step k.
func cutUnquoted(s []byte, sep byte, k int) (int, error) {
	quoted := false
	for i, c := range s {
		switch {
		case c == '"':
			quoted = !quoted
		case c == sep && !quoted:
			return i, nil
		}
	}
	if quoted {
		return 0, fmt.Errorf("step %d: unclosed quote", k)
	}
	return len(s), nil
}

// FormatTrace writes t in the syntax ParseTrace reads, naming propositions
// from props as the formula's printer does (QuoteProp: bare when an
// identifier, else in double quotes), so a printed trace reads back as the
// same trace.
func FormatTrace(props []string, t Trace) string {
	if len(t) == 1 && len(stepProps(props, t[0])) == 0 {
		return "{}"
	}
	var b strings.Builder
	for k, s := range t {
		if k > 0 {
			b.WriteByte(';')
		}
		for j, p := range stepProps(props, s) {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(QuoteProp(p))
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
