package regex

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/brasp-dev/brasp/alphabet"
)

// Format writes r as a `.re` file: the alphabet line, then the expression.
// Parse reads the result back to an equal tree.
func Format(r *Regex) string {
	return "alphabet " + r.Alphabet.String() + "\n" + FormatExpr(r) + "\n"
}

// FormatExpr writes r's expression with the fewest parentheses that keep its
// tree: an operand gets parentheses when it binds looser than its operator, or
// as tightly for n-ary operators (where the parser would flatten it).
func FormatExpr(r *Regex) string {
	var b strings.Builder
	f := formatter{alpha: r.Alphabet, single: r.Alphabet.SingleChar(), b: &b}
	f.node(r.Root, 0)
	return b.String()
}

// Binding strengths, loosest first.
const (
	precUnion = 1 + iota
	precInter
	precConcat
	precCompl
	precPostfix
	precAtom
)

func prec(n *Node) int {
	switch n.Op {
	case OpUnion:
		return precUnion
	case OpInter:
		return precInter
	case OpConcat:
		return precConcat
	case OpCompl:
		return precCompl
	case OpStar, OpPlus, OpOpt:
		return precPostfix
	}
	return precAtom
}

type formatter struct {
	alpha  alphabet.Alphabet
	single bool
	b      *strings.Builder
}

// node writes n, parenthesised when its binding strength is below min.
func (f *formatter) node(n *Node, min int) {
	if prec(n) < min {
		f.b.WriteByte('(')
		defer f.b.WriteByte(')')
	}
	switch n.Op {
	case OpEmpty:
		f.b.WriteString("[]")
	case OpEpsilon:
		f.b.WriteString("()")
	case OpAny:
		f.b.WriteString(".")
	case OpSymbol:
		f.b.WriteString(f.symbol(n.Symbol))
	case OpUnion, OpInter:
		sep := " | "
		if n.Op == OpInter {
			sep = " & "
		}
		for i, s := range n.Sub {
			if i > 0 {
				f.b.WriteString(sep)
			}
			f.node(s, prec(n)+1)
		}
	case OpConcat:
		for i, s := range n.Sub {
			if i > 0 && !f.single {
				f.b.WriteByte(' ')
			}
			f.node(s, precCompl)
		}
	case OpCompl:
		f.b.WriteByte('~')
		f.node(n.Sub[0], precCompl)
	case OpStar, OpPlus, OpOpt:
		f.node(n.Sub[0], precPostfix)
		f.b.WriteString(map[Op]string{OpStar: "*", OpPlus: "+", OpOpt: "?"}[n.Op])
	}
}

// symbol writes symbol a bare when the expression lexer reads it back as that
// one symbol, quoted otherwise.
func (f *formatter) symbol(a int) string {
	s := f.alpha[a]
	bare := s != ""
	for _, r := range s {
		if !isBareSymbolRune(r) {
			bare = false
		}
	}
	if f.single && utf8.RuneCountInString(s) != 1 {
		bare = false
	}
	if bare {
		return s
	}
	return strconv.Quote(s)
}
