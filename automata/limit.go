package automata

import "github.com/brasp-dev/brasp/budget"

// The limits of the constructions of this package that can grow
// exponentially in the number of states. Each is measured in bytes, charged
// as the construction allocates (a faithful estimate of what it keeps: an
// int costs 8 bytes, a map key 4 bytes per state plus mapEntryBytes), so that
// a limit bounds memory whatever the shape of the automaton. They stop the
// construction with a *budget.Error naming the limit; the CLI raises them
// with --limit NAME=N.
var (
	SubsetBytes = budget.Define("subset-bytes", 256<<20, "bytes",
		"memory of the subset construction NFA → DFA (a bit set, a key and a row per subset)")
	OrbitBytes = budget.Define("orbit-bytes", 256<<20, "bytes",
		"memory of the image orbit X·w of the star-free test and Krohn–Rhodes (per image: its states, key, row, and two n-state transformations)")
	MonoidBytes = budget.Define("monoid-bytes", 256<<20, "bytes",
		"memory of a transition monoid or stable semigroup (per element of an n-state DFA: 12·n bytes and its word)")
	MonoidWork = budget.Define("monoid-work", 1<<31, "state steps",
		"work of the stable semigroup of the AC0 test (compositions × states); past it AC0 is reported unknown")
)

// Byte estimates shared by the constructions' meters.
const (
	intBytes      = 8  // an int or a slice element of []int
	keyBytes      = 4  // one state in a map key (transform.Key)
	sliceBytes    = 24 // a slice header
	mapEntryBytes = 48 // a map entry's overhead beyond its key's bytes
)
