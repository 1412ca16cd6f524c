package regex

import (
	"slices"
	"strconv"
	"strings"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
)

// regexStates bounds the derivative automaton of DFA: its distinct
// derivatives, each a state with a row of transitions.
var regexStates = budget.Define("regex-states", 100000, "states",
	"distinct derivatives of a regular expression (the states of its automaton before minimisation)")

// Brzozowski derivatives on hash-consed terms. Terms are kept in a normal form
// by smart constructors (the "similarity" rules that make the set of
// derivatives finite): union and intersection are flattened, sorted and
// deduplicated sets with ∅ and Σ* absorbing or neutral as appropriate,
// concatenation is right-nested with ε neutral and ∅ absorbing, r** = r*,
// ()* = []* = (), and ~~r = r. Two terms are the same iff they have the same
// id.

type termKind uint8

const (
	kEmpty termKind = iota
	kEps
	kSym
	kCat
	kStar
	kUnion
	kInter
	kCompl
)

type term struct {
	kind     termKind
	sym      int
	sub      []int // child ids: kCat (2), kStar/kCompl (1), kUnion/kInter (≥ 2, sorted)
	nullable bool
}

// terms is a hash-consing table of terms with memoised derivatives.
type terms struct {
	list  []term
	index map[string]int
	deriv map[[2]int]int
	k     int // alphabet size
	empty int
	eps   int
	all   int // Σ* = ~∅
}

func newTerms(k int) *terms {
	t := &terms{index: map[string]int{}, deriv: map[[2]int]int{}, k: k}
	t.empty = t.intern(term{kind: kEmpty})
	t.eps = t.intern(term{kind: kEps, nullable: true})
	t.all = t.compl(t.empty)
	return t
}

func (t *terms) intern(x term) int {
	var b strings.Builder
	b.WriteByte(byte('0' + x.kind))
	b.WriteString(strconv.Itoa(x.sym))
	for _, s := range x.sub {
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(s))
	}
	key := b.String()
	if id, ok := t.index[key]; ok {
		return id
	}
	t.list = append(t.list, x)
	t.index[key] = len(t.list) - 1
	return len(t.list) - 1
}

func (t *terms) sym(a int) int { return t.intern(term{kind: kSym, sym: a}) }

func (t *terms) cat(x, y int) int {
	switch {
	case x == t.empty || y == t.empty:
		return t.empty
	case x == t.eps:
		return y
	case y == t.eps:
		return x
	}
	if tx := t.list[x]; tx.kind == kCat { // (r s) y = r (s y)
		return t.cat(tx.sub[0], t.cat(tx.sub[1], y))
	}
	return t.intern(term{kind: kCat, sub: []int{x, y}, nullable: t.list[x].nullable && t.list[y].nullable})
}

func (t *terms) star(x int) int {
	switch {
	case x == t.empty || x == t.eps:
		return t.eps
	case t.list[x].kind == kStar:
		return x
	}
	return t.intern(term{kind: kStar, sub: []int{x}, nullable: true})
}

func (t *terms) compl(x int) int {
	if t.list[x].kind == kCompl {
		return t.list[x].sub[0]
	}
	return t.intern(term{kind: kCompl, sub: []int{x}, nullable: !t.list[x].nullable})
}

// union and inter build the normalised n-ary set operations.
func (t *terms) union(xs ...int) int { return t.setOp(kUnion, xs) }
func (t *terms) inter(xs ...int) int { return t.setOp(kInter, xs) }

func (t *terms) setOp(kind termKind, xs []int) int {
	neutral, absorbing := t.empty, t.all
	if kind == kInter {
		neutral, absorbing = t.all, t.empty
	}
	var flat []int
	for _, x := range xs {
		if t.list[x].kind == kind {
			flat = append(flat, t.list[x].sub...)
		} else {
			flat = append(flat, x)
		}
	}
	slices.Sort(flat)
	flat = slices.Compact(flat)
	out := flat[:0]
	for _, x := range flat {
		if x == absorbing {
			return absorbing
		}
		if x != neutral {
			out = append(out, x)
		}
	}
	switch len(out) {
	case 0:
		return neutral
	case 1:
		return out[0]
	}
	nullable := kind == kInter
	for _, x := range out {
		if kind == kUnion {
			nullable = nullable || t.list[x].nullable
		} else {
			nullable = nullable && t.list[x].nullable
		}
	}
	return t.intern(term{kind: kind, sub: slices.Clone(out), nullable: nullable})
}

// derivative returns the Brzozowski derivative of term x by symbol a.
func (t *terms) derivative(x, a int) int {
	if d, ok := t.deriv[[2]int{x, a}]; ok {
		return d
	}
	tx := t.list[x]
	var d int
	switch tx.kind {
	case kEmpty, kEps:
		d = t.empty
	case kSym:
		d = t.empty
		if tx.sym == a {
			d = t.eps
		}
	case kCat:
		d = t.cat(t.derivative(tx.sub[0], a), tx.sub[1])
		if t.list[tx.sub[0]].nullable {
			d = t.union(d, t.derivative(tx.sub[1], a))
		}
	case kStar:
		d = t.cat(t.derivative(tx.sub[0], a), x)
	case kUnion, kInter:
		ds := make([]int, len(tx.sub))
		for i, s := range tx.sub {
			ds[i] = t.derivative(s, a)
		}
		d = t.setOp(tx.kind, ds)
	case kCompl:
		d = t.compl(t.derivative(tx.sub[0], a))
	}
	t.deriv[[2]int{x, a}] = d
	return d
}

// fromNode converts a syntax tree to a term.
func (t *terms) fromNode(n *Node) int {
	subs := make([]int, len(n.Sub))
	for i, s := range n.Sub {
		subs[i] = t.fromNode(s)
	}
	switch n.Op {
	case OpEmpty:
		return t.empty
	case OpEpsilon:
		return t.eps
	case OpSymbol:
		return t.sym(n.Symbol)
	case OpAny:
		syms := make([]int, t.k)
		for a := range syms {
			syms[a] = t.sym(a)
		}
		return t.union(syms...)
	case OpConcat:
		x := subs[len(subs)-1]
		for i := len(subs) - 2; i >= 0; i-- {
			x = t.cat(subs[i], x)
		}
		return x
	case OpUnion:
		return t.union(subs...)
	case OpInter:
		return t.inter(subs...)
	case OpStar:
		return t.star(subs[0])
	case OpPlus:
		return t.cat(subs[0], t.star(subs[0]))
	case OpOpt:
		return t.union(t.eps, subs[0])
	case OpCompl:
		return t.compl(subs[0])
	}
	panic("regex: unknown operator " + strconv.Itoa(int(n.Op)))
}

// DFA compiles r to its minimal complete DFA by exploring the derivatives of
// the expression breadth-first. It stops with the budget's error when more
// than the budget's regex-states distinct derivatives are reachable, or when
// the budget's context is cancelled.
// The DFA accepts ε iff the expression matches ε.
func (r *Regex) DFA(b *budget.Budget) (*automata.DFA, error) {
	maxStates := b.Max(regexStates)
	t := newTerms(len(r.Alphabet))
	start := t.fromNode(r.Root)
	index := map[int]int{start: 0}
	order := []int{start}
	d := &automata.DFA{Alphabet: r.Alphabet}
	for i := 0; i < len(order); i++ {
		x := order[i]
		row := make([]int, len(r.Alphabet))
		for a := range r.Alphabet {
			if err := b.Step(1); err != nil {
				return nil, err
			}
			y := t.derivative(x, a)
			j, ok := index[y]
			if !ok {
				if int64(len(order)) >= maxStates {
					return nil, b.Check(regexStates, int64(len(order))+1, "the derivative automaton")
				}
				j = len(order)
				index[y] = j
				order = append(order, y)
			}
			row[a] = j
		}
		d.Delta = append(d.Delta, row)
		d.Accept = append(d.Accept, t.list[x].nullable)
		d.States = append(d.States, "d"+strconv.Itoa(i))
	}
	return automata.Minimize(d), nil
}
