package krohnrhodes

import (
	"fmt"
	"slices"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/internal/transform"
	"github.com/brasp-dev/brasp/budget"
)

// holonomy holds the steps 1–11 of the decomposition (see the package doc).
type holonomy struct {
	d      *automata.DFA
	o      *automata.ImageOrbit
	sets   [][]int // E: the orbit's images (same indices), then the missing singletons
	bits   []transform.Bitset
	index  map[string]int
	single []int // E index of each singleton {x}
	class  []int
	tiles  [][]int       // tiles of each set, as E indices
	tileOf []map[int]int // tileOf[P][T] = position of T in tiles[P]
	height []int         // per class
	levels int
	// level states: levelStates[d-1][k] = (representative, tile position)
	levelStates [][][2]int
	levelIndex  []map[[2]int]int
	// memoised steps of coordinate and decode
	coordMemo  map[[2]int][2]int // (set, tile) → (level, level state)
	decodeMemo map[[2]int]int    // (set, level state) → child set
	tileMemo   map[[2]int]int    // (set q, target s ⊊ q) → the tile of q the dominating chain takes
}

// NotCounterFreeError refuses to decompose a DFA whose transition monoid is
// not aperiodic; Witness shows a word counting modulo some k > 1.
type NotCounterFreeError struct {
	Automaton *automata.DFA
	Witness   *automata.CountingWitness
}

func (e *NotCounterFreeError) Error() string {
	d, w := e.Automaton, e.Witness
	msg := fmt.Sprintf("the automaton is not counter-free: from state %s, the word %s returns after %d repetitions but not after one",
		automata.QuoteState(d.States[w.State]), automata.ShowWord(d.Alphabet, w.Word), w.Period)
	if _, ok := d.DistinguishingSuffix(w.State, d.Run(w.State, w.Word)); ok {
		msg += " (" + w.Describe(d.Alphabet) + "), so its language is not star-free and no B-RASP program recognises it"
	} else {
		msg += "; minimise it first, its language may still be star-free"
	}
	return msg
}

// newHolonomy computes the holonomy sets and tiles of d (steps 1–9),
// charging them to meter (the sets' bit sets, keys and tiles) and their work
// to b.Step; the image orbit is bounded by the budget's orbit-bytes.
func newHolonomy(b *budget.Budget, meter *budget.Meter, d *automata.DFA) (*holonomy, error) {
	o, err := automata.NewImageOrbit(b, d)
	if err != nil {
		return nil, err
	}
	if w := o.CountingWitness(); w != nil {
		return nil, &NotCounterFreeError{Automaton: d, Witness: w}
	}
	n := d.NumStates()
	h := &holonomy{d: d, o: o, index: map[string]int{}, single: make([]int, n)}
	for i, s := range o.Sets {
		h.sets = append(h.sets, s)
		h.index[transform.Key(s)] = i
		h.class = append(h.class, o.Comp[i])
	}
	nextClass := len(o.Comps)
	for x := range n {
		key := transform.Key([]int{x})
		if i, ok := h.index[key]; ok {
			h.single[x] = i
			continue
		}
		h.single[x] = len(h.sets)
		h.index[key] = len(h.sets)
		h.sets = append(h.sets, []int{x})
		h.class = append(h.class, nextClass)
		nextClass++
	}
	words := int64((n + 63) / 64)
	for _, s := range h.sets {
		// The bit set, and for the sets that are not images the set, its
		// key and class.
		if err := meter.Add(8*words + sliceBytes + int64(len(s))*(keyBytes+intBytes) + mapEntryBytes + 2*intBytes); err != nil {
			return nil, err
		}
		h.bits = append(h.bits, transform.NewBitset(n).With(s))
	}
	if err := h.computeTiles(b, meter); err != nil {
		return nil, err
	}
	h.computeHeights(nextClass)
	h.computeLevels()
	return h, nil
}

// subset reports whether E set i is a subset of E set j.
func (h *holonomy) subset(i, j int) bool {
	for k, w := range h.bits[i] {
		if w&^h.bits[j][k] != 0 {
			return false
		}
	}
	return true
}

// computeTiles finds the tiles of every set: the maximal sets of E strictly
// inside it. It compares every pair of sets (quadratic work, charged to
// b.Step) and charges the tiles to meter.
func (h *holonomy) computeTiles(b *budget.Budget, meter *budget.Meter) error {
	h.tiles = make([][]int, len(h.sets))
	h.tileOf = make([]map[int]int, len(h.sets))
	words := int64(len(h.bits[0]))
	for p, ps := range h.sets {
		if len(ps) < 2 {
			continue
		}
		if err := b.Step(int64(len(h.sets)) * words); err != nil {
			return err
		}
		var inside []int
		for t, ts := range h.sets {
			if len(ts) < len(ps) && h.subset(t, p) {
				inside = append(inside, t)
			}
		}
		// Maximal elements: not strictly inside another element of inside.
		slices.SortFunc(inside, func(a, b int) int { return len(h.sets[b]) - len(h.sets[a]) })
		var tiles []int
		for _, t := range inside {
			maximal := true
			for _, u := range tiles {
				if h.subset(t, u) {
					maximal = false
					break
				}
			}
			if maximal {
				tiles = append(tiles, t)
			}
		}
		slices.Sort(tiles)
		if err := b.Step(int64(len(inside)*len(tiles)) * words); err != nil {
			return err
		}
		if err := meter.Add(int64(len(tiles))*(intBytes+mapEntryBytes) + sliceBytes + mapEntryBytes); err != nil {
			return err
		}
		h.tiles[p] = tiles
		h.tileOf[p] = map[int]int{}
		for k, t := range tiles {
			h.tileOf[p][t] = k
		}
	}
	return nil
}

func (h *holonomy) computeHeights(numClasses int) {
	below := make([][]int, numClasses)
	size := make([]int, numClasses)
	for p, ps := range h.sets {
		c := h.class[p]
		size[c] = len(ps)
		if len(ps) < 2 {
			continue
		}
		for _, q := range h.o.Succ[p] {
			if h.class[q] != c {
				below[c] = append(below[c], h.class[q])
			}
		}
		for _, t := range h.tiles[p] {
			below[c] = append(below[c], h.class[t])
		}
	}
	h.height = make([]int, numClasses)
	done := make([]bool, numClasses)
	var visit func(c int) int
	visit = func(c int) int {
		if done[c] {
			return h.height[c]
		}
		done[c] = true
		if size[c] > 1 {
			best := 0
			for _, b := range below[c] {
				best = max(best, visit(b))
			}
			h.height[c] = best + 1
		}
		return h.height[c]
	}
	for c := range numClasses {
		visit(c)
	}
	h.levels = h.height[h.class[0]]
}

// depthOf returns the level of a non-singleton set.
func (h *holonomy) depthOf(p int) int { return h.levels - h.height[h.class[p]] + 1 }

func (h *holonomy) computeLevels() {
	h.levelStates = make([][][2]int, h.levels)
	h.levelIndex = make([]map[[2]int]int, h.levels)
	for d := range h.levelIndex {
		h.levelIndex[d] = map[[2]int]int{}
	}
	for p, ps := range h.sets {
		if len(ps) < 2 || p >= len(h.o.Sets) || h.o.Rep[p] != p {
			continue
		}
		d := h.depthOf(p) - 1
		for k := range h.tiles[p] {
			h.levelIndex[d][[2]int{p, k}] = len(h.levelStates[d])
			h.levelStates[d] = append(h.levelStates[d], [2]int{p, k})
		}
	}
}

// coordinate returns the level state that records tile t of the set p: the
// tile t·toRep_p of p's representative.
func (h *holonomy) coordinate(p, t int) (level, state int, err error) {
	if v, ok := h.coordMemo[[2]int{p, t}]; ok {
		return v[0], v[1], nil
	}
	r := h.o.Rep[p]
	ti, ok := h.index[transform.Key(transform.Image(h.sets[t], h.o.To[p]))]
	if !ok {
		return 0, 0, fmt.Errorf("internal error: toRep does not map a tile to an element of E")
	}
	k, ok := h.tileOf[r][ti]
	if !ok {
		return 0, 0, fmt.Errorf("internal error: toRep does not map a tile to a tile")
	}
	d := h.depthOf(p) - 1
	v := h.levelIndex[d][[2]int{r, k}]
	if h.coordMemo == nil {
		h.coordMemo = map[[2]int][2]int{}
	}
	h.coordMemo[[2]int{p, t}] = [2]int{d, v}
	return d, v, nil
}

// decode returns the tile chain of a coordinate tuple, ending in a singleton.
func (h *holonomy) decode(c []int) ([]int, error) {
	chain := []int{0}
	p := 0
	if h.decodeMemo == nil {
		h.decodeMemo = map[[2]int]int{}
	}
	for len(h.sets[p]) > 1 {
		d := h.depthOf(p) - 1
		if t, ok := h.decodeMemo[[2]int{p, c[d]}]; ok {
			p = t
			chain = append(chain, p)
			continue
		}
		ls := h.levelStates[d][c[d]]
		r := h.o.Rep[p]
		if ls[0] != r {
			return nil, fmt.Errorf("internal error: level %d holds a tile of another representative", d+1)
		}
		t, ok := h.index[transform.Key(transform.Image(h.sets[h.tiles[r][ls[1]]], h.o.From[p]))]
		if !ok {
			return nil, fmt.Errorf("internal error: fromRep does not map a tile into E")
		}
		h.decodeMemo[[2]int{p, c[d]}] = t
		p = t
		chain = append(chain, p)
	}
	return chain, nil
}

// initial returns the coordinates of state x: the chain that descends from X
// through the first tile containing x; levels off the chain hold state 0.
func (h *holonomy) initial(x int) ([]int, error) {
	c := make([]int, h.levels)
	p := 0
	for len(h.sets[p]) > 1 {
		next := -1
		for _, t := range h.tiles[p] {
			if h.bits[t].Has(x) {
				next = t
				break
			}
		}
		d, s, err := h.coordinate(p, next)
		if err != nil {
			return nil, err
		}
		c[d] = s
		p = next
	}
	return c, nil
}

// step applies letter a to the coordinate tuple c. It returns the new tuple
// and, per level, whether the level was reset (otherwise it is unchanged).
func (h *holonomy) step(c []int, a int) ([]int, []bool, error) {
	chain, err := h.decode(c)
	if err != nil {
		return nil, nil, err
	}
	targets := make([]int, len(chain))
	for i, p := range chain {
		if len(h.sets[p]) == 1 {
			targets[i] = h.single[h.d.Delta[h.sets[p][0]][a]]
		} else {
			targets[i] = h.o.Succ[p][a]
		}
	}
	next := slices.Clone(c)
	reset := make([]bool, h.levels)
	onChain := make([]bool, h.levels)
	q := 0
	for len(h.sets[q]) > 1 {
		i := 0
		for i < len(targets) && !(len(h.sets[targets[i]]) < len(h.sets[q]) && h.subset(targets[i], q)) {
			i++
		}
		if i == len(targets) {
			return nil, nil, fmt.Errorf("internal error: no target below a chain set")
		}
		qn := h.toward(q, targets[i])
		d, v, err := h.coordinate(q, qn)
		if err != nil {
			return nil, nil, err
		}
		// Identity case: q is the image of the old chain set of the same
		// class just above the target; then the holonomy element is trivial.
		identity := i > 0 && targets[i-1] == q && h.class[chain[i-1]] == h.class[q]
		if identity && next[d] != v {
			return nil, nil, fmt.Errorf("internal error: nontrivial holonomy at level %d", d+1)
		}
		if !identity {
			next[d] = v
			reset[d] = true
		}
		onChain[d] = true
		q = qn
	}
	// Levels off the new chain hold don't-care values; resetting them to
	// state 0 keeps the number of reachable global states small. Whether a
	// level is on the chain depends only on the levels above and the letter,
	// so this is a legitimate reset.
	for d := range next {
		if !onChain[d] {
			next[d] = 0
			reset[d] = true
		}
	}
	return next, reset, nil
}

// toward returns the tile of q that a dominating chain takes on its way
// down to s ⊊ q: s itself when it is a tile of q, otherwise the first tile
// of q containing s (step 11 of the notes).
func (h *holonomy) toward(q, s int) int {
	qn, ok := h.tileMemo[[2]int{q, s}]
	if ok {
		return qn
	}
	qn = s
	if _, isTile := h.tileOf[q][s]; !isTile {
		qn = -1
		for _, t := range h.tiles[q] {
			if h.subset(s, t) {
				qn = t
				break
			}
		}
	}
	if h.tileMemo == nil {
		h.tileMemo = map[[2]int]int{}
	}
	h.tileMemo[[2]int{q, s}] = qn
	return qn
}

// heightOf returns the height of set p (0 for singletons).
func (h *holonomy) heightOf(p int) int { return h.height[h.class[p]] }

// imageOf returns the E index of P·a: an orbit image, or the singleton
// {x·a} for a singleton {x} outside the orbit.
func (h *holonomy) imageOf(p, a int) int {
	if p < len(h.o.Sets) {
		return h.o.Succ[p][a]
	}
	return h.single[h.d.Delta[h.sets[p][0]][a]]
}
