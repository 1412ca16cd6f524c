package automata

import (
	"slices"

	"github.com/brasp-dev/brasp/automata/internal/transform"
	"github.com/brasp-dev/brasp/budget"
)

// ImageOrbit is the orbit of the full state set X under the letters: every
// image X·w, with the orbit graph, its strongly connected components, and for
// each image P of a component with representative R the words fromRep_P
// (R·fromRep_P = P) and toRep_P (P·toRep_P = R). It underlies both the
// aperiodicity test of Classify and the holonomy decomposition of package
// automata/krohnrhodes. Transformations are slices t with t[q] = q·w.
type ImageOrbit struct {
	d       *DFA
	index   map[string]int
	Letters [][]int // Letters[a]: the transformation of symbol a
	Sets    [][]int // sorted state lists; Sets[0] = X
	Succ    [][]int // Succ[i][a] = index of Sets[i]·a
	Comp    []int   // strongly connected component of each set
	Comps   [][]int // members of each component; Comps[c][0] is its representative
	Rep     []int   // representative of the component of each set
	From    [][]int // transformation of fromRep: maps Rep bijectively onto the set
	FromW   [][]int // the word fromRep
	To      [][]int // transformation of toRep: maps the set bijectively onto Rep
	ToW     [][]int // the word toRep
}

// NewImageOrbit computes the image orbit of d. Each image is charged to the
// budget's orbit-bytes limit with everything the orbit keeps for it (its
// states, key and successors, and the transformations fromRep and toRep of
// n states each, which dominate for large automata), and the words fromRep
// and toRep as they are built; the work goes to b.Step. Past either it stops
// with the budget's error.
func NewImageOrbit(b *budget.Budget, d *DFA) (*ImageOrbit, error) {
	n, k := d.NumStates(), len(d.Alphabet)
	meter := b.Meter(OrbitBytes, "the image orbit")
	perImage := func(size int) int64 {
		return int64(size)*(intBytes+keyBytes) + int64(k)*intBytes + 2*int64(n)*intBytes +
			9*sliceBytes + mapEntryBytes + 6*intBytes
	}
	o := &ImageOrbit{d: d, Letters: d.letterMaps(), index: map[string]int{}}
	if err := meter.Add(perImage(n)); err != nil {
		return nil, err
	}
	o.add(transform.Identity(n))
	for i := 0; i < len(o.Sets); i++ {
		row := make([]int, k)
		for a, l := range o.Letters {
			if err := b.Step(int64(len(o.Sets[i]))); err != nil {
				return nil, err
			}
			p := transform.Image(o.Sets[i], l)
			j, ok := o.index[transform.Key(p)]
			if !ok {
				if err := meter.Add(perImage(len(p))); err != nil {
					return nil, err
				}
				j = o.add(p)
			}
			row[a] = j
		}
		o.Succ = append(o.Succ, row)
	}
	o.components()
	if err := o.representatives(b, meter); err != nil {
		return nil, err
	}
	return o, nil
}

func (o *ImageOrbit) add(s []int) int {
	o.index[transform.Key(s)] = len(o.Sets)
	o.Sets = append(o.Sets, s)
	return len(o.Sets) - 1
}

// components computes the strongly connected components of the orbit graph
// (Tarjan's algorithm, iterative).
func (o *ImageOrbit) components() {
	n := len(o.Sets)
	o.Comp = make([]int, n)
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
			if f.edge < len(o.Succ[v]) {
				w := o.Succ[v][f.edge]
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
					o.Comp[w] = len(o.Comps)
					members = append(members, w)
					if w == v {
						break
					}
				}
				slices.Sort(members)
				o.Comps = append(o.Comps, members)
			}
		}
	}
}

// representatives picks the earliest-discovered image of each component as
// its representative R and computes fromRep and toRep for every member by
// breadth-first search inside the component.
func (o *ImageOrbit) representatives(b *budget.Budget, meter *budget.Meter) error {
	n := len(o.Sets)
	states := o.d.NumStates()
	o.Rep = make([]int, n)
	o.From, o.FromW = make([][]int, n), make([][]int, n)
	o.To, o.ToW = make([][]int, n), make([][]int, n)
	pred := make([][][2]int, n) // pred[j] = (i, a) with succ[i][a] = j inside a component
	// charge accounts for one transformation (charged with its image) and a
	// word of length w.
	charge := func(w int) error {
		if err := meter.Add(int64(w) * intBytes); err != nil {
			return err
		}
		return b.Step(int64(states))
	}
	for i := range n {
		for a, j := range o.Succ[i] {
			if o.Comp[j] == o.Comp[i] {
				pred[j] = append(pred[j], [2]int{i, a})
			}
		}
	}
	for _, members := range o.Comps {
		r := members[0]
		for _, p := range members {
			o.Rep[p] = r
		}
		o.From[r], o.FromW[r] = transform.Identity(states), []int{}
		queue := []int{r}
		for len(queue) > 0 {
			i := queue[0]
			queue = queue[1:]
			for a, j := range o.Succ[i] {
				if o.Comp[j] == o.Comp[r] && o.From[j] == nil {
					if err := charge(len(o.FromW[i]) + 1); err != nil {
						return err
					}
					o.From[j] = transform.Compose(o.From[i], o.Letters[a])
					o.FromW[j] = append(slices.Clone(o.FromW[i]), a)
					queue = append(queue, j)
				}
			}
		}
		o.To[r], o.ToW[r] = transform.Identity(states), []int{}
		queue = []int{r}
		for len(queue) > 0 {
			j := queue[0]
			queue = queue[1:]
			for _, e := range pred[j] {
				i, a := e[0], e[1]
				if o.To[i] == nil {
					if err := charge(len(o.ToW[j]) + 1); err != nil {
						return err
					}
					o.To[i] = transform.Compose(o.Letters[a], o.To[j])
					o.ToW[i] = append([]int{a}, o.ToW[j]...)
					queue = append(queue, i)
				}
			}
		}
	}
	return nil
}

// groupViolation finds a word w and an image R with R·w = R on which w is not
// the identity, if there is one: then w generates a nontrivial group and the
// transition monoid is not aperiodic. It checks the normalisation
// fromRep_P·toRep_P and every Schreier generator fromRep_P·a·toRep_{P·a}
// inside each component; when they all fix R pointwise, every word that maps
// R onto itself does (it factors through them), so the monoid is aperiodic.
func (o *ImageOrbit) groupViolation() (w []int, r int, ok bool) {
	for p := range o.Sets {
		r := o.Rep[p]
		for _, x := range o.Sets[r] {
			if o.To[p][o.From[p][x]] != x {
				return append(slices.Clone(o.FromW[p]), o.ToW[p]...), r, true
			}
		}
		for a, q := range o.Succ[p] {
			if o.Comp[q] != o.Comp[p] {
				continue
			}
			for _, x := range o.Sets[r] {
				if o.To[q][o.Letters[a][o.From[p][x]]] != x {
					w := append(slices.Clone(o.FromW[p]), a)
					return append(w, o.ToW[q]...), r, true
				}
			}
		}
	}
	return nil, 0, false
}

// CountingWitness returns a witness that the transition monoid of the orbit's
// automaton is not aperiodic (a word counting modulo some k > 1 on a state of
// an image it maps onto itself), or nil when the monoid is aperiodic.
func (o *ImageOrbit) CountingWitness() *CountingWitness {
	w, r, bad := o.groupViolation()
	if !bad {
		return nil
	}
	t := o.d.WordTransformation(w)
	for _, x := range o.Sets[r] {
		if t[x] != x {
			return countingWitness(o.d, w, t, x)
		}
	}
	return nil
}
