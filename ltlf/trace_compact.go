package ltlf

import "errors"

// CompactTrace is a trace stored a byte per step (two bytes past 256
// distinct steps): the trace's distinct steps, and at each step the index
// of its set among them. A long trace then costs a byte or two per step
// instead of a bit set per step.
type CompactTrace struct {
	// Steps are the distinct steps, in order of first occurrence.
	Steps []Step
	// Narrow (at most 256 distinct steps) or Wide (more) holds the index
	// into Steps of every step of the trace; the other is nil.
	Narrow []byte
	Wide   []uint16
}

// Len returns the number of steps.
func (t *CompactTrace) Len() int { return len(t.Narrow) + len(t.Wide) }

// index is the index in Steps of step i.
func (t *CompactTrace) index(i int) int {
	if t.Narrow != nil {
		return int(t.Narrow[i])
	}
	return int(t.Wide[i])
}

// At is step i.
func (t *CompactTrace) At(i int) Step { return t.Steps[t.index(i)] }

// ErrTooManySteps is ParseTraceCompact's error for a trace of more than
// 65536 distinct steps: use ParseTrace.
var ErrTooManySteps = errors.New("more than 65536 distinct steps: their indices do not fit two bytes")

// ParseTraceCompact reads a trace as ParseTrace does (same syntax, same
// errors) and stores it compactly. It reads s twice, numbering the
// distinct steps and counting, then storing each step's number, so that
// no slice per step is ever held.
func ParseTraceCompact(props []string, s []byte) (*CompactTrace, error) {
	index := propIndex(props)
	t := &CompactTrace{}
	ids := stepIDs{wide: map[string]int{}, narrow: map[uint64]int{}}
	n := 0
	err := scanSteps(s, props, index, func(step Step) bool {
		if _, seen := ids.find(step); !seen {
			if len(t.Steps) == 1<<16 {
				return false
			}
			ids.add(step, len(t.Steps))
			t.Steps = append(t.Steps, append(Step(nil), step...))
		}
		n++
		return true
	})
	if err == errStopped {
		return nil, ErrTooManySteps
	}
	if err != nil {
		return nil, err
	}
	if len(t.Steps) <= 1<<8 {
		t.Narrow = make([]byte, 0, n)
	} else {
		t.Wide = make([]uint16, 0, n)
	}
	scanSteps(s, props, index, func(step Step) bool {
		k, _ := ids.find(step)
		if t.Narrow != nil {
			t.Narrow = append(t.Narrow, byte(k))
		} else {
			t.Wide = append(t.Wide, uint16(k))
		}
		return true
	})
	return t, nil
}

// stepIDs numbers distinct steps: by their one word when they name only
// the first 64 propositions (no allocation per step), else by stepKey.
type stepIDs struct {
	narrow map[uint64]int
	wide   map[string]int
}

// trim is s without its trailing zero words.
func trim(s Step) Step {
	for len(s) > 0 && s[len(s)-1] == 0 {
		s = s[:len(s)-1]
	}
	return s
}

func (m stepIDs) find(s Step) (int, bool) {
	s = trim(s)
	if len(s) <= 1 {
		var w uint64
		if len(s) == 1 {
			w = s[0]
		}
		k, ok := m.narrow[w]
		return k, ok
	}
	k, ok := m.wide[stepKey(s)]
	return k, ok
}

func (m stepIDs) add(s Step, k int) {
	s = trim(s)
	if len(s) <= 1 {
		var w uint64
		if len(s) == 1 {
			w = s[0]
		}
		m.narrow[w] = k
		return
	}
	m.wide[stepKey(s)] = k
}

// stepKey is a map key of a step's set.
func stepKey(s Step) string {
	for len(s) > 0 && s[len(s)-1] == 0 {
		s = s[:len(s)-1]
	}
	b := make([]byte, 0, 8*len(s))
	for _, w := range s {
		for k := range 8 {
			b = append(b, byte(w>>(8*k)))
		}
	}
	return string(b)
}
