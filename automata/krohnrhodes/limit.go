package krohnrhodes

import "github.com/brasp-dev/brasp/budget"

// CascadeBytes bounds the memory of a decomposition: the holonomy sets and
// their tiles, the chain edges and level rules, and the global states that
// are enumerated to check the cascade (Decompose), to verify it (Verify,
// Global) or to print it in explicit form (Format). Each is charged as it is
// built, in bytes (an int costs 8, a map entry its key plus 48); the image
// orbit underneath is bounded by automata.OrbitBytes.
var CascadeBytes = budget.Define("cascade-bytes", 32<<20, "bytes",
	"memory of a Krohn–Rhodes cascade: holonomy sets, tiles and rules, and the global states enumerated to check, verify or print it")

// Byte estimates of the meters.
const (
	intBytes      = 8
	keyBytes      = 4
	sliceBytes    = 24
	mapEntryBytes = 48
)
