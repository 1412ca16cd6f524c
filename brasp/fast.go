package brasp

import (
	"math/bits"
	"slices"

	"github.com/brasp-dev/brasp/position"
)

// The fast interpreter. Every vector is a bitset (64 positions per uint64,
// as in Trace.Bits). A program is compiled once into a Runner: each
// expression becomes a short instruction list over bitset registers, and
// each attention operation one of four word-at-a-time scan kernels
// (fast_scan.go). Words are processed in chunks of chunkWords words, so the
// registers of an expression stay in the L1 cache and no per-position work is
// done except reading the input word.
//
// Attention (tie-break, mask) pairs map to kernels as follows, where f and l
// are the first and last positions with score 1:
//
//	leftmost  [1]           j = f for every i        kernelFirst
//	leftmost  [j<i], [j<=i] j = f if f < i (f <= i)  kernelFirst
//	rightmost [1]           j = l for every i        kernelLast
//	rightmost [i<j], [i<=j] j = l if l > i (l >= i)  kernelLast
//	rightmost [j<i], [j<=i] nearest j before i       kernelForward (carry chain)
//	leftmost  [i<j], [i<=j] nearest j after i        kernelBackward (reversed carry chain)
//
// A score or value that reads vectors at i is evaluated per group of
// positions that agree on those vectors (at most min(2^a, n) non-empty
// groups for a vectors read at i); within a group the i-references are
// constants, so score and value read only at j.

const chunkWords = 256 // words per chunk: 16384 positions, 2 KiB per register

// Runner runs one program with the fast interpreter, reusing its scratch
// memory from run to run. Its cost is linear in the word length n: O(n/64)
// word operations per operation, plus one pass over the input. An attention
// operation whose score or value reads a distinct vectors at i costs that
// much per non-empty group of positions agreeing on those vectors, at most
// min(2^a, n) groups. A Runner is not safe for concurrent use; create one
// per goroutine (Program.Run creates one per call). It compiles the program
// once: the program must not be modified afterwards.
type Runner struct {
	prog  *Program
	ops   []fastOp
	chunk int // words per chunk (chunkWords; smaller in tests)

	nbuf    int           // scratch registers needed by the largest operation
	nparams int           // most i-atoms of any attention operation
	scratch [][]uint64    // nbuf registers of chunk words each
	ones    []uint64      // chunk words of all-ones (read-only)
	zeros   []uint64      // chunk words of zeros (read-only)
	levels  [][]uint64    // group masks, one full-length bitset per split level
	params  []bool        // values of the i-atoms in the current group
	sym     [][]uint64    // per symbol, its vector in the current trace
	props   [][]uint64    // per proposition, its vector in the current trace
	compact *CompactSteps // the input of RunCompact while it runs
	bits    [][]uint64    // the trace being computed
	nw      int           // words per vector
	n       int           // word length
	tail    uint64        // valid bits of the last word
}

type kernel uint8

const (
	kernelPositionwise kernel = iota
	kernelForward
	kernelBackward
	kernelFirst
	kernelLast
	kernelInitial
)

type fastOp struct {
	kernel  kernel
	strict  bool          // kernelForward, kernelBackward: exclude j = i
	cond    position.Mask // kernelFirst, kernelLast: which positions see f or l
	expr    *bexpr
	s, v, d *bexpr
	atoms   []int // vectors read at i by the score or value
}

// NewRunner compiles p for the fast interpreter. p must be a checked program
// (from Parse or Builder.Program).
func NewRunner(p *Program) *Runner {
	r := &Runner{prog: p, ops: make([]fastOp, len(p.Vectors)), chunk: chunkWords}
	for k, v := range p.Vectors {
		op := &r.ops[k]
		switch v.Kind {
		case SymbolVector, PredicateVector, PropositionVector:
			op.kernel = kernelInitial
		case PositionwiseVector:
			op.kernel = kernelPositionwise
			op.expr = compileExpr(v.Expr, nil, 0)
			r.nbuf = max(r.nbuf, op.expr.nbuf)
		case AttentionVector:
			r.compileAttention(op, v.Att)
		}
	}
	return r
}

func (r *Runner) compileAttention(op *fastOp, a *Attention) {
	for _, e := range [2]Expr{a.Score, a.Value} {
		Walk(e, func(x Expr) {
			if ref, ok := x.(*Ref); ok && ref.Var == VarI && !slices.Contains(op.atoms, ref.Vec) {
				op.atoms = append(op.atoms, ref.Vec)
			}
		})
	}
	op.s = compileExpr(a.Score, op.atoms, 0)
	op.v = compileExpr(a.Value, op.atoms, op.s.nbuf)
	op.d = compileExpr(a.Default, nil, op.s.nbuf+op.v.nbuf)
	r.nbuf = max(r.nbuf, op.s.nbuf+op.v.nbuf+op.d.nbuf)
	r.nparams = max(r.nparams, len(op.atoms))
	switch {
	case a.Tiebreak == position.Rightmost && (a.Mask == position.MaskFuture || a.Mask == position.MaskFutureOrSelf):
		op.kernel, op.strict = kernelForward, a.Mask == position.MaskFuture
	case a.Tiebreak == position.Leftmost && (a.Mask == position.MaskPast || a.Mask == position.MaskPastOrSelf):
		op.kernel, op.strict = kernelBackward, a.Mask == position.MaskPast
	case a.Tiebreak == position.Leftmost:
		op.kernel, op.cond = kernelFirst, a.Mask
	default:
		op.kernel, op.cond = kernelLast, a.Mask
	}
}

// runFast is the linear-time interpreter behind Program.Run.
func (p *Program) runFast(w []int) *Trace { return NewRunner(p).Run(w) }

// Run runs the program on w and returns a new trace, equal to the one
// RunReference returns. Symbols of w outside the alphabet make every Q_σ
// false at their position, as in RunReference.
func (r *Runner) Run(w []int) *Trace { return r.RunInto(nil, w) }

// RunInto is Run, reusing the storage of t when t is a trace of the same
// program whose vectors have room for w (t may be nil). It returns the trace
// it filled, whose Word is w.
func (r *Runner) RunInto(t *Trace, w []int) *Trace { return r.runInto(t, w, nil, nil) }

// RunBytes is RunInto for a word stored a byte per symbol (a program over
// at most 256 symbols): the trace's Bytes is w and its Word nil, so that a
// long word costs one byte per position besides the vectors' bits.
func (r *Runner) RunBytes(t *Trace, w []byte) *Trace {
	if w == nil {
		w = []byte{}
	}
	return r.runInto(t, nil, w, nil)
}

// runInto runs the program on a word of symbols (w, or wb a byte per
// symbol) or, for a program over propositions, on a trace of steps (the
// others are nil).
func (r *Runner) runInto(t *Trace, w []int, wb []byte, steps [][]uint64) *Trace {
	n := max(len(w), len(wb), len(steps), r.compact.Len())
	nw := (n + 63) / 64
	if t == nil || t.Prog != r.prog || len(t.Bits) != len(r.prog.Vectors) || len(t.Bits) > 0 && cap(t.Bits[0]) < nw {
		t = newTraceLen(r.prog, n)
		t.Word, t.Bytes, t.Steps, t.Compact = w, wb, steps, r.compact
	} else {
		t.Word, t.Bytes, t.Steps, t.Compact = w, wb, steps, r.compact
		for v := range t.Bits {
			t.Bits[v] = t.Bits[v][:nw]
		}
	}
	r.setup(t, n)
	if nw == 0 {
		return t
	}
	r.initial(w, wb, steps)
	for k := range r.ops {
		op := &r.ops[k]
		out := r.bits[k]
		switch op.kernel {
		case kernelInitial:
			continue
		case kernelPositionwise:
			for lo := 0; lo < nw; lo += r.chunk {
				hi := min(lo+r.chunk, nw)
				r.eval(op.expr, lo, hi, out[lo:hi])
			}
		default:
			r.attend(op, out)
		}
		out[nw-1] &= r.tail
	}
	r.bits = nil
	return t
}

// setup sizes the scratch memory for a word of length n.
func (r *Runner) setup(t *Trace, n int) {
	r.bits, r.n, r.nw = t.Bits, n, (n+63)/64
	r.tail = ^uint64(0)
	if n%64 != 0 {
		r.tail = 1<<(uint(n)%64) - 1
	}
	cw := min(r.chunk, r.nw)
	if len(r.ones) < cw || len(r.ones) > r.chunk {
		r.ones = make([]uint64, cw)
		for k := range r.ones {
			r.ones[k] = ^uint64(0)
		}
		r.zeros = make([]uint64, cw)
		r.scratch = r.scratch[:0]
	}
	for len(r.scratch) < r.nbuf {
		r.scratch = append(r.scratch, make([]uint64, len(r.ones)))
	}
	if len(r.params) < r.nparams {
		r.params = make([]bool, r.nparams)
	}
}

// initial fills the symbol, proposition and predicate vectors.
func (r *Runner) initial(w []int, wb []byte, steps [][]uint64) {
	p := r.prog
	if p.Props != nil {
		r.fillPropositions(steps)
	}
	if cap(r.sym) < len(p.Alphabet) {
		r.sym = make([][]uint64, len(p.Alphabet))
	}
	sym := r.sym[:len(p.Alphabet)]
	clear(sym)
	for k, v := range p.Vectors {
		switch v.Kind {
		case SymbolVector:
			if v.Symbol >= 0 && v.Symbol < len(sym) {
				sym[v.Symbol] = r.bits[k]
			}
		case PredicateVector:
			r.predicate(v.Pred, r.bits[k])
		}
	}
	switch {
	case wb != nil:
		fillSymbols(wb, sym)
	case w == nil: // a trace of steps: no symbol anywhere
		for _, q := range sym {
			clear(q)
		}
	default:
		fillSymbols(w, sym)
	}
	clear(sym)
}

// symbolIndex is how a word stores its symbol indices: ints, or a byte per
// symbol (RunBytes).
type symbolIndex interface{ ~int | ~byte }

// fillSymbols sets bit i of sym[w[i]] for every i (sym[s] may be nil) and
// clears the other bits. Symbols out of range set nothing. Symbols are
// read 64 at a time into bit planes (bit t of every symbol), from which each
// Q_σ is a conjunction of planes; a block holding an out-of-range symbol
// takes the slow path.
func fillSymbols[S symbolIndex](w []S, sym [][]uint64) {
	na := len(sym)
	nb := bits.Len(uint(na - 1)) // bits per symbol
	if nb > 4 {
		fillSymbolsSlow(w, sym, 0, (len(w)+63)/64)
		return
	}
	for k := 0; k*64 < len(w); k++ {
		block := w[k*64 : min(k*64+64, len(w))]
		var p [4]uint64
		var or int
		switch nb {
		case 0:
			or = orBlock(block)
		case 1:
			p[0], or = planes1(block)
		case 2:
			p[0], p[1], or = planes2(block)
		default:
			p, or = planesN(block, nb)
		}
		if uint(or)>>uint(nb) != 0 {
			fillSymbolsSlow(w, sym, k, k+1)
			continue
		}
		valid := ^uint64(0)
		if len(block) < 64 {
			valid = 1<<uint(len(block)) - 1
		}
		for σ, q := range sym {
			if q == nil {
				continue
			}
			x := valid
			for t := range nb {
				if σ>>uint(t)&1 == 1 {
					x &= p[t]
				} else {
					x &^= p[t]
				}
			}
			q[k] = x
		}
	}
}

// orBlock returns the bitwise or of the symbols of block.
func orBlock[S symbolIndex](block []S) int {
	var or int
	for _, s := range block {
		or |= int(s)
	}
	return or
}

// planes1 returns bit 0 of the symbols of block (at most 64) as a bitset,
// and the bitwise or of the symbols.
func planes1[S symbolIndex](block []S) (uint64, int) {
	if len(block) == 64 {
		return planes1Full((*[64]S)(block))
	}
	var p0 uint64
	var or int
	for b, s := range block {
		or |= int(s)
		p0 |= uint64(s&1) << (uint(b) & 63)
	}
	return p0, or
}

// planes2 is planes1 for bits 0 and 1.
func planes2[S symbolIndex](block []S) (uint64, uint64, int) {
	if len(block) == 64 {
		return planes2Full((*[64]S)(block))
	}
	var p0, p1 uint64
	var or int
	for b, s := range block {
		or |= int(s)
		p0 |= uint64(s&1) << (uint(b) & 63)
		p1 |= uint64(s>>1&1) << (uint(b) & 63)
	}
	return p0, p1, or
}

// planes1Full is planes1 on a full block, unrolled eight positions at a
// time with constant shifts.
func planes1Full[S symbolIndex](block *[64]S) (uint64, int) {
	var p0 uint64
	var or int
	for g := 0; g < 64; g += 8 {
		b := block[g : g+8 : g+8]
		or |= int(b[0] | b[1] | b[2] | b[3] | b[4] | b[5] | b[6] | b[7])
		x := b[0]&1 | b[1]&1<<1 | b[2]&1<<2 | b[3]&1<<3 | b[4]&1<<4 | b[5]&1<<5 | b[6]&1<<6 | b[7]&1<<7
		p0 |= uint64(x) << uint(g)
	}
	return p0, or
}

// planes2Full is planes2 on a full block, unrolled like planes1Full.
func planes2Full[S symbolIndex](block *[64]S) (uint64, uint64, int) {
	var p0, p1 uint64
	var or int
	for g := 0; g < 64; g += 8 {
		b := block[g : g+8 : g+8]
		or |= int(b[0] | b[1] | b[2] | b[3] | b[4] | b[5] | b[6] | b[7])
		x := b[0]&1 | b[1]&1<<1 | b[2]&1<<2 | b[3]&1<<3 | b[4]&1<<4 | b[5]&1<<5 | b[6]&1<<6 | b[7]&1<<7
		y := b[0]&2>>1 | b[1]&2 | b[2]&2<<1 | b[3]&2<<2 | b[4]&2<<3 | b[5]&2<<4 | b[6]&2<<5 | b[7]&2<<6
		p0 |= uint64(x) << uint(g)
		p1 |= uint64(y) << uint(g)
	}
	return p0, p1, or
}

// planesN is planes1 for bits 0 to nb-1 (nb ≤ 4).
func planesN[S symbolIndex](block []S, nb int) ([4]uint64, int) {
	var p [4]uint64
	var or int
	for b, s := range block {
		or |= int(s)
		for t := range nb {
			p[t&3] |= uint64(s>>uint(t)&1) << (uint(b) & 63)
		}
	}
	return p, or
}

// fillSymbolsSlow is fillSymbols for words [from, to), position by position.
func fillSymbolsSlow[S symbolIndex](w []S, sym [][]uint64, from, to int) {
	for _, q := range sym {
		if q != nil {
			clear(q[from:to])
		}
	}
	for i := from * 64; i < min(to*64, len(w)); i++ {
		if s := int(w[i]); uint(s) < uint(len(sym)) && sym[s] != nil {
			sym[s][i>>6] |= 1 << (uint(i) & 63)
		}
	}
}

// predicate fills out with position predicate pr, word-parallel.
func (r *Runner) predicate(pr Predicate, out []uint64) {
	clear(out)
	n := r.n
	set := func(i int) { out[i>>6] |= 1 << (uint(i) & 63) }
	switch pr.Kind {
	case Periodic:
		for i := 1; i <= n; i++ {
			if pr.Table.Holds(i) {
				set(i - 1)
			}
		}
	case First:
		set(0)
	case Last:
		set(n - 1)
	case Mid:
		if n%2 == 1 {
			set((n - 1) / 2)
		}
	case Mod:
		m := pr.M
		// 1-based i ≡ R (mod m), that is 0-based p ≡ R-1 (mod m).
		p0 := (pr.R - 1 + m) % m
		if m > 32 {
			for p := p0; p < n; p += m {
				set(p)
			}
			break
		}
		var base uint64 // bits 0, m, 2m, ...
		for b := 0; b < 64; b += m {
			base |= 1 << uint(b)
		}
		// Word k holds positions 64k..64k+63; its first set bit is at the
		// phase ph with 64k+ph ≡ p0 (mod m), and ph advances by -64 mod m.
		ph, step := p0, (m-64%m)%m
		for k := range out {
			out[k] = base << uint(ph)
			ph += step
			if ph >= m {
				ph -= m
			}
		}
		out[len(out)-1] &= r.tail
	}
}
