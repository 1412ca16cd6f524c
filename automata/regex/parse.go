package regex

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/source"
)

// MaxNesting bounds the nesting depth of parentheses and prefix operators the
// parser accepts, so that hostile input cannot exhaust the stack.
const MaxNesting = 1000

type tokKind uint8

const (
	tEOF tokKind = iota
	tSym
	tOp
)

// lexPiece is how many bytes of a line are lexed between two looks at the
// budget.
const lexPiece = 1 << 16

// tok is one token; it is kept small, as an expression of millions of
// symbols is that many tokens.
type tok struct {
	text      string // symbol name, or the operator character
	line, col int32
	width     int32 // bytes of source text
	kind      tokKind
}

// at is the token's position.
func (t tok) at() source.Pos { return source.Pos{Line: int(t.line), Col: int(t.col)} }

// isBareSymbolRune reports whether r may appear in a bare symbol of an
// expression: a letter, a digit or '_' ('?' is the optional operator).
func isBareSymbolRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// Parse reads a `.re` file: an alphabet line, then one expression. filename
// is used only in error positions; all errors are returned together as a
// source.ErrorList, sorted, one file:line:col: message per problem.
//
//	file     = alphabet "\n" union .
//	alphabet = "alphabet" symbol { symbol } .
//	symbol   = bare | quoted .     (bare: letters, digits and _; quoted: a Go string)
//
// The grammar of the expression is on the parser's methods (union down to
// atom); blank lines and "#" comments may appear anywhere.
func Parse(filename string, src []byte) (*Regex, error) { return ParseBudget(nil, filename, src) }

// ParseBudget is Parse within the budget: its work (a unit per few bytes
// lexed, per factor parsed) is charged to b, so that a cancelled budget
// stops it within microseconds; it then returns the budget's error.
func ParseBudget(b *budget.Budget, filename string, src []byte) (*Regex, error) {
	var errs source.ErrorList
	lines := strings.Split(string(src), "\n")
	alphaLine := -1
	var alpha alphabet.Alphabet
	for i, text := range lines {
		toks, _ := lexLine(filename, i, text, 0, len(text), true, false, &errs, nil)
		if len(toks) == 0 {
			continue
		}
		alphaLine = i
		if toks[0].kind != tSym || toks[0].text != "alphabet" || strings.HasPrefix(strings.TrimSpace(text), `"`) {
			errs.Add(filename, toks[0].at(), "expected an alphabet line first")
			break
		}
		if len(toks) == 1 {
			errs.Add(filename, toks[0].at(), "alphabet needs at least one symbol")
		}
		seen := map[string]bool{}
		for _, t := range toks[1:] {
			if t.kind != tSym {
				errs.Add(filename, t.at(), "%s", "unexpected "+strconv.Quote(t.text)+" in the alphabet line")
				continue
			}
			if seen[t.text] {
				errs.Add(filename, t.at(), "%s", "duplicate symbol "+alphabet.Quote(t.text))
				continue
			}
			seen[t.text] = true
			alpha = append(alpha, t.text)
		}
		break
	}
	if alphaLine < 0 {
		errs.Add(filename, source.Pos{Line: 1, Col: 1}, "missing alphabet line")
		return nil, errs.Err()
	}
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	single := alpha.SingleChar()
	var toks []tok
	for i := alphaLine + 1; i < len(lines) && !errs.Full(); i++ {
		// A line at a time, and a line in pieces: an expression may be
		// one line of millions of symbols.
		for off := 0; off < len(lines[i]) && !errs.Full(); {
			if err := b.Step(lexPiece/8 + 1); err != nil {
				return nil, err
			}
			toks, off = lexLine(filename, i, lines[i], off, off+lexPiece, false, single, &errs, toks)
		}
	}
	// End of input is reported just after the last token.
	eof := source.Pos{Line: alphaLine + 2, Col: 1}
	if len(toks) > 0 {
		last := toks[len(toks)-1]
		eof = last.at()
		eof.Col += int(last.width)
	}
	toks = append(toks, tok{kind: tEOF, line: int32(eof.Line), col: int32(eof.Col)})
	p := &parser{toks: toks, alpha: alpha, index: alpha.Indexer(), errs: &errs, file: filename, b: b}
	if toks[0].kind == tEOF {
		errs.Add(filename, toks[0].at(), "missing expression after the alphabet line")
		return nil, errs.Err()
	}
	root := p.union()
	if p.err != nil {
		return nil, p.err
	}
	if t := p.peek(); t.kind != tEOF && len(errs) == 0 {
		errs.Add(filename, t.at(), "%s", "unexpected "+describe(t))
	}
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	return &Regex{Alphabet: alpha, Root: root}, nil
}

// ParseExpr parses an expression (without alphabet line) over alpha.
func ParseExpr(alpha alphabet.Alphabet, expr string) (*Regex, error) {
	return Parse("", []byte("alphabet "+alpha.String()+"\n"+expr))
}

func describe(t tok) string {
	switch t.kind {
	case tEOF:
		return "end of input"
	case tSym:
		return "symbol " + alphabet.Quote(t.text)
	}
	return strconv.Quote(t.text)
}

// lexLine splits one line into tokens, appended to toks: those from byte
// from on, up to the first token boundary at or after stop, which it
// returns (len(text) at the end of the line). In the alphabet line, bare names use
// the full name alphabet ('?' included); in expressions, single splits bare
// runs into one symbol per character.
func lexLine(filename string, lineNo int, text string, from, stop int, alphaLine, single bool, errs *source.ErrorList, toks []tok) ([]tok, int) {
	pos := func(off int) source.Pos { return source.Pos{Line: lineNo + 1, Col: off + 1} }
	bare := isBareSymbolRune
	if alphaLine {
		bare = alphabet.IsNameRune
	}
	i := from
	for i < len(text) && i < stop && !errs.Full() {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case unicode.IsSpace(r):
			i += size
		case r == '#':
			i = len(text)
		case r == '"' || bare(r):
			end, s, err := i+size, text[i:i+size], error(nil) // one symbol per character
			if r == '"' || !single {
				end, s, _, err = alphabet.ScanSymbol(text, i, bare)
			}
			switch err {
			case nil:
				toks = append(toks, tok{kind: tSym, text: s, line: int32(lineNo + 1), col: int32(i + 1), width: int32(end - i)})
			case alphabet.ErrUnterminated:
				errs.Add(filename, pos(i), "unterminated quoted symbol")
				return toks, len(text)
			case alphabet.ErrEmptyQuote:
				errs.Add(filename, pos(i), "empty quoted symbol")
			default:
				errs.Add(filename, pos(i), "malformed quoted symbol")
			}
			i = end
		case !alphaLine && strings.ContainsRune("|&*+?~()[].", r):
			toks = append(toks, tok{kind: tOp, text: text[i : i+size], line: int32(lineNo + 1), col: int32(i + 1), width: int32(size)})
			i += size
		default:
			if r == utf8.RuneError && size == 1 {
				errs.Add(filename, pos(i), "invalid UTF-8")
			} else {
				errs.Add(filename, pos(i), "%s", "unexpected character "+strconv.QuoteRune(r)+" (quote symbols that are not letters, digits or _)")
			}
			i += size
		}
	}
	if errs.Full() {
		i = len(text)
	}
	return toks, i
}

type parser struct {
	toks  []tok
	i     int
	alpha alphabet.Alphabet
	index func(string) int // alpha.Indexer()
	errs  *source.ErrorList
	file  string
	depth int
	b     *budget.Budget
	err   error // the budget's, once it stops the parse
}

// step charges a factor to the budget; once the budget stops, it ends the
// parse (the input is skipped to its end) and reports false.
func (p *parser) step() bool {
	if p.err == nil {
		p.err = p.b.Step(1)
	}
	if p.err != nil {
		p.i = len(p.toks) - 1
		return false
	}
	return true
}

func (p *parser) peek() tok { return p.toks[p.i] }

func (p *parser) next() tok {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) isOp(s string) bool { t := p.peek(); return t.kind == tOp && t.text == s }

// union parses
//
//	union = inter { "|" inter } .
func (p *parser) union() *Node {
	pos := p.peek().at()
	xs := []*Node{p.inter()}
	for p.isOp("|") {
		p.next()
		xs = append(xs, p.inter())
	}
	n := Union(xs...)
	if len(xs) > 1 {
		n.Pos = pos
	}
	return n
}

// inter parses
//
//	inter = concat { "&" concat } .
func (p *parser) inter() *Node {
	pos := p.peek().at()
	xs := []*Node{p.concat()}
	for p.isOp("&") {
		p.next()
		xs = append(xs, p.concat())
	}
	n := Inter(xs...)
	if len(xs) > 1 {
		n.Pos = pos
	}
	return n
}

// startsAtom reports whether t can begin a concatenation factor.
func startsAtom(t tok) bool {
	return t.kind == tSym || (t.kind == tOp && strings.Contains("([.~", t.text))
}

// concat parses
//
//	concat = unary { unary } .
func (p *parser) concat() *Node {
	pos := p.peek().at()
	if !startsAtom(p.peek()) {
		p.errs.Add(p.file, p.peek().at(), "%s", "expected an expression, found "+describe(p.peek()))
		if t := p.peek(); t.kind == tOp && t.text != ")" && t.text != "|" && t.text != "&" {
			p.next() // skip a stray postfix operator or ']' and go on
		}
		return EmptySet()
	}
	var xs []*Node
	for startsAtom(p.peek()) && p.step() {
		xs = append(xs, p.unary())
	}
	n := Concat(xs...)
	if len(xs) > 1 {
		n.Pos = pos
	}
	return n
}

// unary parses
//
//	unary = "~" unary | atom { "*" | "+" | "?" } .
func (p *parser) unary() *Node {
	if p.isOp("~") {
		t := p.next()
		if !p.enter(t.at()) {
			return EmptySet()
		}
		defer p.leave()
		if !startsAtom(p.peek()) {
			p.errs.Add(p.file, p.peek().at(), "%s", "expected an expression after ~, found "+describe(p.peek()))
			return EmptySet()
		}
		n := Compl(p.unary())
		n.Pos = t.at()
		return n
	}
	n := p.atom()
	// Each postfix operator nests the tree one level deeper: they count
	// toward MaxNesting as parentheses do.
	ops := 0
	defer func() { p.depth -= ops }()
	for {
		t := p.peek()
		if t.kind != tOp {
			return n
		}
		switch t.text {
		case "*", "+", "?":
			if !p.enter(t.at()) {
				p.depth--
				return EmptySet()
			}
			ops++
		default:
			return n
		}
		switch t.text {
		case "*":
			n = Star(n)
		case "+":
			n = Plus(n)
		case "?":
			n = Opt(n)
		}
		n.Pos = t.at()
		p.next()
	}
}

func (p *parser) enter(pos source.Pos) bool {
	p.depth++
	if p.depth > MaxNesting {
		p.errs.Add(p.file, pos, "%s", "expression nested deeper than "+strconv.Itoa(MaxNesting))
		p.i = len(p.toks) - 1 // stop parsing
		return false
	}
	return true
}

func (p *parser) leave() { p.depth-- }

// atom parses
//
//	atom = symbol | "." | "[" "]" | "(" ")" | "(" union ")" .
//
// "." is any symbol, [] the empty set and () the empty word.
func (p *parser) atom() *Node {
	t := p.next()
	switch {
	case t.kind == tSym:
		a := p.index(t.text)
		if a < 0 {
			p.errs.Add(p.file, t.at(), "%s", "symbol "+alphabet.Quote(t.text)+" is not in the alphabet {"+p.alpha.Brief()+"}")
			return EmptySet()
		}
		return &Node{Op: OpSymbol, Symbol: a, Pos: t.at()}
	case t.kind == tOp && t.text == ".":
		return &Node{Op: OpAny, Pos: t.at()}
	case t.kind == tOp && t.text == "[":
		if !p.isOp("]") {
			p.errs.Add(p.file, p.peek().at(), "expected ] after [ (the empty set is written [])")
			return EmptySet()
		}
		p.next()
		return &Node{Op: OpEmpty, Pos: t.at()}
	case t.kind == tOp && t.text == "(":
		if p.isOp(")") {
			p.next()
			return &Node{Op: OpEpsilon, Pos: t.at()}
		}
		if !p.enter(t.at()) {
			return EmptySet()
		}
		defer p.leave()
		n := p.union()
		if !p.isOp(")") {
			if len(*p.errs) == 0 || p.peek().kind != tEOF {
				p.errs.Add(p.file, p.peek().at(), "%s", "expected ) to close the ( at "+t.at().In(p.file)+", found "+describe(p.peek()))
			}
			return n
		}
		p.next()
		return n
	}
	p.errs.Add(p.file, t.at(), "%s", "expected an expression, found "+describe(t))
	return EmptySet()
}
