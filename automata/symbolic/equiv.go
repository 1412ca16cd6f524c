package symbolic

import (
	"fmt"
	"slices"

	"github.com/brasp-dev/brasp/bdd"
	"github.com/brasp-dev/brasp/budget"
)

// maxPairs bounds the product explored by Compare.
var maxPairs = budget.Define("symbolic-pairs", 1<<24, "pairs",
	"state pairs of the product of two symbolic automata (equivalence)")

// Counterexample is a shortest trace on which two automata disagree: one
// valuation per step (Trace[i][p]: proposition p at step i; propositions
// the witness leaves free are false), and which of the two accepts it.
type Counterexample struct {
	Trace            [][]bool
	AcceptA, AcceptB bool
}

// Compare returns nil when a and b accept the same traces and otherwise a
// shortest trace on which they differ, found by breadth-first search of the
// product; the transitions of a pair of states are found by walking their
// two diagrams together. Both must be over the same propositions in the
// same order (their managers may differ).
func Compare(bg *budget.Budget, a, b *DFA) (*Counterexample, error) {
	if !slices.Equal(a.Props, b.Props) {
		return nil, fmt.Errorf("automata over different propositions: %v and %v", a.Props, b.Props)
	}
	k := len(a.Props)
	type pair struct{ p, q int }
	type back struct {
		from pair
		val  []bool
	}
	seen := map[pair]back{}
	start := pair{a.Start, b.Start}
	seen[start] = back{from: pair{-1, -1}}
	queue := []pair{start}
	level := func(m *bdd.Manager, x bdd.Node) int { return min(m.Level(x), k) }
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		if a.Accept[x.p] != b.Accept[x.q] {
			var steps [][]bool
			for y := x; y != start; {
				bk := seen[y]
				steps = append(steps, bk.val)
				y = bk.from
			}
			slices.Reverse(steps)
			return &Counterexample{Trace: steps, AcceptA: a.Accept[x.p], AcceptB: b.Accept[x.q]}, nil
		}
		val := make([]bool, k)
		visited := map[[2]bdd.Node]bool{}
		var walk func(u, v bdd.Node)
		walk = func(u, v bdd.Node) {
			if visited[[2]bdd.Node{u, v}] {
				return
			}
			visited[[2]bdd.Node{u, v}] = true
			lu, lv := level(a.M, u), level(b.M, v)
			if lu == k && lv == k {
				y := pair{a.Leaf[u], b.Leaf[v]}
				if _, ok := seen[y]; !ok {
					seen[y] = back{from: x, val: slices.Clone(val)}
					queue = append(queue, y)
				}
				return
			}
			l := min(lu, lv)
			u0, u1, v0, v1 := u, u, v, v
			if lu == l {
				u0, u1 = a.M.Low(u), a.M.High(u)
			}
			if lv == l {
				v0, v1 = b.M.Low(v), b.M.High(v)
			}
			walk(u0, v0)
			val[l] = true
			walk(u1, v1)
			val[l] = false
		}
		walk(a.Next[x.p], b.Next[x.q])
		if err := bg.Check(maxPairs, int64(len(seen)), "product of two symbolic automata"); err != nil {
			return nil, err
		}
		if err := bg.Step(int64(len(visited))); err != nil {
			return nil, err
		}
	}
	return nil, nil
}
