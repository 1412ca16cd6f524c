package exact

import (
	"fmt"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/position"
)

// TransducerDifference is the outcome of TransducersEquivalent when two
// transducers differ: a shortest input word (first in short-lex order among
// the shortest) and the first position of it where their outputs differ.
type TransducerDifference struct {
	// Word is over the first transducer's input alphabet.
	Word []int
	// Position is the 1-based first position of Word where the outputs
	// differ.
	Position int
	// First and Second are the output symbols whose vectors are 1 at
	// Position in each transducer: one symbol where the transducer is
	// defined, none or several where it is not.
	First, Second []string
}

// TransducersEquivalent decides whether the B-RASP transducers p and q have
// the same output at every position of every non-empty word, exactly, and
// otherwise returns a shortest word and the first position where they
// differ.
//
// Outputs are compared vector by vector: at each position, for every output
// symbol γ of either transducer, p's Y_γ and q's Y_γ must agree (a symbol
// only one side outputs counts as a constant-0 vector on the other). This
// is the output word where both are defined, and also compares where they
// are undefined (no output vector, or two, is 1).
//
// The comparison is a language question: the acceptor
//
//	D(i)    := ⋁_γ (Y^p_γ(i) ≠ Y^q_γ(i))
//	Seen(i) := leftmost [j<i, D(j)] 1 : 0
//	Diff(i) := D(i) | Seen(i)
//
// accepts exactly the words on which the outputs differ somewhere, so the
// transducers are equivalent iff its minimal DFA (ProgramDFA) accepts
// nothing, and a shortest word it accepts is a shortest distinguishing
// word. Both transducers must read the same input symbols.
func TransducersEquivalent(bud *budget.Budget, p, q *brasp.Program) (*TransducerDifference, error) {
	if !p.IsTransducer() || !q.IsTransducer() {
		return nil, fmt.Errorf("comparing outputs needs two transducers")
	}
	if !sameSymbols(p.Alphabet, q.Alphabet) {
		return nil, fmt.Errorf("the transducers read different alphabets {%s} and {%s}", p.Alphabet, q.Alphabet)
	}
	diff, err := differenceAcceptor(p, q)
	if err != nil {
		return nil, err
	}
	d, err := ProgramDFA(bud, diff)
	if err != nil {
		return nil, err
	}
	none := automata.NewDFA(d.Alphabet, 1)
	dis, err := automata.Compare(bud, d, none, automata.SigmaPlus)
	if err != nil || dis == nil {
		return nil, err
	}
	return locateDifference(p, q, dis.Word)
}

func sameSymbols(a, b alphabet.Alphabet) bool {
	if len(a) != len(b) {
		return false
	}
	for _, s := range a {
		if b.Index(s) < 0 {
			return false
		}
	}
	return true
}

// outputSymbols is p's output symbols followed by q's new ones.
func outputSymbols(p, q *brasp.Program) alphabet.Alphabet {
	out := append(alphabet.Alphabet(nil), p.Output.Symbols...)
	for _, s := range q.Output.Symbols {
		if out.Index(s) < 0 {
			out = append(out, s)
		}
	}
	return out
}

// differenceAcceptor builds the acceptor Diff of TransducersEquivalent over
// p's input alphabet.
func differenceAcceptor(p, q *brasp.Program) (*brasp.Program, error) {
	b := brasp.NewBuilder(p.Alphabet)
	ip := copyInto(b, p, p.Alphabet)
	iq := copyInto(b, q, p.Alphabet)
	outVec := func(prog *brasp.Program, idx []int, s string) brasp.Expr {
		if g := prog.Output.Symbols.Index(s); g >= 0 {
			return b.I(idx[prog.Output.Vectors[g]])
		}
		return brasp.Bool(false)
	}
	var ds []brasp.Expr
	for _, s := range outputSymbols(p, q) {
		x, y := outVec(p, ip, s), outVec(q, iq, s)
		ds = append(ds, brasp.Or(brasp.And(x, brasp.Not(y)), brasp.And(brasp.Not(x), y)))
	}
	dv := b.Positionwise("D", brasp.Or(ds...))
	seen := b.Attend("Seen", position.Leftmost, position.MaskFuture, b.J(dv), brasp.Bool(true), brasp.Bool(false))
	b.SetAccept(b.Positionwise("Diff", brasp.Or(b.I(dv), b.I(seen))))
	return b.Program()
}

// copyInto adds the operations of prog to b, whose symbols are alpha (the
// same symbols as prog's, possibly in another order), and returns where
// each of prog's vectors went.
func copyInto(b *brasp.Builder, prog *brasp.Program, alpha alphabet.Alphabet) []int {
	idx := make([]int, len(prog.Vectors))
	remap := func(e brasp.Expr) brasp.Expr {
		return brasp.MapRefs(e, func(r *brasp.Ref) brasp.Expr { return b.At(idx[r.Vec], r.Var) })
	}
	for k, v := range prog.Vectors {
		switch v.Kind {
		case brasp.SymbolVector:
			idx[k] = b.SymbolVec(alpha.Index(prog.Alphabet[v.Symbol]))
		case brasp.PredicateVector:
			idx[k] = b.Predicate(v.Pred)
		case brasp.PositionwiseVector:
			idx[k] = b.Positionwise(v.Name, remap(v.Expr))
		case brasp.AttentionVector:
			a := v.Att
			idx[k] = b.Attend(v.Name, a.Tiebreak, a.Mask, remap(a.Score), remap(a.Value), remap(a.Default))
		}
	}
	return idx
}

// locateDifference runs both transducers on w (over p's alphabet) and
// returns the first position where their output vectors differ.
func locateDifference(p, q *brasp.Program, w []int) (*TransducerDifference, error) {
	wq := make([]int, len(w))
	for i, s := range w {
		wq[i] = q.Alphabet.Index(p.Alphabet[s])
	}
	tp, tq := brasp.NewRunner(p).Run(w), brasp.NewRunner(q).Run(wq)
	out := func(prog *brasp.Program, t *brasp.Trace, s string, i int) bool {
		g := prog.Output.Symbols.Index(s)
		return g >= 0 && t.Value(prog.Output.Vectors[g], i)
	}
	symbolsAt := func(prog *brasp.Program, t *brasp.Trace, i int) []string {
		got := []string{}
		for g, v := range prog.Output.Vectors {
			if t.Value(v, i) {
				got = append(got, prog.Output.Symbols[g])
			}
		}
		return got
	}
	syms := outputSymbols(p, q)
	for i := range w {
		for _, s := range syms {
			if out(p, tp, s, i) != out(q, tq, s, i) {
				return &TransducerDifference{Word: w, Position: i + 1,
					First: symbolsAt(p, tp, i), Second: symbolsAt(q, tq, i)}, nil
			}
		}
	}
	return nil, fmt.Errorf("exact: internal error: the transducers agree on %q, which the difference automaton accepts", p.Alphabet.FormatWord(w))
}
