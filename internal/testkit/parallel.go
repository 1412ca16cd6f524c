package testkit

import (
	"hash/fnv"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// CaseRand is the random source of one case of a test whose cases run as
// parallel subtests: seeded by the test's seed and the case's name, so the
// draws of a case do not depend on which other cases run, nor in what
// order, and a failure is reproduced by its name alone.
func CaseRand(seed uint64, name string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(name))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

// EachParallel runs f on every entry of cases as a parallel subtest named
// by its key, with the case's random source (CaseRand). A loop over a map
// sharing one source drew differently on every run; here each case draws
// the same words every time.
func EachParallel[V any](t *testing.T, seed uint64, cases map[string]V, f func(t *testing.T, rng *rand.Rand, name string, v V)) {
	t.Helper()
	for _, name := range slices.Sorted(maps.Keys(cases)) {
		v := cases[name]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f(t, CaseRand(seed, name), name, v)
		})
	}
}
