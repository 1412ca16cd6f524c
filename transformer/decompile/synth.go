package decompile

import (
	"math/bits"
	"sort"
)

// Boolean synthesis: given a finite domain of points (assignments to
// Boolean input variables) and a target bit per point, find a small
// sum-of-products formula that agrees with the target on every point. Inputs
// outside the domain are don't-cares, which is what makes the decompiled
// formulas small: the domain is the set of reachable configurations
// (Lemma 4.3), not all assignments.

// lit is a literal: variable v, or its negation.
type lit struct {
	v   int
	neg bool
}

// sop is a sum of products: the disjunction of its cubes (conjunctions of
// literals), negated as a whole when negated is set. A sop with no cubes is
// false (true when negated).
type sop struct {
	cubes   [][]lit
	negated bool
}

// size is the number of literals of s, its cost.
func (s sop) size() int {
	n := 0
	for _, c := range s.cubes {
		n += len(c)
	}
	return n
}

// constSOP returns the constant b.
func constSOP(b bool) sop { return sop{negated: b} }

// maxQMVars is the largest number of selected inputs for which synthesize
// runs the exact Quine–McCluskey prime-implicant construction; above it, a
// greedy expansion of minterms against the off-set is used.
const maxQMVars = 6

// synthesize returns a small formula over the variables of points that
// equals out on every point. points[p][v] is variable v at point p. The
// caller guarantees that out is a function of the point (equal points have
// equal outputs). Variables earlier in the order are preferred on ties.
func synthesize(points [][]bool, out []bool) (sop, bool) {
	s, ok, _ := synthesizeWithin(points, out, nil)
	return s, ok
}

// synthesizeWithin is synthesize that first charges the work of the
// minterm expansion, which is quadratic in the points (their number on
// either side times the selected variables), to charge; when charge
// reports false (a limit is exceeded) it stops and reports stopped.
func synthesizeWithin(points [][]bool, out []bool, charge func(n int64) bool) (s sop, ok, stopped bool) {
	if len(points) == 0 {
		return constSOP(false), true, false
	}
	allT, allF := true, true
	for _, o := range out {
		allT = allT && o
		allF = allF && !o
	}
	if allT || allF {
		return constSOP(allT), true, false
	}
	sel, ok := selectVars(points, out)
	if !ok {
		return sop{}, false, false
	}
	pos, ok := cover(points, out, sel, false, charge)
	if !ok {
		return sop{}, true, true
	}
	neg, ok := cover(points, out, sel, true, charge)
	if !ok {
		return sop{}, true, true
	}
	if neg.size() < pos.size() {
		return neg, true, false
	}
	return pos, true, false
}

// selectVars greedily picks a small set of variables on which out is a
// function over the domain: repeatedly the variable that leaves the fewest
// conflicting pairs, then drops any that became redundant. It reports false
// if out is not a function of all the variables.
func selectVars(points [][]bool, out []bool) ([]int, bool) {
	nv := len(points[0])
	group := make([]int32, len(points))
	ngroups := 1
	var sel []int
	conflicts := func(g []int32, n int) int {
		t := make([]int, n)
		f := make([]int, n)
		for p, x := range g {
			if out[p] {
				t[x]++
			} else {
				f[x]++
			}
		}
		c := 0
		for k := range t {
			c += t[k] * f[k]
		}
		return c
	}
	cur := conflicts(group, ngroups)
	used := make([]bool, nv)
	tc := make([]int, 4*len(points)+4)
	for cur > 0 {
		best, bestC := -1, cur
		for v := range nv {
			if used[v] {
				continue
			}
			cnt := tc[:4*ngroups]
			clear(cnt)
			for p, g := range group {
				k := 2 * int(g)
				if points[p][v] {
					k++
				}
				if out[p] {
					cnt[2*k]++
				} else {
					cnt[2*k+1]++
				}
			}
			c := 0
			for k := 0; k < 2*ngroups; k++ {
				c += cnt[2*k] * cnt[2*k+1]
			}
			if c < bestC {
				best, bestC = v, c
			}
		}
		if best < 0 {
			return nil, false
		}
		used[best] = true
		sel = append(sel, best)
		renum := map[int32]int32{}
		for p, g := range group {
			k := 2 * g
			if points[p][best] {
				k++
			}
			id, ok := renum[k]
			if !ok {
				id = int32(len(renum))
				renum[k] = id
			}
			group[p] = id
		}
		ngroups = len(renum)
		cur = bestC
	}
	// Prune: drop variables whose removal keeps out a function.
	for k := len(sel) - 1; k >= 0 && len(sel) > 1; k-- {
		rest := append(append([]int(nil), sel[:k]...), sel[k+1:]...)
		if isFunction(points, out, rest) {
			sel = rest
		}
	}
	sort.Ints(sel)
	return sel, true
}

// isFunction reports whether out is determined by the variables sel.
func isFunction(points [][]bool, out []bool, sel []int) bool {
	seen := map[string]bool{}
	key := make([]byte, len(sel))
	for p := range points {
		for k, v := range sel {
			key[k] = 0
			if points[p][v] {
				key[k] = 1
			}
		}
		if o, ok := seen[string(key)]; ok {
			if o != out[p] {
				return false
			}
		} else {
			seen[string(key)] = out[p]
		}
	}
	return true
}

// cover builds a sum of products over sel covering the on-set (the points
// where out != negate) and no point of the off-set.
func cover(points [][]bool, out []bool, sel []int, negate bool, charge func(n int64) bool) (sop, bool) {
	on := map[string][]bool{}
	off := map[string][]bool{}
	for p := range points {
		pat := make([]bool, len(sel))
		key := make([]byte, len(sel))
		for k, v := range sel {
			pat[k] = points[p][v]
			if pat[k] {
				key[k] = 1
			}
		}
		if out[p] != negate {
			on[string(key)] = pat
		} else {
			off[string(key)] = pat
		}
	}
	onl, offl := sortedPatterns(on), sortedPatterns(off)
	var cubes [][]lit
	if len(sel) <= maxQMVars {
		cubes = quineMcCluskey(onl, offl, sel)
	} else {
		var ok bool
		if cubes, ok = expand(onl, offl, sel, charge); !ok {
			return sop{}, false
		}
	}
	return sop{cubes: cubes, negated: negate}, true
}

func sortedPatterns(m map[string][]bool) [][]bool {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([][]bool, len(keys))
	for i, k := range keys {
		out[i] = m[k]
	}
	return out
}

// qmCube is a cube over at most maxQMVars variables: the variables in mask
// are free, the others equal the bits of val.
type qmCube struct{ val, mask uint8 }

func (c qmCube) covers(m uint8) bool { return (m &^ c.mask) == c.val }

// quineMcCluskey computes the prime implicants of the function that is 1 on
// on, 0 on off and free elsewhere, and covers on with essential primes
// first, then greedily.
func quineMcCluskey(on, off [][]bool, sel []int) [][]lit {
	n := len(sel)
	idx := func(p []bool) uint8 {
		var m uint8
		for k, b := range p {
			if b {
				m |= 1 << k
			}
		}
		return m
	}
	isOff := make([]bool, 1<<n)
	for _, p := range off {
		isOff[idx(p)] = true
	}
	var onM []uint8
	for _, p := range on {
		onM = append(onM, idx(p))
	}
	// Level 0: every minterm not in the off-set.
	cur := map[qmCube]bool{}
	for m := 0; m < 1<<n; m++ {
		if !isOff[m] {
			cur[qmCube{val: uint8(m)}] = false
		}
	}
	var primes []qmCube
	for len(cur) > 0 {
		next := map[qmCube]bool{}
		list := make([]qmCube, 0, len(cur))
		for c := range cur {
			list = append(list, c)
		}
		for a := range list {
			for b := a + 1; b < len(list); b++ {
				x, y := list[a], list[b]
				if x.mask != y.mask {
					continue
				}
				d := x.val ^ y.val
				if bits.OnesCount8(d) != 1 {
					continue
				}
				next[qmCube{val: x.val &^ d, mask: x.mask | d}] = false
				cur[x], cur[y] = true, true
			}
		}
		for c, combined := range cur {
			if !combined {
				primes = append(primes, c)
			}
		}
		cur = next
	}
	// Widest primes first, then by mask and value: a total order, so that
	// the cover chosen (and the program printed) does not depend on the
	// order in which the map above was walked.
	sort.Slice(primes, func(a, b int) bool {
		x, y := primes[a], primes[b]
		if nx, ny := bits.OnesCount8(x.mask), bits.OnesCount8(y.mask); nx != ny {
			return nx > ny
		}
		if x.mask != y.mask {
			return x.mask < y.mask
		}
		return x.val < y.val
	})
	covered := make([]bool, len(onM))
	var chosen []qmCube
	pick := func(c qmCube) {
		chosen = append(chosen, c)
		for k, m := range onM {
			if c.covers(m) {
				covered[k] = true
			}
		}
	}
	// Essential primes.
	for k, m := range onM {
		if covered[k] {
			continue
		}
		only := -1
		for p, c := range primes {
			if c.covers(m) {
				if only >= 0 {
					only = -2
					break
				}
				only = p
			}
		}
		if only >= 0 {
			pick(primes[only])
		}
	}
	for {
		best, bestN := -1, 0
		for p, c := range primes {
			n := 0
			for k, m := range onM {
				if !covered[k] && c.covers(m) {
					n++
				}
			}
			if n > bestN {
				best, bestN = p, n
			}
		}
		if best < 0 {
			break
		}
		pick(primes[best])
	}
	out := make([][]lit, len(chosen))
	for k, c := range chosen {
		cube := []lit{}
		for b := range n {
			if c.mask&(1<<b) == 0 {
				cube = append(cube, lit{v: sel[b], neg: c.val&(1<<b) == 0})
			}
		}
		out[k] = cube
	}
	return out
}

// expand covers on without touching off by expanding each uncovered
// minterm: drop its literals one at a time while the cube still misses
// the off-set; then drop cubes that other cubes make redundant. Its work
// (quadratic in the minterms in the worst case) is charged as it goes, a
// block at a time, to charge (when not nil); it stops and reports false
// as soon as charge does.
func expand(on, off [][]bool, sel []int, charge func(n int64) bool) ([][]lit, bool) {
	type cube struct {
		care []bool
		val  []bool
	}
	var ops int64
	stopped := false
	matches := func(c cube, p []bool) bool {
		if ops += int64(len(p)); ops >= 1<<16 && charge != nil {
			stopped = stopped || !charge(ops)
			ops = 0
		}
		for k := range p {
			if c.care[k] && c.val[k] != p[k] {
				return false
			}
		}
		return true
	}
	var cubes []cube
	for _, p := range on {
		if stopped {
			return nil, false
		}
		done := false
		for _, c := range cubes {
			if matches(c, p) {
				done = true
				break
			}
		}
		if done {
			continue
		}
		c := cube{care: make([]bool, len(p)), val: append([]bool(nil), p...)}
		for k := range c.care {
			c.care[k] = true
		}
		for k := range c.care {
			c.care[k] = false
			for _, q := range off {
				if matches(c, q) {
					c.care[k] = true
					break
				}
			}
		}
		cubes = append(cubes, c)
	}
	for k := len(cubes) - 1; k >= 0; k-- {
		if stopped {
			return nil, false
		}
		redundant := true
		for _, p := range on {
			if !matches(cubes[k], p) {
				continue
			}
			other := false
			for m, c := range cubes {
				if m != k && matches(c, p) {
					other = true
					break
				}
			}
			if !other {
				redundant = false
				break
			}
		}
		if redundant {
			cubes = append(cubes[:k], cubes[k+1:]...)
		}
	}
	out := make([][]lit, len(cubes))
	for k, c := range cubes {
		cube := []lit{}
		for b := range c.care {
			if c.care[b] {
				cube = append(cube, lit{v: sel[b], neg: !c.val[b]})
			}
		}
		out[k] = cube
	}
	return out, !stopped
}
