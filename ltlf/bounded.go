package ltlf

import (
	"strconv"
	"strings"
)

// MaxBound bounds the numbers of Spot's bounded operators X[n], F[n:m] and
// G[n:m], each of which unfolds into O(m) subformulas.
const MaxBound = 1 << 14

// bounded parses the operand of Spot's bounded operators, whose bracket b
// follows the operator op (X, F or G), and unfolds them as Spot defines
// them (the syntactic sugar of Spot's temporal-logic manual):
//
//	X[n] φ      X X … X φ                       (n times X)
//	F[n:m] φ    X[n](φ | X(φ | … X φ))          (m−n more X)
//	G[n:m] φ    X[n](φ & X(φ & … X φ))
//	F[n:] φ     X[n] F φ      (also F[n:$], F[n:inf])
//	G[n:] φ     X[n] G φ
//
// X is the dialect's next (Spot's weak X); a "!" at either end of the
// bracket (X[!n], X[n!], F[n:m!], G[!n:m]) uses the strong next X[!]
// instead, as after X[!] (X[!][n]). The result is the unfolded formula: the
// printer writes runs of X as X[k] and the rest with plain operators, and it
// reads back the same.
func (p *parser) bounded(op, b token, strong bool) int32 {
	text := b.text
	if s, ok := strings.CutPrefix(text, "!"); ok {
		text, strong = s, true
	} else if s, ok := strings.CutSuffix(text, "!"); ok {
		text, strong = s, true
	}
	num := func(s string) int {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || strconv.Itoa(n) != s {
			p.fail(b.pos, "%s[%s]: %q is not a number", op.text, b.text, s)
		}
		if n > MaxBound {
			p.fail(b.pos, "%s[%s]: bound %d is more than MaxBound = %d", op.text, b.text, n, MaxBound)
		}
		return n
	}
	lo, hi, unbounded := 0, 0, false
	if op.text == "X" {
		if strings.Contains(text, ":") {
			p.fail(b.pos, "X[%s]: X takes one number, X[n]", b.text)
		}
		lo = num(text)
	} else {
		l, h, ok := strings.Cut(text, ":")
		if !ok {
			p.fail(b.pos, "%s[%s]: expected %s[n:m] or %s[n:]", op.text, b.text, op.text, op.text)
		}
		lo = num(l)
		switch h {
		case "", "$", "inf":
			unbounded = true
		default:
			hi = num(h)
			if hi < lo {
				p.fail(b.pos, "%s[%s]: the upper bound %d is below the lower bound %d", op.text, b.text, hi, lo)
			}
		}
	}
	// The unfolding nests about twice per step of F[n:m] and G[n:m] when
	// printed: count that against MaxNesting, so that what is read prints
	// and reads back.
	if depth := p.nesting + 2*(hi-lo); depth > p.opts.MaxNesting {
		p.errs.AddErr(p.file, b.pos, ErrNesting, "%v: %s[%s] unfolds %d levels deep, more than %d (limit MaxNesting)",
			ErrNesting, op.text, b.text, depth, p.opts.MaxNesting)
		panic(bailout{})
	}
	next := WeakNext
	if strong {
		next = Next
	}
	x := p.unary()
	var body int32
	switch {
	case op.text == "X":
		body = x
	case unbounded:
		body = p.f.Mk(map[string]Op{"F": Finally, "G": Globally}[op.text], x, 0)
	default:
		join := map[string]Op{"F": Or, "G": And}[op.text]
		body = x
		for range hi - lo {
			body = p.f.Mk(join, x, p.f.Mk(next, body, 0))
		}
	}
	for range lo {
		body = p.f.Mk(next, body, 0)
	}
	return body
}
