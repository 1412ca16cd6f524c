package automata

// Minimize returns the minimal complete DFA of d's language: unreachable
// states are dropped and equivalent states merged by Hopcroft's partition
// refinement. States are renumbered in breadth-first order from the start
// (symbols in alphabet order), so two automata for the same language minimise
// to the same transition table; each merged state keeps the name of its
// lowest-numbered member.
func Minimize(d *DFA) *DFA {
	reach := d.Reachable()
	var live []int
	for q, ok := range reach {
		if ok {
			live = append(live, q)
		}
	}
	k := len(d.Alphabet)

	// Initial partition: accepting / rejecting live states.
	block := make([]int, d.NumStates())
	for q := range block {
		block[q] = -1
	}
	var members [][]int
	addBlock := func(qs []int) int {
		id := len(members)
		members = append(members, qs)
		for _, q := range qs {
			block[q] = id
		}
		return id
	}
	var acc, rej []int
	for _, q := range live {
		if d.Accept[q] {
			acc = append(acc, q)
		} else {
			rej = append(rej, q)
		}
	}
	inWork := map[[2]int]bool{}
	var work [][2]int
	push := func(b, a int) {
		if !inWork[[2]int{b, a}] {
			inWork[[2]int{b, a}] = true
			work = append(work, [2]int{b, a})
		}
	}
	if len(acc) > 0 {
		addBlock(acc)
	}
	if len(rej) > 0 {
		addBlock(rej)
	}
	if len(members) == 2 {
		small := 0
		if len(members[1]) < len(members[0]) {
			small = 1
		}
		for a := range k {
			push(small, a)
		}
	}

	// Inverse transitions restricted to live states.
	inv := make([][][]int, k)
	for a := range k {
		inv[a] = make([][]int, d.NumStates())
	}
	for _, q := range live {
		for a, r := range d.Delta[q] {
			inv[a][r] = append(inv[a][r], q)
		}
	}

	marked := make([]bool, d.NumStates())
	for len(work) > 0 {
		ba := work[len(work)-1]
		work = work[:len(work)-1]
		delete(inWork, ba)
		b, a := ba[0], ba[1]
		var pre []int
		for _, r := range members[b] {
			for _, q := range inv[a][r] {
				if !marked[q] {
					marked[q] = true
					pre = append(pre, q)
				}
			}
		}
		touched := map[int]bool{}
		var order []int
		for _, q := range pre {
			if !touched[block[q]] {
				touched[block[q]] = true
				order = append(order, block[q])
			}
		}
		for _, y := range order {
			var in, out []int
			for _, q := range members[y] {
				if marked[q] {
					in = append(in, q)
				} else {
					out = append(out, q)
				}
			}
			if len(out) == 0 {
				continue
			}
			members[y] = in
			z := addBlock(out)
			for c := range k {
				if inWork[[2]int{y, c}] || len(out) <= len(in) {
					push(z, c)
				} else {
					push(y, c)
				}
			}
		}
		for _, q := range pre {
			marked[q] = false
		}
	}

	// Renumber blocks breadth-first from the start.
	newID := make([]int, len(members))
	for i := range newID {
		newID[i] = -1
	}
	order := []int{block[d.Start]}
	newID[block[d.Start]] = 0
	for i := 0; i < len(order); i++ {
		q := members[order[i]][0]
		for _, r := range d.Delta[q] {
			if newID[block[r]] < 0 {
				newID[block[r]] = len(order)
				order = append(order, block[r])
			}
		}
	}
	m := &DFA{Alphabet: d.Alphabet, States: make([]string, len(order)), Accept: make([]bool, len(order)), Delta: make([][]int, len(order))}
	for i, b := range order {
		rep := members[b][0]
		for _, q := range members[b] {
			rep = min(rep, q)
		}
		m.States[i] = d.States[rep]
		m.Accept[i] = d.Accept[rep]
		m.Delta[i] = make([]int, k)
		for a, r := range d.Delta[rep] {
			m.Delta[i][a] = newID[block[r]]
		}
	}
	m.Start = 0
	return m
}
