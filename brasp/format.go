package brasp

import (
	"strings"

	"github.com/brasp-dev/brasp/alphabet"
)

// Format prints p in B-RASP syntax, one operation per line. The output parses
// back to the same program (Parse(Format(p)) has the same vectors, the same
// expressions and the same output), and stays within the web simulator's
// syntax whenever p uses no extension.
func Format(p *Program) string {
	var b strings.Builder
	if p.Props != nil {
		b.WriteString(FormatPropositions(p.Props))
		b.WriteByte('\n')
	}
	for _, v := range p.Vectors {
		if v.Kind == PropositionVector {
			continue // declared by the propositions line
		}
		b.WriteString(FormatVector(v))
		b.WriteByte('\n')
	}
	if p.Output.Explicit || p.IsTransducer() || p.Output.Accept != p.defaultOutput() {
		b.WriteString(formatOutput(p))
		b.WriteByte('\n')
	}
	return b.String()
}

// defaultOutput is the vector an output line may omit: the last line, a
// declaration or an operation (the web simulator's rule).
func (p *Program) defaultOutput() int { return len(p.Vectors) - 1 }

func formatOutput(p *Program) string {
	if !p.IsTransducer() {
		return "output " + QuoteName(p.Vectors[p.Output.Accept].Name)
	}
	parts := []string{"output"}
	for k, s := range p.Output.Symbols {
		parts = append(parts, alphabet.Quote(s)+":"+QuoteName(p.Vectors[p.Output.Vectors[k]].Name))
	}
	return strings.Join(parts, " ")
}

// FormatPropositions prints the propositions line declaring props.
func FormatPropositions(props []string) string {
	var b strings.Builder
	b.WriteString("propositions")
	for _, p := range props {
		b.WriteByte(' ')
		b.WriteString(QuoteName(p))
	}
	return b.String()
}

// FormatVector prints the line that defines v.
func FormatVector(v *Vector) string {
	head := QuoteName(v.Name) + "(i)"
	switch v.Kind {
	case PositionwiseVector:
		return head + " := " + FormatExpr(v.Expr)
	case AttentionVector:
		return head + " := " + FormatAttention(v.Att)
	}
	return head
}

// FormatAttention prints an attention operation's right-hand side.
func FormatAttention(a *Attention) string {
	return a.Tiebreak.String() + " [" + a.Mask.Predicate() + ", " + FormatExpr(a.Score) + "] " +
		FormatExpr(a.Value) + " : " + FormatExpr(a.Default)
}

// FormatExpr prints e with the parentheses its structure needs (! binds
// tightest, then &, then |, both left-associative), plus parentheses around
// a conjunction inside a disjunction, as the paper writes them.
func FormatExpr(e Expr) string {
	var b strings.Builder
	writeExpr(&b, e, ctxTop)
	return b.String()
}

// exprContext is where an expression appears, which decides its parentheses.
type exprContext uint8

const (
	ctxTop exprContext = iota
	ctxOrLeft
	ctxOrRight
	ctxAndLeft
	ctxAndRight
	ctxUnary
)

func writeExpr(b *strings.Builder, e Expr, ctx exprContext) {
	switch e := e.(type) {
	case *Literal:
		if e.Value {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	case *Ref:
		b.WriteString(QuoteName(e.Name))
		b.WriteByte('(')
		b.WriteString(e.Var.String())
		b.WriteByte(')')
	case *UnaryExpr:
		b.WriteByte('!')
		writeExpr(b, e.X, ctxUnary)
	case *BinaryExpr:
		var paren bool
		left, right := ctxOrLeft, ctxOrRight
		if e.Op == AND {
			paren = ctx != ctxTop && ctx != ctxAndLeft
			left, right = ctxAndLeft, ctxAndRight
		} else {
			paren = ctx != ctxTop && ctx != ctxOrLeft
		}
		if paren {
			b.WriteByte('(')
		}
		writeExpr(b, e.X, left)
		b.WriteString(" " + e.Op.String() + " ")
		writeExpr(b, e.Y, right)
		if paren {
			b.WriteByte(')')
		}
	}
}
