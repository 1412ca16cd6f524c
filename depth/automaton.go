package depth

import (
	"encoding/binary"
	"slices"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
)

// productStates limits the states of the product of the type automaton and
// the language's DFA (each state holds k+1 type numbers and a parent link).
var productStates = budget.Define("depth-product-bytes", 32<<20, "bytes",
	"memory of the type automaton × DFA product of brasp depth (since fragment)")

// A certificate is two words with the same type at a depth, one in the
// language and one not.
type Certificate struct {
	In, Out []int
	Depth   int
}

// sinceResult is what the exact search of one depth found.
type sinceResult struct {
	// cert is a shortest certificate, or nil when the language is a union of
	// depth-k types (definable at depth k).
	cert *Certificate
	// States is the number of product states explored.
	States int
	// Occurring types: the non-final types of every level that some
	// position of some word has, and the final types of level k with the
	// verdict of the words whose last position has them.
	occurring [][]TypeID
	finals    map[TypeID]bool
}

// productState is one state of the product: the types of the current
// (non-last) position at levels 0..k, the position modulo the atoms'
// period, whether it is the first position, and the DFA's state.
type productState struct {
	types  []TypeID
	pos    int // the position's class (positionClass), in 1..prefix+period
	first  bool
	q      int
	letter int
	parent int32 // index of the previous state, -1 at the first position
}

// sinceSearch explores, breadth first, every pair (depth-k since-types of
// the current position, DFA state) a word can reach. Reading a letter moves
// level l's past antichain on by the level-(l−1) type of the position left
// behind (advance), so the types of position i+1 are a function of those of
// position i and the new letter: a finite automaton whose states are
// type tuples. The word read so far is in the language iff the DFA accepts,
// and its depth-k type is the level-k type of its last position, recomputed
// with the label a last position has. Two words reaching the same final type
// with different verdicts are a certificate; breadth-first order makes the
// longer of the two as short as possible. When the exploration ends with no
// certificate, every word's verdict is a function of its depth-k type, so
// the language is definable at depth k.
func sinceSearch(b *budget.Budget, tab *Table, d *automata.DFA, k int) (*sinceResult, error) {
	atoms := tab.atoms
	if err := atoms.check(); err != nil {
		return nil, err
	}
	cls := atoms.classes()
	mem := b.Meter(productStates, "depth product automaton")
	var states []productState
	index := map[string]int32{}
	var keyBuf []byte
	type seen struct{ in, out int32 }
	finals := map[TypeID]*seen{}
	occ := make([]map[TypeID]bool, k+1)
	for l := range occ {
		occ[l] = map[TypeID]bool{}
	}
	res := &sinceResult{}

	add := func(s productState) (int32, bool, error) {
		kb := keyBuf[:0]
		for _, t := range s.types {
			kb = binary.AppendUvarint(kb, uint64(t))
		}
		kb = binary.AppendUvarint(kb, uint64(s.pos))
		if s.first {
			kb = append(kb, 1)
		}
		kb = binary.AppendUvarint(kb, uint64(s.q))
		keyBuf = kb
		if id, ok := index[string(kb)]; ok {
			return id, false, nil
		}
		if err := mem.Add(int64(2*len(kb) + 4*len(s.types) + 96)); err != nil {
			return 0, false, err
		}
		id := int32(len(states))
		index[string(kb)] = id
		states = append(states, s)
		return id, true, nil
	}
	// types computes the level-0..k types of a position with the given
	// label whose antichains follow from the previous position's state.
	types := func(prev *productState, label int32) ([]TypeID, error) {
		ts := make([]TypeID, k+1)
		ts[0] = tab.labelType(label)
		for l := 1; l <= k; l++ {
			var a antichain
			if prev != nil {
				a = advance(tab.info(l, prev.types[l]).past, prev.types[l-1])
			}
			id, err := tab.intern(l, label, a, nil)
			if err != nil {
				return nil, err
			}
			ts[l] = id
		}
		return ts, nil
	}
	// finalType is the depth-k type of the state's position read as the
	// last one.
	finalType := func(s *productState) (TypeID, error) {
		// A position of the class that is not the first one, unless it is.
		p := cls.rep(s.pos)
		if s.first {
			p = 1
		}
		label := atoms.label(s.letter, p, p)
		if k == 0 {
			return tab.labelType(label), nil
		}
		return tab.intern(k, label, tab.info(k, s.types[k]).past, nil)
	}
	// nonLastLabel is the label of a position that is not the last one.
	nonLastLabel := func(letter, pos int, first bool) int32 {
		if first {
			return atoms.label(letter, 1, 2)
		}
		// rep(pos) has the class's predicates and is not 1, and a word of
		// length rep(pos)+1 does not end there.
		p := cls.rep(pos)
		return atoms.label(letter, p, p+1)
	}
	visit := func(id int32) (*Certificate, error) {
		s := &states[id]
		for l, t := range s.types {
			occ[l][t] = true
		}
		ft, err := finalType(s)
		if err != nil {
			return nil, err
		}
		acc := d.Accept[s.q]
		e := finals[ft]
		if e == nil {
			e = &seen{in: -1, out: -1}
			finals[ft] = e
		}
		if acc && e.in < 0 {
			e.in = id
		}
		if !acc && e.out < 0 {
			e.out = id
		}
		if e.in >= 0 && e.out >= 0 {
			return &Certificate{In: wordOf(states, e.in), Out: wordOf(states, e.out), Depth: k}, nil
		}
		return nil, nil
	}

	for a := range atoms.Alphabet {
		ts, err := types(nil, nonLastLabel(a, 1, true))
		if err != nil {
			return nil, err
		}
		id, _, err := add(productState{types: ts, pos: 1, first: true, q: d.Delta[d.Start][a], letter: a, parent: -1})
		if err != nil {
			return nil, err
		}
		if c, err := visit(id); c != nil || err != nil {
			res.cert, res.States = c, len(states)
			return res, err
		}
	}
	for head := 0; head < len(states); head++ {
		for a := range atoms.Alphabet {
			s := &states[head]
			pos := cls.next(s.pos)
			ts, err := types(s, nonLastLabel(a, pos, false))
			if err != nil {
				return nil, err
			}
			next := productState{types: ts, pos: pos, q: d.Delta[s.q][a], letter: a, parent: int32(head)}
			id, isNew, err := add(next)
			if err != nil {
				return nil, err
			}
			if !isNew {
				continue
			}
			if c, err := visit(id); c != nil || err != nil {
				res.cert, res.States = c, len(states)
				return res, err
			}
		}
		if err := b.Step(int64(len(atoms.Alphabet) * (k + 1))); err != nil {
			return nil, err
		}
	}
	res.States = len(states)
	res.occurring = make([][]TypeID, k+1)
	for l := range occ {
		for t := range occ[l] {
			res.occurring[l] = append(res.occurring[l], t)
		}
		slices.Sort(res.occurring[l])
	}
	res.finals = map[TypeID]bool{}
	for t, e := range finals {
		res.finals[t] = e.in >= 0
	}
	return res, nil
}

// wordOf reads the word that led to a state back through the parent links.
func wordOf(states []productState, id int32) []int {
	var w []int
	for ; id >= 0; id = states[id].parent {
		w = append(w, states[id].letter)
	}
	for i, j := 0, len(w)-1; i < j; i, j = i+1, j-1 {
		w[i], w[j] = w[j], w[i]
	}
	return w
}
