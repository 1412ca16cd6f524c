package budget

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// A Limit is one named bound on a construction, raisable by the user.
type Limit struct {
	// Name is how users write the limit: --limit NAME=N. Lower case words
	// joined by hyphens, the thing bounded first: "dfa-states",
	// "compile-params", "rational-bits".
	Name string
	// Default is the value in force when the user sets none.
	Default int64
	// Unit says what is counted: "states", "bytes", "steps", "bits", ...
	Unit string
	// Doc is one line for --help and the README.
	Doc string
}

// registry is every defined limit, in the order defined. A program has a
// few dozen, looked up only when --limit is parsed: a slice, not a map,
// whose table every program would build while its packages initialise.
var (
	registryMu sync.Mutex
	registry   []*Limit
)

// lookup finds a defined limit by name; registryMu is held.
func lookup(name string) (*Limit, bool) {
	for _, l := range registry {
		if l.Name == name {
			return l, true
		}
	}
	return nil, false
}

// Define declares a limit. It is meant for package-level variables, next to
// the construction the limit bounds; declaring one name twice panics, since
// two constructions sharing a name by accident would share its setting.
func Define(name string, def int64, unit, doc string) *Limit {
	if !validName(name) {
		panic("budget: invalid limit name " + strconv.Quote(name))
	}
	if def <= 0 {
		panic("budget: limit " + name + " needs a positive default")
	}
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := lookup(name); dup {
		panic("budget: limit defined twice: " + name)
	}
	l := &Limit{Name: name, Default: def, Unit: unit, Doc: doc}
	registry = append(registry, l)
	return l
}

func validName(s string) bool {
	if s == "" || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// Lookup finds a defined limit by name.
func Lookup(name string) (*Limit, bool) {
	registryMu.Lock()
	defer registryMu.Unlock()
	return lookup(name)
}

// All lists every defined limit, sorted by name.
func All() []*Limit {
	registryMu.Lock()
	defer registryMu.Unlock()
	out := append([]*Limit(nil), registry...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Settings are values the user chose for limits, by name.
type Settings map[string]int64

// Set parses one "NAME=N" setting, as written after --limit, and records
// it. N is a positive decimal integer, optionally with a binary suffix K, M
// or G (×2¹⁰, ×2²⁰, ×2³⁰), so byte limits read naturally: rational-bits=64K.
// An unknown name is an error listing the known ones.
func (s Settings) Set(arg string) error {
	name, val, ok := strings.Cut(arg, "=")
	if !ok {
		return fmt.Errorf("--limit %s: want NAME=N (known limits: %s)", arg, names())
	}
	if _, known := Lookup(name); !known {
		return fmt.Errorf("--limit %s: unknown limit %q (known limits: %s)", arg, name, names())
	}
	n, err := ParseAmount(val)
	if err != nil {
		return fmt.Errorf("--limit %s: %v", arg, err)
	}
	s[name] = n
	return nil
}

func names() string {
	var s []string
	for _, l := range All() {
		s = append(s, l.Name)
	}
	return strings.Join(s, ", ")
}

// ParseAmount reads N as --limit writes it: a positive decimal integer,
// optionally with a binary suffix K, M or G, at most 2^62.
func ParseAmount(s string) (int64, error) {
	mult := int64(1)
	digits := s
	switch {
	case strings.HasSuffix(s, "K"):
		mult, digits = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, digits = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "G"):
		mult, digits = 1<<30, strings.TrimSuffix(s, "G")
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(digits, "-") || err == nil && n > (1<<62)/mult {
		return 0, fmt.Errorf("%s is too large: the largest limit is %d (2^62)", s, int64(1)<<62)
	}
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("want a positive integer (with an optional K, M or G suffix), got %q", s)
	}
	return n * mult, nil
}

// ErrLimit matches every *Error under errors.Is.
var ErrLimit = errors.New("limit exceeded")

// ErrStopped matches the errors Step and Meter.Add return when the budget's
// context is done (cancelled or past its deadline).
var ErrStopped = errors.New("stopped")

// Error reports that a construction would exceed a limit. Its message names
// the limit the way the user raises it.
type Error struct {
	Limit *Limit
	Value int64  // the limit in force
	Need  int64  // what the construction asked for, when known (0 otherwise)
	What  string // what was being built: "subset construction", ...
}

func (e *Error) Error() string {
	need := ""
	if e.Need > 0 {
		need = fmt.Sprintf(" (needs %d)", e.Need)
	}
	return fmt.Sprintf("%s exceeds the limit %s=%d %s%s (raise it with --limit %s=N)",
		e.What, e.Limit.Name, e.Value, e.Limit.Unit, need, e.Limit.Name)
}

// Is makes errors.Is(err, ErrLimit) true for an *Error.
func (e *Error) Is(target error) bool { return target == ErrLimit }
