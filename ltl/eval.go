package ltl

import (
	"math/bits"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/internal/bitwise"
)

// Trace holds the truth value of every subformula of a formula at every
// position of one word: one bit vector per DAG node, so evaluation takes time
// and space linear in n·|φ| where |φ| is the DAG size.
type Trace struct {
	n      int
	ev     *Evaluator
	values []bitvec // indexed like ev.nodes
}

// Evaluator evaluates one formula on many words; it computes the formula's
// node order once. It is safe for concurrent use.
type Evaluator struct {
	f     *Formula
	nodes []*Formula
	index map[*Formula]int
	x, y  []int // operand indices into nodes, -1 if none
	// lastUse[k] is the index of the last node that reads node k (k itself
	// if none does): after it, Accepts reuses node k's storage.
	lastUse []int
}

// NewEvaluator prepares f for evaluation.
func NewEvaluator(f *Formula) *Evaluator {
	e := &Evaluator{f: f, nodes: f.Nodes(), index: map[*Formula]int{}}
	for k, g := range e.nodes {
		e.index[g] = k
	}
	e.x = make([]int, len(e.nodes))
	e.y = make([]int, len(e.nodes))
	for k, g := range e.nodes {
		e.x[k], e.y[k] = -1, -1
		if g.X != nil {
			e.x[k] = e.index[g.X]
		}
		if g.Y != nil {
			e.y[k] = e.index[g.Y]
		}
	}
	e.lastUse = make([]int, len(e.nodes))
	for k := range e.nodes {
		e.lastUse[k] = k
		for _, op := range []int{e.x[k], e.y[k]} {
			if op >= 0 {
				e.lastUse[op] = k
			}
		}
	}
	return e
}

// Accepts reports whether w, n ⊨ f for the evaluator's formula f; the empty
// word is rejected. Unlike Evaluate it keeps only the vectors still to be
// read, so its memory is n bits times the largest number of subformulas
// live at once, not times the DAG size.
func (e *Evaluator) Accepts(w []int) bool { return accepts(e, w) }

// AcceptsBytes is Accepts for a word stored a byte per symbol (an alphabet
// of at most 256 symbols), so that a long word costs a byte per symbol.
func (e *Evaluator) AcceptsBytes(w []byte) bool { return accepts(e, w) }

func accepts[S symbolIndex](e *Evaluator, w []S) bool {
	if len(w) == 0 {
		return false
	}
	t := run(e, w, false)
	return t.values[len(e.nodes)-1].get(len(w) - 1)
}

// symbolIndex is how a word stores its symbol indices: ints, or a byte per
// symbol.
type symbolIndex interface{ ~int | ~byte }

// bitvec is a Boolean vector over positions 0..n-1, 64 per word.
type bitvec []uint64

func (b bitvec) get(i int) bool { return b[i>>6]>>(uint(i)&63)&1 != 0 }
func (b bitvec) set(i int)      { b[i>>6] |= 1 << (uint(i) & 63) }

// Len is the length of the word the trace was computed on.
func (t *Trace) Len() int { return t.n }

// Value reports whether w, i ⊨ g for a subformula g of the evaluated formula
// and a 0-based position i.
func (t *Trace) Value(g *Formula, i int) bool {
	k, ok := t.ev.index[g]
	if !ok {
		panic("ltl: Trace.Value of a formula that was not evaluated")
	}
	return t.values[k].get(i)
}

// Accepts reports whether the non-empty word w (symbol indices into f's
// alphabet) is in the language of f: w, n ⊨ f. The empty word is rejected.
func Accepts(f *Formula, w []int) bool {
	return NewEvaluator(f).Accepts(w)
}

// Evaluate computes the truth of every subformula of f at every position of
// w. Symbols outside the alphabet are false for every symbol atom.
func Evaluate(f *Formula, w []int) *Trace { return NewEvaluator(f).Evaluate(w) }

// Evaluate computes the truth of every subformula at every position of w.
func (e *Evaluator) Evaluate(w []int) *Trace { return run(e, w, true) }

// run evaluates the nodes in topological order. With keepAll it stores every
// vector in one allocation; otherwise it recycles a vector once its last
// reader is done.
func run[S symbolIndex](e *Evaluator, w []S, keepAll bool) *Trace {
	n := len(w)
	words := (n + 63) / 64
	t := &Trace{n: n, ev: e, values: make([]bitvec, len(e.nodes))}
	// tail masks off the bits beyond n in the last word.
	tail := ^uint64(0)
	if n%64 != 0 {
		tail = 1<<(uint(n)%64) - 1
	}
	var backing []uint64
	if keepAll {
		backing = make([]uint64, words*len(e.nodes))
	}
	var free []bitvec
	alloc := func() bitvec {
		if len(free) == 0 {
			return make(bitvec, words)
		}
		v := free[len(free)-1]
		free = free[:len(free)-1]
		clear(v)
		return v
	}
	f := e.f
	var symbols []bitvec // one vector per symbol, made on first use
	for k, g := range e.nodes {
		var v bitvec
		if keepAll {
			v = backing[k*words : (k+1)*words : (k+1)*words]
		} else {
			v = alloc()
		}
		var x, y bitvec
		if e.x[k] >= 0 {
			x = t.values[e.x[k]]
		}
		if e.y[k] >= 0 {
			y = t.values[e.y[k]]
		}
		switch g.Op {
		case OpFalse:
		case OpTrue:
			fillOnes(v)
		case OpSymbol:
			if symbols == nil {
				symbols = symbolBits(w, len(f.Alphabet()), words)
			}
			copy(v, symbols[g.Symbol])
		case OpPredicate:
			predicateBits(v, g.Pred, n)
		case OpNot, OpAnd, OpOr, OpImplies, OpIff:
			bitwise.Apply(connectives[g.Op], v, x, y)
		case OpNext, OpWeakNext:
			// v(i) = x(i+1): shift towards lower positions.
			bitwise.ShiftDown(v, x)
			if g.Op == OpWeakNext && n > 0 {
				v.set(n - 1)
			} else if n > 0 {
				v[words-1] &^= 1 << (uint(n-1) & 63)
			}
		case OpYesterday, OpWeakYesterday:
			// v(i) = x(i-1): shift towards higher positions.
			bitwise.ShiftUp(v, x)
			if n > 0 {
				v[0] &^= 1
				if g.Op == OpWeakYesterday {
					v[0] |= 1
				}
			}
		case OpSince:
			sinceScan(v, x, y, true)
		case OpSinceNS:
			sinceScan(v, x, y, false)
		case OpUntil:
			untilScan(v, x, y, true)
		case OpUntilNS:
			untilScan(v, x, y, false)
		case OpOnce, OpEventually:
			orScan(v, x, g.Op == OpEventually)
		case OpHistorically, OpGlobally:
			// ¬(once/eventually ¬x); the complement is cut at n so that a
			// backward scan starts at the last position.
			neg := alloc()
			for k := range neg {
				neg[k] = ^x[k]
			}
			if words > 0 {
				neg[words-1] &= tail
			}
			orScan(v, neg, g.Op == OpGlobally)
			for k := range v {
				v[k] = ^v[k]
			}
			free = append(free, neg)
		}
		if words > 0 {
			v[words-1] &= tail
		}
		t.values[k] = v
		if !keepAll {
			for _, op := range []int{e.x[k], e.y[k]} {
				if op >= 0 && e.lastUse[op] == k && t.values[op] != nil {
					free = append(free, t.values[op])
					t.values[op] = nil
				}
			}
		}
	}
	return t
}

// orScan sets v(i) = ∨_{j≤i} x(j) (forward) or v(i) = ∨_{j≥i} x(j)
// (backward, where x must be zero beyond n), a word at a time: v keeps its
// zeros up to the first set bit of x in the scan's direction, and is all
// ones from there on.
func orScan(v, x bitvec, backward bool) {
	n := len(v)
	for s := 0; s < n; s++ {
		k := s
		if backward {
			k = n - 1 - s
		}
		word := x[k]
		if word == 0 {
			continue
		}
		if backward {
			v[k] = ^uint64(0) >> uint(bits.LeadingZeros64(word))
			fillOnes(v[:k])
		} else {
			v[k] = ^uint64(0) << uint(bits.TrailingZeros64(word))
			fillOnes(v[k+1:])
		}
		return
	}
}

func fillOnes(v bitvec) {
	for k := range v {
		v[k] = ^uint64(0)
	}
}

// symbolBits returns one bit vector per symbol: bit i of vector s is set iff
// w_i = s. Symbols out of range set nothing.
func symbolBits[S symbolIndex](w []S, alpha, words int) []bitvec {
	backing := make([]uint64, alpha*words)
	out := make([]bitvec, alpha)
	for s := range out {
		out[s] = backing[s*words : (s+1)*words : (s+1)*words]
	}
	if alpha > 8 {
		for i, s := range w {
			if uint(s) < uint(alpha) {
				out[s][i>>6] |= 1 << (uint(i) & 63)
			}
		}
		return out
	}
	// Small alphabets: build each machine word in registers.
	for k := 0; k < words; k++ {
		var acc [8]uint64
		block := w[k*64 : min(k*64+64, len(w))]
		for b, s := range block {
			if uint(s) < uint(alpha) {
				acc[s&7] |= 1 << uint(b)
			}
		}
		for s := 0; s < alpha; s++ {
			out[s][k] = acc[s]
		}
	}
	return out
}

// predicateBits sets the positions (0-based, n of them) where p holds.
func predicateBits(v bitvec, p Predicate, n int) {
	if n == 0 {
		return
	}
	switch p.Kind {
	case brasp.Periodic:
		for i := 1; i <= n; i++ {
			if p.Table.Holds(i) {
				v.set(i - 1)
			}
		}
	case brasp.First:
		v.set(0)
	case brasp.Last:
		v.set(n - 1)
	case brasp.Mid:
		if n%2 == 1 {
			v.set(n / 2)
		}
	case brasp.Mod:
		// 1-based i ≡ R (mod M): 0-based positions R-1, R-1+M, ...
		start := p.R - 1
		if start < 0 {
			start += p.M
		}
		for i := start; i < n; i += p.M {
			v.set(i)
		}
	}
}

// sinceScan computes φ since ψ (strict) or φ S ψ (non-strict) a machine word
// at a time. The recurrence s(i+1) = ψ(i) ∨ (φ(i) ∧ s(i)) is a carry chain
// with generate ψ and propagate φ, so one 64-bit addition computes 64
// positions: with A = ψ|φ and B = ψ, the carry into bit i of A+B+carry-in is
// the strict since at i, and the carry out of bit i the non-strict one.
func sinceScan(v, x, y bitvec, strict bool) {
	var carry uint64
	for k := range v {
		a, b := y[k]|x[k], y[k]
		sum, out := bits.Add64(a, b, carry)
		carries := sum ^ a ^ b // bit i: carry into bit i
		if strict {
			v[k] = carries
		} else {
			v[k] = carries>>1 | out<<63
		}
		carry = out
	}
}

// untilScan is sinceScan in the other direction: the words are taken from
// the last to the first and bit-reversed, so that the carry runs from later
// to earlier positions. Bits beyond the word's end are zero in x and y and
// so neither generate nor propagate.
func untilScan(v, x, y bitvec, strict bool) {
	var carry uint64
	for k := len(v) - 1; k >= 0; k-- {
		xr, yr := bits.Reverse64(x[k]), bits.Reverse64(y[k])
		a, b := yr|xr, yr
		sum, out := bits.Add64(a, b, carry)
		carries := sum ^ a ^ b
		if strict {
			v[k] = bits.Reverse64(carries)
		} else {
			v[k] = bits.Reverse64(carries>>1 | out<<63)
		}
		carry = out
	}
}

// connectives are the Boolean operators as bit-parallel connectives.
var connectives = map[Op]bitwise.Op{OpNot: bitwise.Not, OpAnd: bitwise.And, OpOr: bitwise.Or, OpImplies: bitwise.Implies, OpIff: bitwise.Iff}
