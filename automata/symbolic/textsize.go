package symbolic

import (
	"fmt"
	"math"
	"strconv"

	"github.com/brasp-dev/brasp/bdd"
	"github.com/brasp-dev/brasp/budget"
)

// maxGuardText bounds the text of Format and DOT, whose guards are
// disjunctions of the paths of their diagrams: a guard over many
// propositions can have exponentially many paths, where FormatDiagram
// shares the diagrams and stays as small as the automaton.
var maxGuardText = budget.Define("guard-text-bytes", 256<<20, "bytes",
	"text of a symbolic DFA written with guards (the .bdd format shares diagrams instead)")

// GuardTextSize is about the number of bytes Format writes for d, computed
// on the diagrams (paths counted, not listed), so that a writer can refuse
// a text it could not hold before building any of it.
func GuardTextSize(d *DFA) float64 {
	digits := float64(len(strconv.Itoa(d.NumStates())))
	width, header := 0, 32.0
	for _, a := range d.Accept {
		if a {
			header += digits + 1
		}
	}
	for _, p := range d.Props {
		width = max(width, len(quoteProp(p)))
		header += float64(len(quoteProp(p)) + 1)
	}
	lit := float64(width + 4) // "!p & "
	paths := map[bdd.Node][2]float64{bdd.True: {1, 0}, bdd.False: {0, 0}}
	// count returns the paths to True of x and their total literals.
	var count func(x bdd.Node) [2]float64
	count = func(x bdd.Node) [2]float64 {
		if c, ok := paths[x]; ok {
			return c
		}
		lo, hi := count(d.M.Low(x)), count(d.M.High(x))
		c := [2]float64{lo[0] + hi[0], lo[1] + hi[1] + lo[0] + hi[0]}
		paths[x] = c
		return c
	}
	size := header
	for q := range d.NumStates() {
		for _, e := range d.Edges(q) {
			c := count(e.Guard)
			size += 2*digits + 3 + 4 + 3*c[0] + lit*c[1]
		}
	}
	return size
}

// CheckGuardText refuses, under the guard-text-bytes limit, a guard text
// of d too large to write.
func CheckGuardText(b *budget.Budget, d *DFA) error {
	need := GuardTextSize(d)
	if need > math.MaxInt64/2 {
		need = math.MaxInt64 / 2
	}
	if err := b.Check(maxGuardText, int64(need), "the guard text of the automaton"); err != nil {
		return fmt.Errorf("%w; a .bdd output file shares the decision diagrams instead", err)
	}
	return nil
}
