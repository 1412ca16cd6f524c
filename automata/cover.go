package automata

import (
	"encoding/binary"

	"github.com/brasp-dev/brasp/budget"
)

// MinimalCover returns a DFA with the fewest states that accepts the same
// words of length at most n as d (a minimal cover automaton of d's words up
// to n): what it does on longer words is whatever makes it smallest. It is
// what a black box known only up to length n determines.
//
// The construction (Câmpeanu, Sântean and Yu's similarity): the level of a
// state is the length of a shortest word reaching it; states p and q are
// similar when they agree on every word of length at most n − max(level p,
// level q). Taking the reachable states in breadth-first order (levels
// ascending), each state joins the first earlier representative it is
// similar to, or becomes a representative; the result has the
// representatives as states, a representative's transition on a leading to
// the representative of its successor's class.
//
// It agrees with d up to n: by induction on a word x of length at most n,
// the state the result reaches has level at most |x| and agrees with the
// state d reaches on every word of length at most n − |x| (a successor's
// representative has a level no larger than the successor's and is similar
// to it). It is minimal: two representatives p, q are not similar, so a
// word of length at most n − max(level p, level q) tells them apart, and
// their shortest access words followed by it are words of length at most n
// on which any DFA agreeing with d up to n must reach different states.
//
// Similarity is read off Moore's rounds (round r: agreement on every word
// of length at most r), kept until they stabilise: O(k·m·r) time and O(m·r)
// memory for m states (after minimisation), k letters and r = min(n, the
// rounds to stability), charged to b's minimize-bytes limit and b.Step.
func MinimalCover(b *budget.Budget, d *DFA, n int) (*DFA, error) {
	m, err := Minimize(b, d)
	if err != nil {
		return nil, err
	}
	meter := b.Meter(MinimizeBytes, "the minimal cover automaton")
	states, k := m.NumStates(), len(m.Alphabet)
	// Breadth-first order and levels.
	level := make([]int, states)
	for q := range level {
		level[q] = -1
	}
	order := []int{m.Start}
	level[m.Start] = 0
	for i := 0; i < len(order); i++ {
		q := order[i]
		for _, r := range m.Delta[q] {
			if level[r] < 0 {
				level[r] = level[q] + 1
				order = append(order, r)
			}
		}
	}
	// rounds[r][q]: q's block after r Moore rounds.
	first := make([]int32, states)
	for q := range first {
		if m.Accept[q] {
			first[q] = 1
		}
	}
	rounds := [][]int32{first}
	if err := meter.Add(int64(states) * 4); err != nil {
		return nil, err
	}
	key := make([]byte, 4*(k+1))
	for r := 1; r <= n; r++ {
		prev := rounds[r-1]
		next := make([]int32, states)
		if err := meter.Add(int64(states) * (4 + int64(len(key)) + mapEntryBytes)); err != nil {
			return nil, err
		}
		ids := map[string]int32{}
		for q := range states {
			binary.LittleEndian.PutUint32(key, uint32(prev[q]))
			for a, s := range m.Delta[q] {
				binary.LittleEndian.PutUint32(key[4*(a+1):], uint32(prev[s]))
			}
			id, ok := ids[string(key)]
			if !ok {
				id = int32(len(ids))
				ids[string(key)] = id
			}
			next[q] = id
		}
		meter.Release(int64(states) * (int64(len(key)) + mapEntryBytes))
		if err := b.Step(int64(states * (k + 1))); err != nil {
			return nil, err
		}
		if len(ids) == blocks(prev) {
			break // stable: every later round is this one
		}
		rounds = append(rounds, next)
	}
	// rep[r][block]: the first representative in that block at round r.
	rep := make([][]int32, len(rounds))
	class := make([]int, states)
	for q := range class {
		class[q] = m.Start // unreachable within n: any state will do
	}
	var reps []int
	for _, q := range order {
		if level[q] > n {
			break
		}
		r := min(n-level[q], len(rounds)-1)
		blk := rounds[r][q]
		if int(blk) < len(rep[r]) && rep[r][blk] > 0 {
			class[q] = int(rep[r][blk]) - 1
			continue
		}
		class[q] = q
		reps = append(reps, q)
		for r, round := range rounds {
			blk := round[q]
			for int(blk) >= len(rep[r]) {
				rep[r] = append(rep[r], 0)
			}
			if rep[r][blk] == 0 {
				rep[r][blk] = int32(q) + 1
			}
		}
		if err := b.Step(int64(len(rounds))); err != nil {
			return nil, err
		}
	}
	index := make([]int, states)
	for i, q := range reps {
		index[q] = i
	}
	if err := meter.Add(int64(len(reps)) * (int64(k)*intBytes + 2*sliceBytes + 1)); err != nil {
		return nil, err
	}
	out := &DFA{Alphabet: m.Alphabet, Start: 0, States: make([]string, len(reps)), Accept: make([]bool, len(reps)),
		Delta: make([][]int, len(reps))}
	for i, q := range reps {
		out.States[i], out.Accept[i] = m.States[q], m.Accept[q]
		out.Delta[i] = make([]int, k)
		for a, s := range m.Delta[q] {
			out.Delta[i][a] = index[class[s]]
		}
	}
	return out, nil
}

// blocks is the number of blocks of a round (its ids are 0..count−1).
func blocks(round []int32) int {
	count := int32(0)
	for _, id := range round {
		count = max(count, id+1)
	}
	return int(count)
}
