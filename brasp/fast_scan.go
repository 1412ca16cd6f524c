package brasp

import (
	"math/bits"

	"github.com/brasp-dev/brasp/position"
)

// attend computes attention operation op into out.
func (r *Runner) attend(op *fastOp, out []uint64) {
	if len(op.atoms) == 0 {
		r.attendGroup(op, nil, out)
		return
	}
	// Split the positions by the values of the i-atoms, one level per atom,
	// pruning empty groups.
	need := len(op.atoms) + 1
	for len(r.levels) < need {
		r.levels = append(r.levels, nil)
	}
	for k := range need {
		if cap(r.levels[k]) < r.nw {
			r.levels[k] = make([]uint64, r.nw)
		}
		r.levels[k] = r.levels[k][:r.nw]
	}
	all := r.levels[0]
	for k := range all {
		all[k] = ^uint64(0)
	}
	all[r.nw-1] = r.tail
	r.split(op, 0, out)
}

func (r *Runner) split(op *fastOp, level int, out []uint64) {
	g := r.levels[level]
	if level == len(op.atoms) {
		r.attendGroup(op, g, out)
		return
	}
	atom, child := r.bits[op.atoms[level]], r.levels[level+1]
	for _, val := range []bool{true, false} {
		var any uint64
		if val {
			for k := range child {
				child[k] = g[k] & atom[k]
				any |= child[k]
			}
		} else {
			for k := range child {
				child[k] = g[k] &^ atom[k]
				any |= child[k]
			}
		}
		if any != 0 {
			r.params[level] = val
			r.split(op, level+1, out)
		}
	}
}

// chunk3 evaluates op's score, value and default on the words lo…hi-1
// and returns them with group g's words there (nil for all positions) and
// the mask of the positions the last of them holds.
func (r *Runner) chunk3(op *fastOp, g []uint64, lo, hi int) (s, v, d, gc []uint64, tm uint64) {
	s = r.eval(op.s, lo, hi, nil)
	v = r.eval(op.v, lo, hi, nil)
	d = r.eval(op.d, lo, hi, nil)
	tm = ^uint64(0)
	if hi == r.nw {
		tm = r.tail
	}
	if g != nil {
		gc = g[lo:hi]
	}
	return s, v, d, gc, tm
}

// attendGroup computes op on the positions of group g (nil: all positions),
// writing them into out and leaving the other positions of out unchanged.
func (r *Runner) attendGroup(op *fastOp, g, out []uint64) {
	switch op.kernel {
	case kernelForward:
		var carry, seen uint64
		for lo := 0; lo < r.nw; lo += r.chunk {
			hi := min(lo+r.chunk, r.nw)
			s, v, d, gc, tm := r.chunk3(op, g, lo, hi)
			carry, seen = scanForward(s, v, d, gc, out[lo:hi], tm, op.strict, carry, seen)
		}
	case kernelBackward:
		var carry, seen uint64
		for hi := r.nw; hi > 0; {
			lo := max(0, hi-r.chunk)
			// Chunks end at multiples of r.chunk from the start, except
			// the first one processed, so that they match the forward ones.
			if hi == r.nw {
				lo = (r.nw - 1) / r.chunk * r.chunk
			}
			s, v, d, gc, tm := r.chunk3(op, g, lo, hi)
			carry, seen = scanBackward(s, v, d, gc, out[lo:hi], tm, op.strict, carry, seen)
			hi = lo
		}
	default:
		r.attendThreshold(op, g, out)
	}
}

// attendThreshold handles the kernels where j_i is the first (or last)
// position f with score 1, for every i whose mask allows f.
func (r *Runner) attendThreshold(op *fastOp, g, out []uint64) {
	f := -1
	if op.kernel == kernelFirst {
		for lo := 0; lo < r.nw && f < 0; lo += r.chunk {
			hi := min(lo+r.chunk, r.nw)
			s := r.eval(op.s, lo, hi, nil)
			for k, x := range s {
				if lo+k == r.nw-1 {
					x &= r.tail
				}
				if x != 0 {
					f = (lo+k)*64 + bits.TrailingZeros64(x)
					break
				}
			}
		}
	} else {
		for hi := r.nw; hi > 0 && f < 0; {
			lo := max(0, hi-r.chunk)
			s := r.eval(op.s, lo, hi, nil)
			for k := len(s) - 1; k >= 0; k-- {
				x := s[k]
				if lo+k == r.nw-1 {
					x &= r.tail
				}
				if x != 0 {
					f = (lo+k)*64 + 63 - bits.LeadingZeros64(x)
					break
				}
			}
			hi = lo
		}
	}
	// Positions [from, to) read f; the others take the default.
	from, to := 0, 0
	var val uint64
	if f >= 0 {
		from, to = 0, r.n
		switch op.cond {
		case position.MaskFuture:
			from = f + 1
		case position.MaskFutureOrSelf:
			from = f
		case position.MaskPast:
			to = f
		case position.MaskPastOrSelf:
			to = f + 1
		}
		v := r.eval(op.v, f>>6, f>>6+1, nil)
		val = -(v[0] >> (uint(f) & 63) & 1)
	}
	for lo := 0; lo < r.nw; lo += r.chunk {
		hi := min(lo+r.chunk, r.nw)
		d := r.eval(op.d, lo, hi, nil)
		o := out[lo:hi]
		for k := range o {
			w := lo + k
			in := geMask(w, from) &^ geMask(w, to)
			x := in&val | d[k]&^in
			if g != nil {
				x = o[k]&^g[w] | x&g[w]
			}
			o[k] = x
		}
	}
}

// geMask returns the bits of word w whose positions are at least t.
func geMask(w, t int) uint64 {
	t -= w * 64
	switch {
	case t <= 0:
		return ^uint64(0)
	case t >= 64:
		return 0
	}
	return ^(1<<uint(t) - 1)
}

// scanForward is the kernel of rightmost attention with mask j<i (strict)
// or j<=i, on one chunk: out = the value at the nearest score position
// before i (or at i), or the default where there is none. The latch
// L[p] = g[p] | (pass[p] & L[p-1]), with g = S & V and pass = ^S, is the
// carry chain of a + g with a = g | pass: the carry into bit p is L[p-1].
// carry and seen (any score position so far, as all ones) carry the state
// from chunk to chunk. tm masks the last word of s (the tail of the word).
// g, if not nil, restricts the positions of out written.
func scanForward(s, v, d, g, out []uint64, tm uint64, strict bool, carry, seen uint64) (uint64, uint64) {
	n := len(out)
	s, v, d = s[:n], v[:n], d[:n]
	for k := range out {
		sk := s[k]
		if k == n-1 {
			sk &= tm
		}
		gk := sk & v[k]
		a := gk | ^sk
		sum, cout := bits.Add64(a, gk, carry)
		c := sum ^ a ^ gk // carry into each bit: L[p-1]
		carry = cout
		low := sk & -sk
		var l, h uint64
		if strict {
			l, h = c, seen|^(low<<1-1)
		} else {
			l, h = gk|c&^sk, seen|^(low-1)
		}
		if sk != 0 {
			seen = ^uint64(0)
		}
		x := l | d[k]&^h
		if g != nil {
			x = out[k]&^g[k] | x&g[k]
		}
		out[k] = x
	}
	return carry, seen
}

// scanBackward is the mirror of scanForward for leftmost attention with
// mask i<j (strict) or i<=j: words are processed from the last to the first,
// bit-reversed, so that the carry runs from later positions to earlier ones.
func scanBackward(s, v, d, g, out []uint64, tm uint64, strict bool, carry, seen uint64) (uint64, uint64) {
	n := len(out)
	s, v, d = s[:n], v[:n], d[:n]
	for k := n - 1; k >= 0; k-- {
		sk := s[k]
		if k == n-1 {
			sk &= tm
		}
		sr := bits.Reverse64(sk)
		gr := sr & bits.Reverse64(v[k])
		a := gr | ^sr
		sum, cout := bits.Add64(a, gr, carry)
		c := sum ^ a ^ gr
		carry = cout
		l := c
		if !strict {
			l = gr | c&^sr
		}
		// h: positions with a score position after (or at) them.
		h := seen
		if sk != 0 {
			hb := uint64(1) << uint(63-bits.LeadingZeros64(sk))
			if strict {
				h |= hb - 1
			} else {
				h |= hb<<1 - 1
			}
			seen = ^uint64(0)
		}
		x := bits.Reverse64(l) | d[k]&^h
		if g != nil {
			x = out[k]&^g[k] | x&g[k]
		}
		out[k] = x
	}
	return carry, seen
}
