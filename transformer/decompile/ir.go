package decompile

import (
	"fmt"
	"strings"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/position"
)

// ir is the program under construction: B-RASP operations whose
// references (brasp.Ref.Vec) are node indices. It is simplified as a whole
// before it becomes a brasp.Program: constants are folded, aliases and
// identical definitions merged, and dead operations dropped.
type ir struct {
	alpha alphabet.Alphabet
	props []string // the propositions of a program over propositions, or nil
	nodes []*node
	preds map[brasp.Predicate]int
}

// node is one operation of the ir.
type node struct {
	name string
	weak bool // the name is generated, not taken from the model
	kind brasp.VectorKind
	sym  int // the symbol of a symbol node, the proposition of a proposition node
	pred brasp.Predicate
	expr brasp.Expr       // position-wise
	att  *brasp.Attention // attention
}

func newIR(alpha alphabet.Alphabet) *ir {
	g := &ir{alpha: alpha, preds: map[brasp.Predicate]int{}}
	for k, s := range alpha {
		g.nodes = append(g.nodes, &node{name: brasp.SymbolVectorName(s), kind: brasp.SymbolVector, sym: k})
	}
	return g
}

// newPropsIR starts a program over the propositions props: node k is P_p
// of proposition k.
func newPropsIR(props []string) *ir {
	g := &ir{props: props, preds: map[brasp.Predicate]int{}}
	for k, p := range props {
		g.nodes = append(g.nodes, &node{name: brasp.PropositionVectorName(p), kind: brasp.PropositionVector, sym: k})
	}
	return g
}

// inputs is the number of input nodes (symbols or propositions), which
// come first.
func (g *ir) inputs() int {
	if g.props != nil {
		return len(g.props)
	}
	return len(g.alpha)
}

// pred returns the node of a position predicate, declaring it on first use.
func (g *ir) pred(p brasp.Predicate) int {
	if k, ok := g.preds[p]; ok {
		return k
	}
	g.nodes = append(g.nodes, &node{name: p.Name(), kind: brasp.PredicateVector, pred: p})
	g.preds[p] = len(g.nodes) - 1
	return len(g.nodes) - 1
}

func (g *ir) positionwise(name string, e brasp.Expr) int {
	g.nodes = append(g.nodes, &node{name: name, kind: brasp.PositionwiseVector, expr: e})
	return len(g.nodes) - 1
}

// internal is positionwise for an operation with a generated name.
func (g *ir) internal(name string, e brasp.Expr) int {
	k := g.positionwise(name, e)
	g.nodes[k].weak = true
	return k
}

func (g *ir) attend(name string, tb position.Tiebreak, m position.Mask, score, value, def brasp.Expr) int {
	g.nodes = append(g.nodes, &node{name: name, weak: true, kind: brasp.AttentionVector,
		att: &brasp.Attention{Tiebreak: tb, Mask: m, Score: score, Value: value, Default: def}})
	return len(g.nodes) - 1
}

// isInput reports whether the node is an initial vector: a symbol,
// proposition or position predicate.
func (nd *node) isInput() bool {
	return nd.kind == brasp.SymbolVector || nd.kind == brasp.PropositionVector || nd.kind == brasp.PredicateVector
}

// ref reads node k at position v.
func ref(k int, v brasp.Var) brasp.Expr { return &brasp.Ref{Var: v, Vec: k} }

// iff is x ↔ y.
func iff(x, y brasp.Expr) brasp.Expr {
	return brasp.Or(brasp.And(x, y), brasp.And(brasp.Not(x), brasp.Not(y)))
}

// canon is a canonical text for an expression over node indices.
func canon(e brasp.Expr) string {
	var b strings.Builder
	var walk func(brasp.Expr)
	walk = func(e brasp.Expr) {
		switch e := e.(type) {
		case *brasp.Literal:
			if e.Value {
				b.WriteString("1")
			} else {
				b.WriteString("0")
			}
		case *brasp.Ref:
			fmt.Fprintf(&b, "%d%s", e.Vec, e.Var)
		case *brasp.UnaryExpr:
			b.WriteString("!")
			walk(e.X)
		case *brasp.BinaryExpr:
			b.WriteString("(")
			walk(e.X)
			b.WriteString(e.Op.String())
			walk(e.Y)
			b.WriteString(")")
		}
	}
	walk(e)
	return b.String()
}

// program simplifies the ir and builds the B-RASP acceptor whose output is
// node out.
func (g *ir) program(out int) (*brasp.Program, error) {
	return g.build([]int{out}, nil)
}

// transducer simplifies the ir and builds the B-RASP transducer that
// outputs symbols[k] where node outs[k] is 1.
func (g *ir) transducer(symbols alphabet.Alphabet, outs []int) (*brasp.Program, error) {
	return g.build(outs, symbols)
}

// build simplifies the ir and builds the program whose outputs are the
// nodes outs: an acceptor (symbols nil, one output) or a transducer.
func (g *ir) build(outs []int, symbols alphabet.Alphabet) (*brasp.Program, error) {
	n := len(g.nodes)
	subst := make([]brasp.Expr, n) // replacement of a reference at i, in node indices
	sub := func(r *brasp.Ref) brasp.Expr {
		if s := subst[r.Vec]; s != nil {
			return brasp.ReadAt(s, r.Var)
		}
		return &brasp.Ref{Var: r.Var, Vec: r.Vec}
	}
	seen := map[string]int{}
	for k, nd := range g.nodes {
		switch nd.kind {
		case brasp.PositionwiseVector:
			nd.expr = brasp.Substitute(nd.expr, sub)
		case brasp.AttentionVector:
			a := nd.att
			a.Score = brasp.Substitute(a.Score, sub)
			a.Value = brasp.Substitute(a.Value, sub)
			a.Default = brasp.Substitute(a.Default, sub)
			sv, sok := brasp.LiteralValue(a.Score)
			vv, vok := brasp.LiteralValue(a.Value)
			dv, dok := brasp.LiteralValue(a.Default)
			switch {
			case sok && !sv:
				nd.kind, nd.expr, nd.att = brasp.PositionwiseVector, a.Default, nil
			case vok && dok && vv == dv:
				nd.kind, nd.expr, nd.att = brasp.PositionwiseVector, a.Default, nil
			}
		default:
			continue
		}
		var key string
		if nd.kind == brasp.PositionwiseVector {
			e := nd.expr
			switch x := e.(type) {
			case *brasp.Literal:
				subst[k] = e
				continue
			case *brasp.Ref:
				// An alias: the aliased operation takes this name if its
				// own is a generated one.
				if t := g.nodes[x.Vec]; t.weak && !nd.weak {
					t.name, t.weak = nd.name, false
				}
				subst[k] = e
				continue
			case *brasp.UnaryExpr:
				if _, ok := x.X.(*brasp.Ref); ok {
					subst[k] = e
					continue
				}
			}
			key = "p " + canon(e)
		} else {
			a := nd.att
			key = fmt.Sprintf("a %d %d %s %s %s", a.Tiebreak, a.Mask, canon(a.Score), canon(a.Value), canon(a.Default))
		}
		if m, ok := seen[key]; ok {
			subst[k] = &brasp.Ref{Var: brasp.VarI, Vec: m}
			continue
		}
		seen[key] = k
	}
	// The outputs: nodes, or expressions over nodes.
	outExprs := make([]brasp.Expr, len(outs))
	live := make([]bool, n)
	mark := func(e brasp.Expr) {
		for _, r := range brasp.Refs(e) {
			live[r.Vec] = true
		}
	}
	for k, out := range outs {
		outExprs[k] = sub(&brasp.Ref{Var: brasp.VarI, Vec: out})
		mark(outExprs[k])
	}
	for k := n - 1; k >= 0; k-- {
		if !live[k] || subst[k] != nil {
			continue
		}
		nd := g.nodes[k]
		switch nd.kind {
		case brasp.PositionwiseVector:
			mark(nd.expr)
		case brasp.AttentionVector:
			mark(nd.att.Score)
			mark(nd.att.Value)
			mark(nd.att.Default)
		}
	}
	b := brasp.NewBuilder(g.alpha)
	if g.props != nil {
		b = brasp.NewPropositionBuilder(g.props)
	}
	idx := make([]int, n)
	for k := range idx {
		idx[k] = -1
	}
	for k := range g.inputs() {
		idx[k] = k // the builder declares the inputs first, in order
	}
	rename := func(e brasp.Expr) brasp.Expr {
		return brasp.MapRefs(e, func(r *brasp.Ref) brasp.Expr { return b.At(idx[r.Vec], r.Var) })
	}
	// Position predicates first, right after the symbols, as a person would
	// declare them.
	for k, nd := range g.nodes {
		if live[k] && nd.kind == brasp.PredicateVector {
			idx[k] = b.Predicate(nd.pred)
		}
	}
	for k, nd := range g.nodes {
		if !live[k] || subst[k] != nil {
			continue
		}
		switch nd.kind {
		case brasp.SymbolVector, brasp.PropositionVector, brasp.PredicateVector:
		case brasp.PositionwiseVector:
			idx[k] = b.Positionwise(nd.name, rename(nd.expr))
		case brasp.AttentionVector:
			a := nd.att
			idx[k] = b.Attend(nd.name, a.Tiebreak, a.Mask, rename(a.Score), rename(a.Value), rename(a.Default))
		}
	}
	// An output that is an operation of its own is that operation; one that
	// is a constant, a symbol, a predicate, a negation or an operation
	// another output already names gets an operation Y (Y_γ).
	vecs := make([]int, len(outs))
	named := map[int]bool{}
	for k, e := range outExprs {
		r, isRef := e.(*brasp.Ref)
		if isRef && !named[r.Vec] && !g.nodes[r.Vec].isInput() {
			vecs[k] = idx[r.Vec]
			named[r.Vec] = true
			continue
		}
		vecs[k] = b.Positionwise(g.nodes[outs[k]].name, rename(e))
	}
	if symbols == nil {
		b.SetAccept(vecs[0])
	} else {
		b.SetTransducer(symbols, vecs)
	}
	return b.Program()
}

// sanitize turns a model label into a B-RASP name: letters, digits and
// '_' kept, '!' spelled "not_", anything else '_'.
func sanitize(label string) string {
	var b strings.Builder
	for _, c := range label {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_':
			b.WriteRune(c)
		case c == '!':
			b.WriteString("not_")
		default:
			b.WriteByte('_')
		}
	}
	s := strings.Trim(b.String(), "_")
	if s == "" {
		return ""
	}
	if s[0] >= '0' && s[0] <= '9' {
		s = "x" + s
	}
	if len(s) > 40 {
		s = s[:40]
	}
	return s
}
