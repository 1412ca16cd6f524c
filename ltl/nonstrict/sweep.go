package nonstrict

import (
	"math/rand/v2"
	"strings"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/exact"
	"github.com/brasp-dev/brasp/ltl"
)

// maxSweepChecks bounds the exact equivalence checks of one Sweep; past it
// the remaining subformulas are kept as they are.
var maxSweepChecks = budget.Define("nonstrict-sweep-checks", 400, "checks",
	"exact equivalence checks that merge equal subformulas of a non-strict formula")

// Sweep returns a formula that agrees with f at every position of every
// word (so it defines the same language, and uses no operator f does not)
// in which equal subformulas are merged: each subformula, bottom-up, is
// replaced by a constant, a Boolean combination of letters, an earlier
// subformula or the negation of one when it has the same truth values as
// that candidate on a sample of words (all short words and random longer
// ones) and an exact check confirms it: the minimal DFA of H(φ ↔ ψ)
// accepts every non-empty word. The rewriting's letter bookkeeping and the
// Krohn–Rhodes cascade's reset logic leave many such pairs. At most
// nonstrict-sweep-checks checks are made; f must not use Mid.
func Sweep(b *budget.Budget, f *ltl.Formula) (*ltl.Formula, error) {
	s := newSweeper(b, f)
	for _, g := range f.Nodes() {
		out, err := s.node(g)
		if err != nil {
			return nil, err
		}
		s.memo[g] = out
	}
	return s.memo[f], nil
}

type sweeper struct {
	b      *budget.Budget
	checks int64
	max    int64
	p      *ltl.Pool
	sigma  int
	words  [][]int
	traces []*ltl.Trace
	memo   map[*ltl.Formula]*ltl.Formula
	bySig  map[string][]*ltl.Formula // representatives of each signature, in the output pool
}

func newSweeper(b *budget.Budget, f *ltl.Formula) *sweeper {
	alpha := f.Alphabet()
	s := &sweeper{b: b, max: b.Max(maxSweepChecks), p: ltl.NewPool(alpha), sigma: len(alpha),
		memo: map[*ltl.Formula]*ltl.Formula{}, bySig: map[string][]*ltl.Formula{}}
	// All words up to the length where there are about 2000 of them, and
	// 64 random words of length up to 40.
	maxLen, count := 0, 1
	for count*s.sigma <= 2000 && maxLen < 12 {
		maxLen++
		count *= s.sigma
	}
	var all func(w []int)
	all = func(w []int) {
		if len(w) > 0 {
			s.words = append(s.words, append([]int(nil), w...))
		}
		if len(w) < maxLen {
			for a := range s.sigma {
				all(append(w, a))
			}
		}
	}
	all(nil)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 64 {
		w := make([]int, 1+rng.IntN(40))
		for i := range w {
			w[i] = rng.IntN(s.sigma)
		}
		s.words = append(s.words, w)
	}
	ev := ltl.NewEvaluator(f)
	for _, w := range s.words {
		s.traces = append(s.traces, ev.Evaluate(w))
	}
	return s
}

// signature is g's truth values on the sample, and whether they depend on
// the letter alone (then set is that letter set).
func (s *sweeper) signature(g *ltl.Formula) (sig string, set letterSet, byLetter bool) {
	var sb strings.Builder
	seen := make([]int8, s.sigma) // 0 unseen, 1 false, 2 true
	byLetter = true
	for k, t := range s.traces {
		for i, a := range s.words[k] {
			v := t.Value(g, i)
			c := byte('0')
			var x int8 = 1
			if v {
				c, x = '1', 2
			}
			sb.WriteByte(c)
			if seen[a] == 0 {
				seen[a] = x
			} else if seen[a] != x {
				byLetter = false
			}
		}
	}
	set = empty(s.sigma)
	for a, x := range seen {
		if x == 2 {
			set = set.or(single(s.sigma, a))
		}
	}
	return sb.String(), set, byLetter
}

func complementSig(sig string) string {
	out := []byte(sig)
	for i, c := range out {
		out[i] = '0' + '1' - c
	}
	return string(out)
}

// node returns the swept g, given its swept operands.
func (s *sweeper) node(g *ltl.Formula) (*ltl.Formula, error) {
	var x, y *ltl.Formula
	if g.X != nil {
		x = s.memo[g.X]
	}
	if g.Y != nil {
		y = s.memo[g.Y]
	}
	built := s.rebuild(g, x, y)
	if built.Op == ltl.OpTrue || built.Op == ltl.OpFalse || built.Op == ltl.OpSymbol || built.Op == ltl.OpPredicate {
		return built, nil
	}
	sig, set, byLetter := s.signature(g)
	var cands []*ltl.Formula
	if byLetter {
		cands = append(cands, s.letterFormula(set))
	}
	cands = append(cands, s.bySig[sig]...)
	if built.Op != ltl.OpNot {
		for _, m := range s.bySig[complementSig(sig)] {
			if m.Op != ltl.OpNot {
				cands = append(cands, s.p.Not(m))
			}
		}
	}
	for _, c := range cands {
		if c == built {
			return built, nil
		}
		if c.Depth() > built.Depth() {
			continue // equal, but deeper: keep the shallower one
		}
		same, err := s.equivalent(built, c)
		if err != nil {
			return nil, err
		}
		if same {
			return c, nil
		}
	}
	s.bySig[sig] = append(s.bySig[sig], built)
	return built, nil
}

// rebuild makes g's operator on the swept operands, with the pool's
// constant folding.
func (s *sweeper) rebuild(g, x, y *ltl.Formula) *ltl.Formula {
	p := s.p
	switch g.Op {
	case ltl.OpTrue, ltl.OpFalse:
		return p.Const(g.Op == ltl.OpTrue)
	case ltl.OpSymbol:
		return p.Symbol(g.Symbol)
	case ltl.OpPredicate:
		return p.Predicate(g.Pred)
	case ltl.OpNot:
		return p.Not(x)
	case ltl.OpAnd:
		return p.And(x, y)
	case ltl.OpOr:
		return p.Or(x, y)
	case ltl.OpImplies:
		return p.Implies(x, y)
	case ltl.OpIff:
		return p.Iff(x, y)
	}
	return p.Temporal(g.Op, x, y)
}

// letterFormula is the disjunction of the letters of set (a constant when
// it is empty or full).
func (s *sweeper) letterFormula(set letterSet) *ltl.Formula {
	switch set.count() {
	case 0:
		return s.p.False()
	case s.sigma:
		return s.p.True()
	}
	pos, neg := s.p.False(), s.p.False()
	for a := range s.sigma {
		if set.has(a) {
			pos = s.p.Or(pos, s.p.Symbol(a))
		} else {
			neg = s.p.Or(neg, s.p.Symbol(a))
		}
	}
	if 2*set.count() <= s.sigma {
		return pos
	}
	return s.p.Not(neg)
}

// equivalent decides exactly whether x and y agree at every position of
// every non-empty word. Past the check limit it answers no.
func (s *sweeper) equivalent(x, y *ltl.Formula) (bool, error) {
	if s.checks >= s.max {
		return false, s.b.Err()
	}
	s.checks++
	if err := s.b.Step(int64(x.DAGSize() + y.DAGSize())); err != nil {
		return false, err
	}
	d, err := exact.FormulaDFA(s.b, s.p.Temporal(ltl.OpHistorically, s.p.Iff(x, y), nil))
	if err != nil {
		return false, nil // too large to decide: keep both
	}
	return acceptsSigmaPlus(d), nil
}

// acceptsSigmaPlus reports whether d accepts every non-empty word: every
// state reachable by a non-empty word accepts.
func acceptsSigmaPlus(d *automata.DFA) bool {
	seen := make([]bool, d.NumStates())
	var stack []int
	for _, q := range d.Delta[d.Start] {
		if !seen[q] {
			seen[q] = true
			stack = append(stack, q)
		}
	}
	for len(stack) > 0 {
		q := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !d.Accept[q] {
			return false
		}
		for _, r := range d.Delta[q] {
			if !seen[r] {
				seen[r] = true
				stack = append(stack, r)
			}
		}
	}
	return true
}

// sweepable reports whether Sweep can run on f (no Mid: no exact DFA).
func sweepable(f *ltl.Formula) bool {
	for _, g := range f.Nodes() {
		if g.Op == ltl.OpPredicate && g.Pred.Kind == brasp.Mid {
			return false
		}
	}
	return true
}
