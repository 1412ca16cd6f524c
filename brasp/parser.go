package brasp

import (
	"fmt"

	"github.com/brasp-dev/brasp/position"
)

// Limits on the size of what Parse accepts, so that hostile input fails with
// a named limit instead of exhausting the stack or memory.
const (
	// MaxNesting bounds the nesting depth of expressions (parentheses and !).
	MaxNesting = 256
	// MaxVectors bounds the number of vectors in a program.
	MaxVectors = 1 << 16
	// MaxSourceBytes bounds the size of a program's source text.
	MaxSourceBytes = 16 << 20
)

// Parse reads a program in the B-RASP web simulator's syntax, with brasp's
// extensions (see the package documentation), and checks it. All problems are
// returned together as an ErrorList whose messages read file:line:col: msg.
func Parse(filename string, src []byte) (*Program, error) {
	var errs ErrorList
	if len(src) > MaxSourceBytes {
		errs.Add(filename, Pos{}, "program is %d bytes, more than the limit MaxSourceBytes = %d", len(src), MaxSourceBytes)
		return nil, errs.Err()
	}
	p := &parser{sc: newScanner(filename, src, &errs), file: filename, errs: &errs, failed: map[string]bool{}}
	stmts := p.parseFile()
	prog := check(filename, stmts, p.failed, &errs)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return prog, nil
}

// stmtKind distinguishes the statements of the surface syntax.
type stmtKind uint8

const (
	declStmt   stmtKind = iota // NAME(i)
	assignStmt                 // NAME(i) := ...
	outputStmt                 // output NAME | output SYMBOL:NAME ...
	propsStmt                  // propositions p q ...
)

// stmt is one parsed line, before name resolution.
type stmt struct {
	kind    stmtKind
	pos     Pos
	name    string
	namePos Pos
	expr    Expr       // position-wise right-hand side
	att     *Attention // attention right-hand side
	outputs []outputPair
	props   []propName // propsStmt
}

// propName is one proposition of a propositions line.
type propName struct {
	name string
	pos  Pos
}

// outputPair is SYMBOL:NAME in a transducer output line; for an acceptor's
// output line, symbol is empty.
type outputPair struct {
	symbol    string
	symbolPos Pos
	name      string
	namePos   Pos
}

type parser struct {
	sc    *scanner
	file  string
	errs  *ErrorList
	tok   token
	pos   Pos
	text  string
	depth int
	// failed holds the names of statements that had syntax errors, so that
	// the checker does not report their uses as undefined as well.
	failed map[string]bool
	// name is the name of the statement being parsed, if read.
	name string
}

// bailout unwinds the parser to the end of the current line after an error.
type bailout struct{}

func (p *parser) next() { p.tok, p.pos, p.text = p.sc.next() }

func (p *parser) errorf(pos Pos, format string, args ...any) {
	// An illegal token has been reported by the scanner already; a second
	// message about it ("expected X, found illegal character") is noise.
	if p.tok != tIllegal {
		p.errs.Add(p.file, pos, format, args...)
	}
	panic(bailout{})
}

func (p *parser) describe() string {
	if p.tok == tName {
		return fmt.Sprintf("%q", p.text)
	}
	return p.tok.String()
}

func (p *parser) expect(t token, context string) Pos {
	pos := p.pos
	if p.tok != t {
		p.errorf(p.pos, "expected %s %s, found %s", t, context, p.describe())
	}
	p.next()
	return pos
}

// parseFile parses every line, recovering at line ends after errors.
//
//	file = { [ statement ] NEWLINE } EOF .
func (p *parser) parseFile() []*stmt {
	var out []*stmt
	p.next()
	for p.tok != tEOF {
		if p.tok == tNewline {
			p.next()
			continue
		}
		if s := p.parseLine(); s != nil {
			out = append(out, s)
		}
	}
	return out
}

// parseLine parses one statement and its line end, skipping the rest of the
// line after an error.
func (p *parser) parseLine() (s *stmt) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			s = nil
			if p.name != "" {
				p.failed[p.name] = true
			}
			for p.tok != tNewline && p.tok != tEOF {
				p.next()
			}
		}
	}()
	p.depth = 0
	p.name = ""
	s = p.parseStatement()
	if p.tok != tNewline && p.tok != tEOF {
		p.errorf(p.pos, "unexpected %s after statement (one operation per line)", p.describe())
	}
	return s
}

// parseStatement parses a declaration, an operation or an output line.
//
//	statement = NAME "(" "i" ")" [ ":=" ( attention | expr ) ]
//	          | "output" NAME
//	          | "output" SYMBOL ":" NAME { SYMBOL ":" NAME } .
func (p *parser) parseStatement() *stmt {
	if p.tok != tName {
		p.errorf(p.pos, "expected a name at the start of a statement, found %s", p.describe())
	}
	s := &stmt{pos: p.pos, name: p.text, namePos: p.pos}
	p.name = s.name
	p.next()
	if s.name == "output" && p.tok == tName {
		return p.parseOutput(s)
	}
	if s.name == "propositions" && p.tok != tLparen {
		return p.parsePropositions(s)
	}
	p.expect(tLparen, "after the name of a vector")
	if p.tok != tName || p.text != "i" {
		p.errorf(p.pos, "expected i in the definition of %s(i), found %s", QuoteName(s.name), p.describe())
	}
	p.next()
	p.expect(tRparen, "after (i")
	if p.tok != tAssign {
		s.kind = declStmt
		return s
	}
	p.next()
	s.kind = assignStmt
	if p.tok == tName && (p.text == "leftmost" || p.text == "rightmost") {
		s.att = p.parseAttention()
	} else {
		s.expr = p.parseExpr()
	}
	return s
}

// parseOutput parses the rest of an output line.
//
//	output = "output" NAME | "output" SYMBOL ":" NAME { SYMBOL ":" NAME } .
func (p *parser) parseOutput(s *stmt) *stmt {
	s.kind = outputStmt
	for p.tok == tName {
		pair := outputPair{name: p.text, namePos: p.pos}
		p.next()
		if p.tok == tColon {
			p.next()
			if p.tok != tName {
				p.errorf(p.pos, "expected a vector name after %s:, found %s", QuoteName(pair.name), p.describe())
			}
			pair = outputPair{symbol: pair.name, symbolPos: pair.namePos, name: p.text, namePos: p.pos}
			p.next()
		}
		s.outputs = append(s.outputs, pair)
	}
	if len(s.outputs) > 1 || s.outputs[0].symbol != "" {
		for _, o := range s.outputs {
			if o.symbol == "" {
				p.errorf(o.namePos, "transducer output %s needs its output symbol: write SYMBOL:%s", QuoteName(o.name), QuoteName(o.name))
			}
		}
	}
	return s
}

// parsePropositions parses the rest of a propositions line (a program may
// have no propositions: its traces' steps are all empty).
//
//	propositions = "propositions" { NAME } .
func (p *parser) parsePropositions(s *stmt) *stmt {
	s.kind = propsStmt
	for p.tok == tName {
		s.props = append(s.props, propName{name: p.text, pos: p.pos})
		p.next()
	}
	return s
}

// parseAttention parses an attention operation's right-hand side.
//
//	attention = ( "leftmost" | "rightmost" ) "[" mask "," expr "]" expr ":" expr .
func (p *parser) parseAttention() *Attention {
	a := &Attention{TiebreakPos: p.pos, Tiebreak: position.Leftmost}
	if p.text == "rightmost" {
		a.Tiebreak = position.Rightmost
	}
	p.next()
	p.expect(tLbrack, "after "+a.Tiebreak.String())
	a.MaskPos = p.pos
	a.Mask = p.parseMask()
	p.expect(tComma, "after the mask")
	a.Score = p.parseExpr()
	p.expect(tRbrack, "after the score predicate")
	a.Value = p.parseExpr()
	p.expect(tColon, "between the value and the default")
	a.Default = p.parseExpr()
	return a
}

// parseMask parses a mask predicate.
//
//	mask = "1" | VAR ( "<" | "<=" | ">" | ">=" ) VAR .   (VAR is i or j, the two different)
func (p *parser) parseMask() position.Mask {
	pos := p.pos
	if p.tok == tName && (p.text == "1" || p.text == "true") {
		p.next()
		return position.MaskNone
	}
	if p.tok != tName || (p.text != "i" && p.text != "j") {
		p.errorf(pos, "expected a mask (1, j<i, i<j, j<=i or i<=j), found %s", p.describe())
	}
	left := p.text
	p.next()
	op := p.tok
	switch op {
	case tLess, tLessEq, tGreater, tGreatEq:
	default:
		p.errorf(p.pos, "expected <, <=, > or >= in the mask, found %s", p.describe())
	}
	p.next()
	if p.tok != tName || (p.text != "i" && p.text != "j") || p.text == left {
		p.errorf(p.pos, "expected %s on the right of the mask, found %s", map[string]string{"i": "j", "j": "i"}[left], p.describe())
	}
	p.next()
	// Normalise to "j OP i".
	if left == "i" {
		op = map[token]token{tLess: tGreater, tLessEq: tGreatEq, tGreater: tLess, tGreatEq: tLessEq}[op]
	}
	switch op {
	case tLess:
		return position.MaskFuture
	case tLessEq:
		return position.MaskFutureOrSelf
	case tGreater:
		return position.MaskPast
	}
	return position.MaskPastOrSelf
}

// parseExpr parses a Boolean expression.
//
//	expr = and { "|" and } .
func (p *parser) parseExpr() Expr { return p.parseChain(tOr, OR, p.parseAnd) }

// parseAnd parses a conjunction.
//
//	and = unary { "&" unary } .
func (p *parser) parseAnd() Expr { return p.parseChain(tAnd, AND, p.parseUnary) }

// parseChain parses operands joined by tok, grouped to the left.
func (p *parser) parseChain(tok token, op Op, operand func() Expr) Expr {
	x := operand()
	for p.tok == tok {
		pos := p.pos
		p.next()
		x = &BinaryExpr{OpPos: pos, Op: op, X: x, Y: operand()}
	}
	return x
}

// parseUnary parses a negation or an operand.
//
//	unary   = "!" unary | operand .
//	operand = "0" | "1" | "false" | "true" | NAME "(" ( "i" | "j" ) ")" | "(" expr ")" .
func (p *parser) parseUnary() Expr {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > MaxNesting {
		p.errorf(p.pos, "expression nested too deeply (limit MaxNesting = %d)", MaxNesting)
	}
	pos := p.pos
	switch p.tok {
	case tNot:
		p.next()
		return &UnaryExpr{OpPos: pos, X: p.parseUnary()}
	case tLparen:
		p.next()
		x := p.parseExpr()
		p.expect(tRparen, "to close the parenthesis")
		return x
	case tName:
		name := p.text
		p.next()
		if p.tok != tLparen {
			switch name {
			case "0", "false":
				return &Literal{ValuePos: pos, Value: false}
			case "1", "true":
				return &Literal{ValuePos: pos, Value: true}
			}
			p.errorf(p.pos, "expected ( after %s: a reference is written %s(i) or %s(j)", QuoteName(name), QuoteName(name), QuoteName(name))
		}
		p.next()
		if p.tok != tName || (p.text != "i" && p.text != "j") {
			p.errorf(p.pos, "expected i or j in %s(...), found %s", QuoteName(name), p.describe())
		}
		v := VarI
		if p.text == "j" {
			v = VarJ
		}
		p.next()
		p.expect(tRparen, "after the position variable")
		return &Ref{NamePos: pos, Name: name, Var: v, Vec: -1}
	}
	p.errorf(pos, "expected an expression, found %s", p.describe())
	return nil
}
