package automata

import "github.com/brasp-dev/brasp/budget"

// Refine returns the coarsest partition of the states 0..n−1 of the
// transitions delta (a row of k successors per state) that refines the
// classes initial and puts states with successors in the same classes
// together: the equivalence of Moore's rounds, computed by Hopcroft's
// algorithm in O(k·n·log n) instead of O(k·n) per round times up to n
// rounds. The classes are numbered by first member (class 0 holds state
// 0); count is their number. Memory and work are charged as in Minimize.
func Refine(b *budget.Budget, delta [][]int, k int, initial []int) (class []int, count int, err error) {
	meter := b.Meter(MinimizeBytes, "partition refinement")
	n := len(delta)
	if err := meter.Add(int64(k)*4*int64(2*n+1) + int64(n)*3*intBytes); err != nil {
		return nil, 0, err
	}
	all := make([]bool, n)
	for q := range all {
		all[q] = true
	}
	off, src, err := inverse(b, delta, k, all, n)
	if err != nil {
		return nil, 0, err
	}
	p := newPartitionOf(initial)
	if err := p.refine(b, meter, off, src, k); err != nil {
		return nil, 0, err
	}
	id := make([]int, p.numBlocks())
	for i := range id {
		id[i] = -1
	}
	class = make([]int, n)
	for q := range n {
		blk := p.block[q]
		if id[blk] < 0 {
			id[blk] = count
			count++
		}
		class[q] = id[blk]
	}
	return class, count, nil
}

// inverse returns the inverse transitions of delta restricted to the live
// states, by symbol: the predecessors of r on a are
// src[a][off[a][r]:off[a][r+1]].
func inverse(b *budget.Budget, delta [][]int, k int, reach []bool, live int) (off, src [][]int32, err error) {
	n := len(delta)
	off = make([][]int32, k)
	src = make([][]int32, k)
	for a := range k {
		o := make([]int32, n+1)
		for q, l := range reach {
			if l {
				o[delta[q][a]+1]++
			}
		}
		for r := range n {
			o[r+1] += o[r]
		}
		s := make([]int32, live)
		fill := append([]int32(nil), o[:n]...)
		for q, l := range reach {
			if err := b.Step(2); err != nil { // this loop and the count's
				return nil, nil, err
			}
			if l {
				r := delta[q][a]
				s[fill[r]] = int32(q)
				fill[r]++
			}
		}
		off[a], src[a] = o, s
	}
	return off, src, nil
}

// newPartitionOf returns the partition of states 0..len(class)−1 into the
// given classes (numbered densely from 0), every state live.
func newPartitionOf(class []int) *partition {
	n := len(class)
	m := 0
	for _, c := range class {
		m = max(m, c+1)
	}
	p := &partition{loc: make([]int, n), block: append([]int(nil), class...), elems: make([]int, n),
		first: make([]int, m), end: make([]int, m), mid: make([]int, m)}
	for _, c := range class {
		p.end[c]++
	}
	for c := 1; c < m; c++ {
		p.end[c] += p.end[c-1]
	}
	for c := range m {
		p.first[c] = p.end[c]
	}
	for q := n - 1; q >= 0; q-- {
		c := class[q]
		p.first[c]--
		p.elems[p.first[c]] = q
		p.loc[q] = p.first[c]
	}
	copy(p.mid, p.first)
	return p
}

// refine is Hopcroft's loop: it splits p's blocks until every block's
// predecessors on every symbol are unions of blocks, starting from the
// splitters (B, a) for every block B but a largest one.
func (p *partition) refine(b *budget.Budget, meter *budget.Meter, off, src [][]int32, k int) error {
	// The splitters: (block, symbol) pairs still to process. A block costs
	// its range (first, end, mid), its inWork flags and its share of the
	// worklist.
	blockBytes := int64(3*intBytes + k + 2*intBytes*k)
	if err := meter.Add(int64(p.numBlocks()) * blockBytes); err != nil {
		return err
	}
	var inWork []bool // inWork[b*k+a]
	var work [][2]int
	push := func(b, a int) {
		for len(inWork) < (b+1)*k {
			inWork = append(inWork, false)
		}
		if !inWork[b*k+a] {
			inWork[b*k+a] = true
			work = append(work, [2]int{b, a})
		}
	}
	largest := 0
	for blk := range p.numBlocks() {
		if p.size(blk) > p.size(largest) {
			largest = blk
		}
	}
	for blk := range p.numBlocks() {
		if blk != largest {
			for a := range k {
				push(blk, a)
			}
		}
	}
	var splitter []int
	for len(work) > 0 {
		ba := work[len(work)-1]
		work = work[:len(work)-1]
		y, a := ba[0], ba[1]
		inWork[y*k+a] = false
		// Copy the splitter: splitting y itself reorders its members.
		splitter = append(splitter[:0], p.members(y)...)
		o, s := off[a], src[a]
		for _, r := range splitter {
			// A state may have most of the states as predecessors: they
			// are charged a block at a time.
			preds := s[o[r]:o[r+1]]
			for len(preds) > 0 {
				block := preds[:min(len(preds), markBlock)]
				preds = preds[len(block):]
				for _, q := range block {
					p.mark(int(q))
				}
				if err := b.Step(int64(1 + len(block))); err != nil {
					return err
				}
			}
			if err := b.Step(1); err != nil {
				return err
			}
		}
		splits := p.split()
		if err := meter.Add(int64(len(splits)) * blockBytes); err != nil {
			return err
		}
		for _, split := range splits {
			y, z := split[0], split[1]
			for len(inWork) < (z+1)*k {
				inWork = append(inWork, false)
			}
			for c := range k {
				if inWork[y*k+c] || p.size(z) <= p.size(y) {
					push(z, c)
				} else {
					push(y, c)
				}
			}
		}
	}
	return nil
}
