package ltl

import (
	"strconv"
	"strings"

	"github.com/brasp-dev/brasp/alphabet"
)

// Precedence levels, loosest first, as the parser reads them.
const (
	levelLet = iota
	levelIff
	levelImplies
	levelOr
	levelAnd
	levelTemporal
	levelUnary
	levelAtom
)

// PlainLimit is the tree size up to which Format always writes a formula out
// as a plain tree. Above it, a formula whose tree is more than twice its DAG
// is written with `let` for shared subformulas, which keeps the text linear
// in the DAG size.
const PlainLimit = 100

// Format writes f so that Parse reads it back to the same DAG node: minimal
// parentheses, except that every `since` and `until` is parenthesised as a
// whole. Formulas with much sharing are written with lets (see PlainLimit
// and FormatShared).
func Format(f *Formula) string {
	if f.TreeSize() <= PlainLimit || f.TreeSize() <= 2*uint64(f.DAGSize()) {
		var b strings.Builder
		pr := printer{b: &b}
		pr.print(f, levelLet)
		return b.String()
	}
	return FormatShared(f)
}

// FormatShared writes f with one `let NAME = … in` line per subformula that
// occurs more than once in the DAG (other than atoms and negated atoms), so
// the text is linear in the DAG size.
func FormatShared(f *Formula) string {
	nodes := f.Nodes()
	parents := map[*Formula]int{}
	for _, g := range nodes {
		if g.X != nil {
			parents[g.X]++
		}
		if g.Y != nil && g.Y != g.X {
			parents[g.Y]++
		}
	}
	prefix := letPrefix(f.Alphabet())
	var b strings.Builder
	pr := printer{b: &b, names: map[*Formula]string{}}
	for _, g := range nodes {
		if g == f || parents[g] < 2 || g.Op.Arity() == 0 || (g.Op == OpNot && g.X.Op.Arity() == 0) {
			continue
		}
		name := prefix + strconv.Itoa(len(pr.names)+1)
		b.WriteString("let ")
		b.WriteString(name)
		b.WriteString(" = ")
		pr.print(g, levelLet+1)
		b.WriteString(" in\n")
		pr.names[g] = name
	}
	pr.print(f, levelLet)
	return b.String()
}

// FormatFile writes f as a .ltl file: the alphabet line, then the formula.
func FormatFile(f *Formula) string {
	return "alphabet " + f.Alphabet().String() + "\n" + Format(f) + "\n"
}

// letPrefix picks a prefix for let names that no symbol of alpha can clash
// with.
func letPrefix(alpha alphabet.Alphabet) string {
	prefix := "t"
	for {
		clash := false
		for _, s := range alpha {
			if rest, ok := strings.CutPrefix(s, prefix); ok && rest != "" && strings.Trim(rest, "0123456789") == "" {
				clash = true
			}
		}
		if !clash {
			return prefix
		}
		prefix += "_"
	}
}

// QuoteSymbol writes a symbol as it must appear in a formula: bare when it is
// a bare name and not a keyword, double-quoted otherwise.
func QuoteSymbol(s string) string {
	if alphabet.IsBare(s) && !isKeyword(s) {
		return s
	}
	return strconv.Quote(s)
}

type printer struct {
	b     *strings.Builder
	names map[*Formula]string
}

func (pr *printer) print(f *Formula, ctx int) {
	if name, ok := pr.names[f]; ok {
		pr.b.WriteString(name)
		return
	}
	var level, left, right int
	op := f.Op
	switch op {
	case OpFalse:
		pr.b.WriteString("false")
		return
	case OpTrue:
		pr.b.WriteString("true")
		return
	case OpSymbol:
		pr.b.WriteString(QuoteSymbol(f.pool.alpha[f.Symbol]))
		return
	case OpPredicate:
		pr.b.WriteString(predicateName(f.Pred))
		return
	case OpIff:
		level, left, right = levelIff, levelIff, levelImplies
	case OpImplies:
		level, left, right = levelImplies, levelOr, levelImplies
	case OpOr:
		level, left, right = levelOr, levelOr, levelAnd
	case OpAnd:
		level, left, right = levelAnd, levelAnd, levelTemporal
	case OpSince, OpUntil:
		// Always parenthesised: the paper's strict operators stand out.
		pr.b.WriteByte('(')
		pr.print(f.X, levelUnary)
		pr.b.WriteString(" " + op.String() + " ")
		pr.print(f.Y, levelTemporal)
		pr.b.WriteByte(')')
		return
	case OpSinceNS, OpUntilNS:
		level, left, right = levelTemporal, levelUnary, levelTemporal
	default: // unary
		paren := ctx > levelUnary
		if paren {
			pr.b.WriteByte('(')
		}
		pr.b.WriteString(op.String())
		if op != OpNot {
			pr.b.WriteByte(' ')
		}
		pr.print(f.X, levelUnary)
		if paren {
			pr.b.WriteByte(')')
		}
		return
	}
	paren := ctx > level
	if paren {
		pr.b.WriteByte('(')
	}
	pr.print(f.X, left)
	pr.b.WriteString(" " + op.String() + " ")
	pr.print(f.Y, right)
	if paren {
		pr.b.WriteByte(')')
	}
}

// String writes f with Format.
func (f *Formula) String() string { return Format(f) }
