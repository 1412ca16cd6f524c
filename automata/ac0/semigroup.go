package ac0

import (
	"crypto/sha256"
	"encoding/binary"
	"slices"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
)

// maxBytes bounds the memory of the construction: the transformations of
// the sets η(Σ^p) and the expressions of the program built from them.
var maxBytes = budget.Define("ac0-bytes", 1<<28, "bytes",
	"memory of the AC0 → B-RASP[MOD] construction (the sets η(Σ^p) of word images and the program built from them)")

// transformation is the action of a word on the states of the minimal DFA:
// t[q] is the state reached from q.
type transformation []int32

// key is a map key for t.
func (t transformation) key() string {
	buf := make([]byte, 4*len(t))
	for q, x := range t {
		binary.LittleEndian.PutUint32(buf[4*q:], uint32(x))
	}
	return string(buf)
}

// hasCycle reports whether some state lies on a cycle of t of length > 1:
// then the powers of t form a non-trivial group.
func (t transformation) hasCycle() bool {
	n := len(t)
	for q := range t {
		x := int32(q)
		for range n {
			x = t[x]
		}
		if t[x] != x {
			return true
		}
	}
	return false
}

// split is one way to write an element f of η(Σ^(p+1)) as an element of
// η(Σ^p) followed by a letter class: f = e·η(a) (e first, then a).
type split struct {
	class int // letter class of a
	rest  int // index of e in the level below
}

// level is η(Σ^p): its distinct elements and, for p > 1, how each element
// splits into an element of η(Σ^(p-1)) and a last letter class.
type level struct {
	elems  []transformation
	index  map[string]int
	splits [][]split
}

// images holds the letter classes of the minimal DFA (letters with the same
// transformation) and the sets η(Σ^p) for p = 1..s, where s is the
// stability index: the least s ≥ 1 with η(Σ^s)·η(Σ^s) = η(Σ^s), found as
// in Classify (the sequence of sets η(Σ^k) is eventually periodic; s is
// the least multiple of its period at or after the start of the cycle).
type images struct {
	classes  [][]int          // letter classes: the symbols of each
	classMap []transformation // the transformation of each class
	levels   []*level         // levels[p-1] is η(Σ^p)
	s        int
}

// computeImages builds the letter classes and η(Σ^p) up to the stability
// index. Memory is charged to maxBytes and work to b.Step.
func computeImages(b *budget.Budget, m *automata.DFA) (*images, error) {
	n := m.NumStates()
	meter := b.Meter(maxBytes, "the sets η(Σ^p) of word images")
	im := &images{}
	classOf := map[string]int{}
	first := &level{index: map[string]int{}}
	for a := range m.Alphabet {
		t := make(transformation, n)
		for q := range n {
			t[q] = int32(m.Delta[q][a])
		}
		k := t.key()
		c, ok := classOf[k]
		if !ok {
			c = len(im.classes)
			classOf[k] = c
			im.classes = append(im.classes, nil)
			im.classMap = append(im.classMap, t)
			first.index[k] = len(first.elems)
			first.elems = append(first.elems, t)
			first.splits = append(first.splits, []split{{class: c, rest: -1}})
			if err := meter.Add(int64(8*n + 64)); err != nil {
				return nil, err
			}
		}
		im.classes[c] = append(im.classes[c], a)
	}
	im.levels = []*level{first}
	digests := map[[sha256.Size]byte]int{}
	for k := 1; ; k++ {
		cur := im.levels[k-1]
		keys := make([]string, 0, len(cur.elems))
		for key := range cur.index {
			keys = append(keys, key)
		}
		slices.Sort(keys)
		h := sha256.New()
		for _, key := range keys {
			h.Write([]byte(key))
		}
		var digest [sha256.Size]byte
		h.Sum(digest[:0])
		if start, ok := digests[digest]; ok {
			period := k - start
			im.s = ((start + period - 1) / period) * period
			im.levels = im.levels[:im.s]
			return im, nil
		}
		digests[digest] = k
		// η(Σ^(k+1)) = η(Σ^k)·η(Σ): an element, then a last letter class.
		next := &level{index: map[string]int{}}
		for c, a := range im.classMap {
			for e, t := range cur.elems {
				if err := b.Step(int64(n)); err != nil {
					return nil, err
				}
				f := make(transformation, n)
				for q := range n {
					f[q] = a[t[q]]
				}
				key := f.key()
				x, ok := next.index[key]
				if !ok {
					x = len(next.elems)
					next.index[key] = x
					next.elems = append(next.elems, f)
					next.splits = append(next.splits, nil)
					if err := meter.Add(int64(8*n + 64)); err != nil {
						return nil, err
					}
				}
				next.splits[x] = append(next.splits[x], split{class: c, rest: e})
				if err := meter.Add(16); err != nil {
					return nil, err
				}
			}
		}
		im.levels = append(im.levels, next)
	}
}
