package regex

import (
	"encoding/binary"
	"slices"
	"strconv"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
)

// regexStates bounds the derivative automaton of DFA: its distinct
// derivatives, each a state with a row of transitions.
var regexStates = budget.Define("regex-states", 100000, "states",
	"distinct derivatives of a regular expression (the states of its automaton before minimisation)")

// regexTerms bounds the hash-consing table of the derivative construction:
// the expression's own subterms (one per factor of a concatenation) and
// those its derivatives make, about 150 bytes each.
var regexTerms = budget.Define("regex-terms", 1<<22, "terms",
	"distinct subterms of a regular expression and its derivatives (about 150 bytes each)")

// Brzozowski derivatives on hash-consed terms. Terms are kept in a normal form
// by smart constructors (the "similarity" rules that make the set of
// derivatives finite): union and intersection are flattened, sorted and
// deduplicated sets with ∅ and Σ* absorbing or neutral as appropriate,
// concatenation is right-nested with ε neutral and ∅ absorbing, r** = r*,
// ()* = []* = (), and ~~r = r. Two terms are the same iff they have the same
// id.
//
// Symbols are sets: a term of kind kSet matches one symbol of a sorted list,
// or (neg) any symbol not in it, and the symbol sets of a union or an
// intersection merge into one set term. So "." over a 10,000-symbol
// alphabet is one term (the complement of the empty list), not a union of
// 10,000 symbols whose every derivative would visit each of them. The
// derivatives of a term by two symbols that no set of the term lists are the
// same term (each membership test answers the same for both), so a state's
// row of transitions takes one derivative per listed symbol and one for all
// the others (see row): the alphabet classes of Owens, Reppy and Turon,
// "Regular-expression derivatives re-examined" (2009), in their simplest
// form.

type termKind uint8

const (
	kEmpty termKind = iota
	kEps
	kSet
	kCat
	kStar
	kUnion
	kInter
	kCompl
)

type term struct {
	kind     termKind
	sub      []int // child ids: kCat (2), kStar/kCompl (1), kUnion/kInter (≥ 2, sorted); kSet: its symbols, sorted
	neg      bool  // kSet: the symbols not in sub
	nullable bool
}

// terms is a hash-consing table of terms with memoised derivatives. Every
// term made and every term a walk visits is charged to the budget; the
// first error (a limit, or the budget's context cancelled) is kept in err,
// after which the operations return ∅ and DFA returns the error.
type terms struct {
	list  []term
	index map[string]int
	small map[[3]int32]int32
	deriv map[[2]int]int
	k     int // alphabet size
	empty int
	eps   int
	all   int // Σ* = ~∅
	b     *budget.Budget
	meter *budget.Meter // regex-terms
	err   error
}

// step charges n units of work to the budget.
func (t *terms) step(n int64) {
	if t.err == nil {
		t.err = t.b.Step(n)
	}
}

func newTerms(b *budget.Budget, k int) *terms {
	t := &terms{index: map[string]int{}, small: map[[3]int32]int32{}, deriv: map[[2]int]int{}, k: k, b: b,
		meter: b.Meter(regexTerms, "the terms of the derivative automaton")}
	t.empty = t.intern(term{kind: kEmpty})
	t.eps = t.intern(term{kind: kEps, nullable: true})
	t.all = t.compl(t.empty)
	return t
}

// intern returns the id of x, made if new. Terms of at most two operands
// (concatenations, stars, complements, single symbols: nearly all of them)
// are keyed by three integers; the others by their operands packed in a
// string.
func (t *terms) intern(x term) int {
	var key string
	var small [3]int32
	if len(x.sub) <= 2 {
		small[0] = int32(x.kind) | int32(len(x.sub))<<8
		if x.neg {
			small[0] |= 1 << 16
		}
		for i, s := range x.sub {
			small[1+i] = int32(s)
		}
		if id, ok := t.small[small]; ok {
			return int(id)
		}
	} else {
		buf := make([]byte, 0, 2+4*len(x.sub))
		buf = append(buf, byte(x.kind))
		if x.neg {
			buf = append(buf, '^')
		}
		for _, s := range x.sub {
			buf = binary.AppendUvarint(buf, uint64(s))
		}
		key = string(buf)
		if id, ok := t.index[key]; ok {
			return id
		}
	}
	if t.err == nil {
		t.err = t.meter.Add(1)
	}
	t.step(int64(len(x.sub)))
	t.list = append(t.list, x)
	id := len(t.list) - 1
	if len(x.sub) <= 2 {
		t.small[small] = int32(id)
	} else {
		t.index[key] = id
	}
	return id
}

func (t *terms) sym(a int) int { return t.set([]int{a}, false) }

// set returns the term matching one symbol of syms (sorted, without
// duplicates), or with neg one symbol not in syms.
func (t *terms) set(syms []int, neg bool) int {
	switch {
	case !neg && len(syms) == 0, neg && len(syms) == t.k:
		return t.empty
	case !neg && len(syms) == t.k:
		syms, neg = nil, true
	}
	return t.intern(term{kind: kSet, sub: syms, neg: neg})
}

// mergeSets combines set terms into one by union (or intersection, inter).
// With P the listed sets and ~N the complemented ones, a union is ∪P, or
// ~(∩N ∖ ∪P) when some are complemented; an intersection is ∩P ∖ ∪N, or
// ~(∪N) when all are complemented. Lists are gathered before they are
// sorted once, so merging n singletons costs O(n log n), not O(n²).
func (t *terms) mergeSets(ids []int, inter bool) int {
	var listed, negs [][]int
	for _, id := range ids {
		if x := t.list[id]; x.neg {
			negs = append(negs, x.sub)
		} else {
			listed = append(listed, x.sub)
		}
	}
	all := func(lists [][]int) []int { // their union
		var out []int
		for _, l := range lists {
			out = append(out, l...)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	common := func(lists [][]int) []int { // their intersection
		out := lists[0]
		for _, l := range lists[1:] {
			out = intersect(out, l)
		}
		return out
	}
	switch {
	case !inter && len(negs) == 0:
		return t.set(all(listed), false)
	case !inter:
		return t.set(subtract(common(negs), all(listed)), true)
	case len(listed) == 0:
		return t.set(all(negs), true)
	}
	return t.set(subtract(common(listed), all(negs)), false)
}

func intersect(x, y []int) []int {
	var out []int
	for i, j := 0, 0; i < len(x) && j < len(y); {
		switch {
		case x[i] < y[j]:
			i++
		case y[j] < x[i]:
			j++
		default:
			out = append(out, x[i])
			i++
			j++
		}
	}
	return out
}

// subtract is x∖y.
func subtract(x, y []int) []int {
	var out []int
	j := 0
	for _, a := range x {
		for j < len(y) && y[j] < a {
			j++
		}
		if j == len(y) || y[j] != a {
			out = append(out, a)
		}
	}
	return out
}

func (t *terms) cat(x, y int) int {
	switch {
	case x == t.empty || y == t.empty:
		return t.empty
	case x == t.eps:
		return y
	case y == t.eps:
		return x
	}
	// (r s) y = r (s y): y goes to the end of x's chain, which is rebuilt
	// from its end, without recursion (a chain is as long as a
	// concatenation of the expression).
	var heads []int
	for t.list[x].kind == kCat {
		heads = append(heads, t.list[x].sub[0])
		x = t.list[x].sub[1]
	}
	r := t.link(x, y)
	for i := len(heads) - 1; i >= 0; i-- {
		r = t.link(heads[i], r)
	}
	return r
}

// link is the concatenation x y of terms in normal form, x neither ∅, ε
// nor a concatenation and y not ∅.
func (t *terms) link(x, y int) int {
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
	var flat, sets []int
	add := func(x int) {
		if t.list[x].kind == kSet {
			sets = append(sets, x)
		} else {
			flat = append(flat, x)
		}
	}
	for _, x := range xs {
		if t.list[x].kind == kind {
			for _, y := range t.list[x].sub {
				add(y)
			}
		} else {
			add(x)
		}
	}
	if len(sets) > 0 {
		flat = append(flat, t.mergeSets(sets, kind == kInter))
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
	case kSet:
		d = t.empty
		if _, in := slices.BinarySearch(tx.sub, a); in != tx.neg {
			d = t.eps
		}
	case kCat:
		// d(h r) = d(h) r ∪ d(r) when h is nullable. Without recursion on
		// the chain (it is as long as a concatenation): down the chain
		// while its heads are nullable, to a derivative known or made
		// without the rest, then back up, each suffix's derivative
		// memoised on the way.
		var chain []int
		y := x
		for {
			ty := t.list[y]
			if ty.kind != kCat {
				d = t.derivative(y, a)
				break
			}
			if y != x {
				if dy, ok := t.deriv[[2]int{y, a}]; ok {
					d = dy
					break
				}
			}
			h := ty.sub[0]
			if !t.list[h].nullable {
				d = t.cat(t.derivative(h, a), ty.sub[1])
				break
			}
			chain = append(chain, y)
			y = ty.sub[1]
			t.step(1)
		}
		for i := len(chain) - 1; i >= 0 && t.err == nil; i-- {
			ty := t.list[chain[i]]
			d = t.union(t.cat(t.derivative(ty.sub[0], a), ty.sub[1]), d)
			if i > 0 {
				t.deriv[[2]int{chain[i], a}] = d
			}
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
		return t.set(nil, true)
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

// row returns the derivatives of x by every symbol: one derivative per
// symbol that a set of x lists, and one shared by all the others.
func (t *terms) row(x int) []int {
	listed := t.listed(x)
	row := make([]int, t.k)
	other := -1
	j := 0
	for a := range row {
		if j < len(listed) && listed[j] == a {
			row[a] = t.derivative(x, a)
			j++
			continue
		}
		if other < 0 {
			other = t.derivative(x, a)
		}
		row[a] = other
	}
	return row
}

// listed returns the symbols that the derivatives of x look at, sorted:
// those of the set terms that derivative reaches from x (the head of a
// concatenation, and its rest only when the head is nullable). The
// derivatives of x by two symbols outside this list are the same term, as
// every membership test derivative makes answers the same for both. The
// walk visits the front of x, not all of it: a concatenation of millions
// of symbols has one symbol in front, where listing every set under it
// made each state of its automaton cost the whole expression.
func (t *terms) listed(x int) []int {
	seen := map[int]bool{x: true}
	var syms []int
	stack := []int{x}
	push := func(z int) {
		if !seen[z] {
			seen[z] = true
			stack = append(stack, z)
		}
	}
	for len(stack) > 0 && t.err == nil {
		y := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		t.step(1)
		switch ty := t.list[y]; ty.kind {
		case kSet:
			syms = append(syms, ty.sub...)
		case kCat:
			push(ty.sub[0])
			if t.list[ty.sub[0]].nullable {
				push(ty.sub[1])
			}
		default:
			for _, z := range ty.sub {
				push(z)
			}
		}
	}
	slices.Sort(syms)
	return slices.Compact(syms)
}

// DFA compiles r to its minimal complete DFA by exploring the derivatives of
// the expression breadth-first. It stops with the budget's error when more
// than the budget's regex-states distinct derivatives are reachable, or when
// the budget's context is cancelled.
// The DFA accepts ε iff the expression matches ε.
//
// An expression whose shape alone shows more derivatives than regex-states
// (leadingWordStates) is refused before its terms are built.
func (r *Regex) DFA(b *budget.Budget) (*automata.DFA, error) {
	if n := leadingWordStates(r.Root, len(r.Alphabet)); n > b.Max(regexStates) {
		return nil, b.Check(regexStates, n, "the derivative automaton")
	}
	d, err := r.derivatives(b)
	if err != nil {
		return nil, err
	}
	return automata.Minimize(b, d)
}

// derivatives is the automaton of the distinct derivatives of r, one
// state per derivative, before minimisation.
func (r *Regex) derivatives(b *budget.Budget) (*automata.DFA, error) {
	maxStates := b.Max(regexStates)
	t := newTerms(b, len(r.Alphabet))
	start := t.fromNode(r.Root)
	if t.err != nil {
		return nil, t.err
	}
	index := map[int]int{start: 0}
	order := []int{start}
	d := &automata.DFA{Alphabet: r.Alphabet}
	for i := 0; i < len(order); i++ {
		x := order[i]
		row := t.row(x)
		if t.err != nil {
			return nil, t.err
		}
		for a, y := range row {
			if err := b.Step(1); err != nil {
				return nil, err
			}
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
	return d, nil
}

// leadingWordStates is a lower bound on the distinct derivatives of an
// expression, read from its tree before any term is built: an expression
// x1 x2 … xn whose first k factors are symbols or "." (after flattening
// parentheses, ε factors dropped) and whose every factor surely denotes a
// non-empty language has at least k+1: its derivatives by the k prefixes
// of a word of those symbols are the chains x(i+1) … xn, of different
// lengths, so distinct terms. Under ~ the count is the same (the
// derivatives are the complements of those); under * it is k (the chains
// followed by the star, the last of which, when the front is all of x, is
// the star itself). It is 1 when the tree has no such front. DFA refuses an
// expression whose bound passes regex-states before it builds its terms:
// a concatenation of ten million symbols is refused in the time it takes
// to read it, not after building millions of terms.
func leadingWordStates(n *Node, k int) int64 {
	starred := false
	for depth := 0; (n.Op == OpCompl || n.Op == OpStar) && depth <= MaxNesting; depth++ {
		starred = starred || n.Op == OpStar
		n = n.Sub[0]
	}
	front, leading := int64(0), true
	ok := true
	var walk func(x *Node, depth int)
	walk = func(x *Node, depth int) {
		switch {
		case !ok:
		case x.Op == OpConcat && depth <= MaxNesting:
			for _, s := range x.Sub {
				walk(s, depth+1)
			}
		case x.Op == OpEpsilon:
		case (x.Op == OpSymbol || x.Op == OpAny && k > 0) && leading:
			front++
		default:
			leading = false
			ok = nonEmpty(x, k, depth)
		}
	}
	walk(n, 0)
	switch {
	case !ok:
		return 1
	case starred:
		// x* reads x's whole front back to x* itself.
		return max(1, front)
	}
	return front + 1
}

// nonEmpty reports whether x surely denotes a non-empty language (false
// when it cannot tell without building terms: an intersection, a
// complement).
func nonEmpty(x *Node, k, depth int) bool {
	if depth > MaxNesting {
		return false
	}
	switch x.Op {
	case OpSymbol, OpEpsilon, OpStar, OpOpt:
		return true
	case OpAny:
		return k > 0
	case OpPlus:
		return nonEmpty(x.Sub[0], k, depth+1)
	case OpConcat:
		for _, s := range x.Sub {
			if !nonEmpty(s, k, depth+1) {
				return false
			}
		}
		return true
	case OpUnion:
		for _, s := range x.Sub {
			if nonEmpty(s, k, depth+1) {
				return true
			}
		}
	}
	return false
}
