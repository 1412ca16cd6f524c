package automata

import "github.com/brasp-dev/brasp/budget"

// MinimizeBytes bounds the memory of Minimize beyond the DFA it is given:
// the inverse transitions, the partition and the result.
var MinimizeBytes = budget.Define("minimize-bytes", 1<<30, "bytes",
	"memory of DFA minimisation (inverse transitions, partition, worklist and the minimal DFA)")

// markBlock is how many predecessors Minimize marks between two charges to
// the budget.
const markBlock = 1 << 12

// Minimize returns the minimal complete DFA of d's language: unreachable
// states are dropped and equivalent states merged by Hopcroft's partition
// refinement. States are renumbered in breadth-first order from the start
// (symbols in alphabet order), so two automata for the same language minimise
// to the same transition table; each merged state keeps the name of its
// lowest-numbered member.
//
// It runs in O(k·n·log n) time and O(k·n) memory for n states and k symbols
// (each split costs the states it moves, and a state moves into a block at
// most half the size of its old one O(log n) times). The memory it adds to
// d's is charged to b's minimize-bytes limit as it is allocated, and every
// state moved or inverse transition followed to b.Step, so a cancelled
// budget stops it within a few thousand steps.
func Minimize(b *budget.Budget, d *DFA) (*DFA, error) {
	meter := b.Meter(MinimizeBytes, "minimisation")
	n, k := d.NumStates(), len(d.Alphabet)
	reach := d.Reachable()
	live := 0
	for _, l := range reach {
		if l {
			live++
		}
	}
	if err := meter.Add(int64(k) * 4 * int64(n+1+live)); err != nil {
		return nil, err
	}
	off, src, err := inverse(b, d.Delta, k, reach, live)
	if err != nil {
		return nil, err
	}
	if err := meter.Add(int64(n)*2*intBytes + int64(live)*intBytes); err != nil {
		return nil, err
	}
	p := newPartition(n, reach, d.Accept)
	if err := p.refine(b, meter, off, src, k); err != nil {
		return nil, err
	}
	// The result: per state a row, a name and a flag.
	if err := meter.Add(int64(p.numBlocks()) * (int64(k)*intBytes + 2*sliceBytes + 1)); err != nil {
		return nil, err
	}
	return p.quotient(d), nil
}

// partition is a refinable partition of the live states (Valmari and
// Lehtinen's representation): each block is a contiguous range of elems,
// whose marked members are kept at the front of the range.
type partition struct {
	elems   []int // the live states, block by block
	loc     []int // loc[q]: the index of q in elems
	block   []int // block[q], -1 for dead states
	first   []int // first[b]: the start of b's range
	end     []int // end[b]: the end of b's range
	mid     []int // mid[b]: the end of b's marked members
	touched []int // the blocks with marked members
}

// newPartition returns the partition of the live states into accepting and
// rejecting ones (the accepting block first when there is one).
func newPartition(n int, live, accept []bool) *partition {
	p := &partition{loc: make([]int, n), block: make([]int, n)}
	for _, acc := range []bool{true, false} {
		start := len(p.elems)
		for q := range n {
			if live[q] && accept[q] == acc {
				p.loc[q] = len(p.elems)
				p.elems = append(p.elems, q)
			}
		}
		if len(p.elems) == start {
			continue
		}
		b := len(p.first)
		for _, q := range p.elems[start:] {
			p.block[q] = b
		}
		p.first = append(p.first, start)
		p.end = append(p.end, len(p.elems))
		p.mid = append(p.mid, start)
	}
	for q := range n {
		if !live[q] {
			p.block[q] = -1
		}
	}
	return p
}

func (p *partition) numBlocks() int      { return len(p.first) }
func (p *partition) size(b int) int      { return p.end[b] - p.first[b] }
func (p *partition) members(b int) []int { return p.elems[p.first[b]:p.end[b]] }

// mark marks state q by moving it to the marked front of its block.
func (p *partition) mark(q int) {
	b := p.block[q]
	i := p.loc[q]
	if i < p.mid[b] {
		return // already marked
	}
	if p.mid[b] == p.first[b] {
		p.touched = append(p.touched, b)
	}
	j := p.mid[b]
	r := p.elems[j]
	p.elems[i], p.elems[j] = r, q
	p.loc[q], p.loc[r] = j, i
	p.mid[b]++
}

// split splits every touched block whose members are not all marked into
// its marked part (a new block) and the rest, unmarks everything, and
// returns the pairs (old block, new block).
func (p *partition) split() [][2]int {
	var out [][2]int
	for _, b := range p.touched {
		m := p.mid[b]
		if m == p.end[b] {
			p.mid[b] = p.first[b]
			continue
		}
		z := len(p.first)
		p.first = append(p.first, p.first[b])
		p.end = append(p.end, m)
		p.mid = append(p.mid, p.first[b])
		for _, q := range p.elems[p.first[b]:m] {
			p.block[q] = z
		}
		p.first[b], p.mid[b] = m, m
		out = append(out, [2]int{b, z})
	}
	p.touched = p.touched[:0]
	return out
}

// quotient returns the DFA of the blocks, numbered breadth-first from the
// start, each named after its lowest-numbered member.
func (p *partition) quotient(d *DFA) *DFA {
	k := len(d.Alphabet)
	newID := make([]int, p.numBlocks())
	for i := range newID {
		newID[i] = -1
	}
	order := []int{p.block[d.Start]}
	newID[p.block[d.Start]] = 0
	for i := 0; i < len(order); i++ {
		q := p.members(order[i])[0]
		for _, r := range d.Delta[q] {
			if newID[p.block[r]] < 0 {
				newID[p.block[r]] = len(order)
				order = append(order, p.block[r])
			}
		}
	}
	m := &DFA{Alphabet: d.Alphabet, States: make([]string, len(order)), Accept: make([]bool, len(order)), Delta: make([][]int, len(order))}
	for i, b := range order {
		rep := -1
		for _, q := range p.members(b) {
			if rep < 0 || q < rep {
				rep = q
			}
		}
		m.States[i] = d.States[rep]
		m.Accept[i] = d.Accept[rep]
		m.Delta[i] = make([]int, k)
		for a, r := range d.Delta[rep] {
			m.Delta[i][a] = newID[p.block[r]]
		}
	}
	m.Start = 0
	return m
}
