package automata

import (
	"slices"
)

// imageOrbit is the orbit of the full state set X under the letters: every
// image X·w, with the orbit graph, its strongly connected components, and for
// each image P of a component with representative R the words fromRep_P
// (R·fromRep_P = P) and toRep_P (P·toRep_P = R). It underlies both the
// aperiodicity test and the holonomy decomposition.
type imageOrbit struct {
	d       *DFA
	letters [][]int
	sets    [][]int // sorted state lists; sets[0] = X
	index   map[string]int
	succ    [][]int // succ[i][a] = index of sets[i]·a
	comp    []int   // strongly connected component of each set
	comps   [][]int // members of each component; comps[c][0] is its representative
	rep     []int   // representative of the component of each set
	from    [][]int // transformation of fromRep: maps rep bijectively onto the set
	fromW   [][]int
	to      [][]int // transformation of toRep: maps the set bijectively onto rep
	toW     [][]int
}

// DefaultMaxImages is the default limit on the number of distinct images X·w
// the classification and the holonomy decomposition may explore.
const DefaultMaxImages = 100000

func setKey(s []int) string { return transformationKey(s) }

// image returns the sorted set {q·t : q ∈ s}.
func image(s, t []int) []int {
	out := make([]int, len(s))
	for i, q := range s {
		out[i] = t[q]
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func newImageOrbit(d *DFA, maxImages int) (*imageOrbit, error) {
	o := &imageOrbit{d: d, letters: d.letterMaps(), index: map[string]int{}}
	o.add(identity(d.NumStates()))
	for i := 0; i < len(o.sets); i++ {
		row := make([]int, len(o.letters))
		for a, l := range o.letters {
			p := image(o.sets[i], l)
			j, ok := o.index[setKey(p)]
			if !ok {
				if len(o.sets) >= maxImages {
					return nil, &LimitError{Name: "max-images", Limit: maxImages, What: "image orbit"}
				}
				j = o.add(p)
			}
			row[a] = j
		}
		o.succ = append(o.succ, row)
	}
	o.components()
	o.representatives()
	return o, nil
}

func (o *imageOrbit) add(s []int) int {
	o.index[setKey(s)] = len(o.sets)
	o.sets = append(o.sets, s)
	return len(o.sets) - 1
}

// components computes the strongly connected components of the orbit graph
// (Tarjan's algorithm, iterative).
func (o *imageOrbit) components() {
	n := len(o.sets)
	o.comp = make([]int, n)
	low := make([]int, n)
	num := make([]int, n)
	onStack := make([]bool, n)
	for i := range num {
		num[i] = -1
	}
	var stack []int
	counter := 0
	type frame struct{ v, edge int }
	for root := range n {
		if num[root] >= 0 {
			continue
		}
		call := []frame{{root, 0}}
		num[root], low[root] = counter, counter
		counter++
		stack = append(stack, root)
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if f.edge < len(o.succ[v]) {
				w := o.succ[v][f.edge]
				f.edge++
				if num[w] < 0 {
					num[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				} else if onStack[w] {
					low[v] = min(low[v], num[w])
				}
				continue
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] == num[v] {
				var members []int
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					o.comp[w] = len(o.comps)
					members = append(members, w)
					if w == v {
						break
					}
				}
				slices.Sort(members)
				o.comps = append(o.comps, members)
			}
		}
	}
}

// representatives picks the earliest-discovered image of each component as
// its representative R and computes fromRep and toRep for every member by
// breadth-first search inside the component.
func (o *imageOrbit) representatives() {
	n := len(o.sets)
	states := o.d.NumStates()
	o.rep = make([]int, n)
	o.from, o.fromW = make([][]int, n), make([][]int, n)
	o.to, o.toW = make([][]int, n), make([][]int, n)
	pred := make([][][2]int, n) // pred[j] = (i, a) with succ[i][a] = j inside a component
	for i := range n {
		for a, j := range o.succ[i] {
			if o.comp[j] == o.comp[i] {
				pred[j] = append(pred[j], [2]int{i, a})
			}
		}
	}
	for _, members := range o.comps {
		r := members[0]
		for _, p := range members {
			o.rep[p] = r
		}
		o.from[r], o.fromW[r] = identity(states), []int{}
		queue := []int{r}
		for len(queue) > 0 {
			i := queue[0]
			queue = queue[1:]
			for a, j := range o.succ[i] {
				if o.comp[j] == o.comp[r] && o.from[j] == nil {
					o.from[j] = compose(o.from[i], o.letters[a])
					o.fromW[j] = append(slices.Clone(o.fromW[i]), a)
					queue = append(queue, j)
				}
			}
		}
		o.to[r], o.toW[r] = identity(states), []int{}
		queue = []int{r}
		for len(queue) > 0 {
			j := queue[0]
			queue = queue[1:]
			for _, e := range pred[j] {
				i, a := e[0], e[1]
				if o.to[i] == nil {
					o.to[i] = compose(o.letters[a], o.to[j])
					o.toW[i] = append([]int{a}, o.toW[j]...)
					queue = append(queue, i)
				}
			}
		}
	}
}

// groupViolation finds a word w and an image R with R·w = R on which w is not
// the identity, if there is one: then w generates a nontrivial group and the
// transition monoid is not aperiodic. It checks the normalisation
// fromRep_P·toRep_P and every Schreier generator fromRep_P·a·toRep_{P·a}
// inside each component; when they all fix R pointwise, every word that maps
// R onto itself does (it factors through them), so the monoid is aperiodic.
func (o *imageOrbit) groupViolation() (w []int, r int, ok bool) {
	for p := range o.sets {
		r := o.rep[p]
		for _, x := range o.sets[r] {
			if o.to[p][o.from[p][x]] != x {
				return append(slices.Clone(o.fromW[p]), o.toW[p]...), r, true
			}
		}
		for a, q := range o.succ[p] {
			if o.comp[q] != o.comp[p] {
				continue
			}
			for _, x := range o.sets[r] {
				if o.to[q][o.letters[a][o.from[p][x]]] != x {
					w := append(slices.Clone(o.fromW[p]), a)
					return append(w, o.toW[q]...), r, true
				}
			}
		}
	}
	return nil, 0, false
}
