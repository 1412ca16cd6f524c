package automata

import "fmt"

// LimitError reports that a construction stopped because it would exceed a
// configured size limit. Name is the limit's name as the user can set it.
type LimitError struct {
	Name  string // the limit, e.g. "max-states"
	Limit int    // its value
	What  string // what was being built, e.g. "subset construction"
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("%s exceeds the limit %s=%d", e.What, e.Name, e.Limit)
}

// DefaultMaxCascade is the default limit on the number of reachable states of
// a Krohn–Rhodes cascade.
const DefaultMaxCascade = 1 << 20
