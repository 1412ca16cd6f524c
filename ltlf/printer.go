package ltlf

import (
	"fmt"
	"strings"
)

// Spot's precedence levels, loosest first.
const (
	precImplies = 1 + iota // -> <->
	precOr                 // |
	precXor                // xor
	precAnd                // &
	precBinary             // U R W M S
	precUnary              // ! X F G ...
	precAtom
)

func prec(op Op) int {
	switch op {
	case Implies, Equiv:
		return precImplies
	case Or:
		return precOr
	case Xor:
		return precXor
	case And:
		return precAnd
	case Until, Release, WeakUntil, StrongRelease, Since:
		return precBinary
	case True, False, Prop:
		return precAtom
	}
	return precUnary
}

// String writes the formula in Spot's syntax (X weak, X[!] strong), with
// the parentheses that syntax needs and no others. Parse reads it back to
// the same formula (in the Spot dialect, with the same propositions when
// every proposition occurs; Format also keeps unused ones).
func (f *Formula) String() string {
	var b strings.Builder
	f.write(&b, f.Root, 0)
	return b.String()
}

// Format writes the formula as an .ltlf source: a propositions line, then
// the formula in Spot's syntax.
func (f *Formula) Format() string {
	var b strings.Builder
	b.WriteString("propositions")
	for _, p := range f.Props {
		b.WriteByte(' ')
		b.WriteString(QuoteProp(p))
	}
	b.WriteByte('\n')
	if f.EmptyTrace {
		b.WriteString("semantics empty_trace\n")
	}
	f.write(&b, f.Root, 0)
	b.WriteByte('\n')
	return b.String()
}

// NodeString writes the subformula at node i.
func (f *Formula) NodeString(i int32) string {
	var b strings.Builder
	f.write(&b, i, 0)
	return b.String()
}

// QuoteProp writes a proposition name bare when Spot's syntax reads it back
// as that proposition, and double-quoted otherwise.
func QuoteProp(s string) string {
	if bareProp(s) {
		return s
	}
	return `"` + s + `"`
}

func bareProp(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentRune(s[i]) {
			return false
		}
	}
	p := parser{dialect: Spot}
	return !p.keyword(s) && s != "propositions" && s != "dialect"
}

func (f *Formula) write(b *strings.Builder, i int32, ctx int) {
	n := f.Nodes[i]
	pr := prec(n.Op)
	if pr < ctx {
		b.WriteByte('(')
		defer b.WriteByte(')')
	}
	switch n.Op {
	case True:
		b.WriteString("true")
	case False:
		b.WriteString("false")
	case Prop:
		b.WriteString(QuoteProp(f.Props[n.A]))
	case Not:
		b.WriteByte('!')
		f.write(b, n.A, precUnary)
	case Next, WeakNext:
		// A run of k ≥ 2 equal nexts is Spot's X[k] (X[k!] if strong),
		// k at most MaxBound, which the parser reads back: a longer run
		// is written as several.
		k, x := 1, n.A
		for f.Nodes[x].Op == n.Op && k < MaxBound {
			k, x = k+1, f.Nodes[x].A
		}
		switch {
		case k == 1:
			b.WriteString(n.Op.String())
		case n.Op == Next:
			fmt.Fprintf(b, "X[%d!]", k)
		default:
			fmt.Fprintf(b, "X[%d]", k)
		}
		b.WriteByte(' ')
		f.write(b, x, precUnary)
	case Finally, Globally, Yesterday, WeakYesterday, Once, Historically:
		b.WriteString(n.Op.String())
		b.WriteByte(' ')
		f.write(b, n.A, precUnary)
	case Implies, Equiv, Until, Release, WeakUntil, StrongRelease, Since: // right-associative
		f.write(b, n.A, pr+1)
		b.WriteString(" " + n.Op.String() + " ")
		f.write(b, n.B, pr)
	default: // & | xor: left-associative
		f.write(b, n.A, pr)
		b.WriteString(" " + n.Op.String() + " ")
		f.write(b, n.B, pr+1)
	}
}
