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
	p := &parser{lex: lexer{file: filename, lines: lines, start: alphaLine + 1, line: alphaLine + 1, single: alpha.SingleChar(), errs: &errs, b: b},
		alpha: alpha, index: alpha.Indexer(), errs: &errs, file: filename, b: b, leaves: make([]*Node, len(alpha))}
	if p.peek().kind == tEOF {
		if p.lex.err != nil {
			return nil, p.lex.err
		}
		errs.Add(filename, p.peek().at(), "missing expression after the alphabet line")
		return nil, errs.Err()
	}
	root := p.union()
	if p.err == nil {
		p.err = p.lex.err
	}
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

// lexer hands the parser the expression's tokens a piece of a line at a
// time (lexPiece bytes between two looks at the budget), so that an
// expression of millions of symbols is never held as millions of tokens.
type lexer struct {
	file   string
	lines  []string
	start  int // the first line after the alphabet line
	line   int // the line being lexed
	off    int // where in it
	single bool
	errs   *source.ErrorList
	b      *budget.Budget
	err    error // the budget's, once it stops the lexing
	toks   []tok // the piece lexed, from toks[i] on not yet read
	i      int
	last   tok // the last token lexed, for the position of the end
	done   bool
}

// fill makes toks[i] the next token: the end of input (tEOF, just after
// the last token) once every line is lexed.
func (l *lexer) fill() {
	for l.i == len(l.toks) {
		if l.done {
			l.toks, l.i = append(l.toks[:0], l.eof()), 0
			return
		}
		if l.line >= len(l.lines) || l.errs.Full() || l.err != nil {
			l.done = true
			continue
		}
		if l.off >= len(l.lines[l.line]) {
			l.line++
			l.off = 0
			continue
		}
		if l.err = l.b.Step(lexPiece/8 + 1); l.err != nil {
			continue
		}
		l.toks, l.i = l.toks[:0], 0
		l.toks, l.off = lexLine(l.file, l.line, l.lines[l.line], l.off, l.off+lexPiece, false, l.single, l.errs, l.toks)
		if len(l.toks) > 0 {
			l.last = l.toks[len(l.toks)-1]
		}
	}
}

// eof is the end-of-input token, just after the last token (or at the
// start of the line after the alphabet line when there is none).
func (l *lexer) eof() tok {
	if l.last.kind == tEOF {
		return tok{kind: tEOF, line: int32(l.start + 1), col: 1}
	}
	return tok{kind: tEOF, line: l.last.line, col: l.last.col + l.last.width}
}

type parser struct {
	lex   lexer
	alpha alphabet.Alphabet
	index func(string) int // alpha.Indexer()
	errs  *source.ErrorList
	file  string
	depth int
	b     *budget.Budget
	err   error // the budget's, once it stops the parse
	// leaves is the node of each symbol, shared by its occurrences: an
	// expression of millions of symbols holds a pointer per occurrence.
	leaves []*Node
}

// step charges a factor to the budget; once the budget stops, it ends the
// parse (the input is skipped to its end) and reports false.
func (p *parser) step() bool {
	if p.err == nil {
		p.err = p.b.Step(1)
	}
	if p.err != nil {
		p.stop()
		return false
	}
	return true
}

// stop skips the rest of the input: the next token is the end.
func (p *parser) stop() {
	p.lex.done = true
	p.lex.toks, p.lex.i = p.lex.toks[:0], 0
}

func (p *parser) peek() tok {
	if p.lex.i == len(p.lex.toks) {
		p.lex.fill()
	}
	return p.lex.toks[p.lex.i]
}

func (p *parser) next() tok {
	t := p.peek()
	if t.kind != tEOF {
		p.lex.i++
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
	// The factors are gathered as numbers, without pointers (a symbol's
	// index, or past the alphabet an index into others), and the slice of
	// nodes made once at the end: a slice of millions of pointers grown
	// by doubling was copied under the garbage collector's write barrier
	// and scanned at every cycle.
	var codes []uint32
	var others []*Node
	for startsAtom(p.peek()) && p.step() {
		x := p.unary()
		if x.Op == OpSymbol && p.leaves[x.Symbol] == x {
			codes = append(codes, uint32(x.Symbol))
		} else {
			codes = append(codes, uint32(len(p.leaves)+len(others)))
			others = append(others, x)
		}
	}
	xs := make([]*Node, len(codes))
	for i, c := range codes {
		if int(c) < len(p.leaves) {
			xs[i] = p.leaves[c]
		} else {
			xs[i] = others[int(c)-len(p.leaves)]
		}
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
		p.stop()
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
		if p.leaves[a] == nil {
			p.leaves[a] = &Node{Op: OpSymbol, Symbol: a, Pos: t.at()}
		}
		return p.leaves[a]
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
