package regex

import (
	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/source"
)

// Op is the operator of a Node.
type Op int

// The operators of the expression syntax.
const (
	OpEmpty   Op = iota // [] : the empty language
	OpEpsilon           // () : the empty word
	OpSymbol            // a single symbol, Node.Symbol
	OpAny               // . : any one symbol
	OpConcat            // Sub[0] Sub[1] … (n ≥ 2)
	OpUnion             // Sub[0] | Sub[1] | … (n ≥ 2)
	OpInter             // Sub[0] & Sub[1] & … (n ≥ 2)
	OpStar              // Sub[0]*
	OpPlus              // Sub[0]+
	OpOpt               // Sub[0]?
	OpCompl             // ~Sub[0]
)

// Node is one node of an expression's syntax tree. Parenthesised
// subexpressions stay nested, so printing and parsing again gives the same
// tree. The parser makes one node per symbol of the alphabet, shared by
// the symbol's occurrences (at the position of the first), so a tree is
// read, never changed in place.
type Node struct {
	Op     Op
	Symbol int     // the symbol index, for OpSymbol
	Sub    []*Node // operands
	Pos    source.Pos
}

// Regex is a regular expression over a named alphabet, the central type of
// this package.
type Regex struct {
	Alphabet alphabet.Alphabet
	Root     *Node
}

// Sym returns the node for symbol index a.
func Sym(a int) *Node { return &Node{Op: OpSymbol, Symbol: a} }

// Epsilon returns the node for the empty word.
func Epsilon() *Node { return &Node{Op: OpEpsilon} }

// EmptySet returns the node for the empty language.
func EmptySet() *Node { return &Node{Op: OpEmpty} }

// Concat, Union and Inter return n-ary nodes; with one operand they return it.
func Concat(xs ...*Node) *Node { return nary(OpConcat, xs) }

// Union returns the union of xs (see Concat).
func Union(xs ...*Node) *Node { return nary(OpUnion, xs) }

// Inter returns the intersection of xs (see Concat).
func Inter(xs ...*Node) *Node { return nary(OpInter, xs) }

// Star, Plus, Opt and Compl return the unary nodes.
func Star(x *Node) *Node { return &Node{Op: OpStar, Sub: []*Node{x}} }

// Plus returns x+.
func Plus(x *Node) *Node { return &Node{Op: OpPlus, Sub: []*Node{x}} }

// Opt returns x?.
func Opt(x *Node) *Node { return &Node{Op: OpOpt, Sub: []*Node{x}} }

// Compl returns ~x.
func Compl(x *Node) *Node { return &Node{Op: OpCompl, Sub: []*Node{x}} }

func nary(op Op, xs []*Node) *Node {
	switch len(xs) {
	case 0:
		if op == OpConcat {
			return Epsilon()
		}
		if op == OpUnion {
			return EmptySet()
		}
		return Compl(EmptySet())
	case 1:
		return xs[0]
	}
	return &Node{Op: op, Sub: xs}
}

// Equal reports whether two trees have the same shape and symbols (positions
// are ignored).
func (n *Node) Equal(m *Node) bool {
	if n.Op != m.Op || n.Symbol != m.Symbol || len(n.Sub) != len(m.Sub) {
		return false
	}
	for i := range n.Sub {
		if !n.Sub[i].Equal(m.Sub[i]) {
			return false
		}
	}
	return true
}
