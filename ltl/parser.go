package ltl

import (
	"fmt"
	"strings"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/position"
)

// Limits bound what the parser accepts, so that hostile input cannot exhaust
// the stack or memory.
type Limits struct {
	MaxNesting int // parentheses, prefix operators and lets nested at once
	MaxTokens  int // tokens in one source
}

// DefaultLimits are the limits ParseFile and Parse use.
var DefaultLimits = Limits{MaxNesting: 1000, MaxTokens: 1 << 22}

// keywords are the identifiers with a meaning of their own; a symbol with one
// of these names must be quoted in formulas.
var keywords = map[string]bool{
	"true": true, "false": true, "1": true, "0": true, "since": true, "until": true,
	"S": true, "U": true, "X": true, "N": true, "Y": true, "Z": true, "F": true, "G": true,
	"O": true, "H": true, "first": true, "last": true, "Mid": true, "let": true, "in": true,
	"alphabet": true,
}

var prefixOps = map[string]Op{
	"X": OpNext, "N": OpWeakNext, "Y": OpYesterday, "Z": OpWeakYesterday,
	"F": OpEventually, "G": OpGlobally, "O": OpOnce, "H": OpHistorically,
}

var binaryTemporalOps = map[string]Op{"since": OpSince, "until": OpUntil, "S": OpSinceNS, "U": OpUntilNS}

// isKeyword reports whether the bare name s means something other than a
// symbol in a formula.
func isKeyword(s string) bool {
	if keywords[s] {
		return true
	}
	_, ok := parseMod(s)
	return ok
}

// parseMod recognises MOD_r_m (any r and m; the range is checked later).
func parseMod(s string) (Predicate, bool) {
	rest, ok := strings.CutPrefix(s, "MOD_")
	if !ok {
		return Predicate{}, false
	}
	rs, ms, ok := strings.Cut(rest, "_")
	if !ok || rs == "" || ms == "" || strings.Trim(rs, "0123456789") != "" || strings.Trim(ms, "0123456789") != "" {
		return Predicate{}, false
	}
	return Predicate{Kind: brasp.Mod}, true
}

// ParseFile reads a .ltl file: an alphabet line, then one formula, with '#'
// comments. It returns the formula in a fresh pool over that alphabet, or an
// ErrorList of every problem found, each as file:line:col: message.
func ParseFile(filename string, src []byte) (*Formula, error) {
	return ParseFileLimits(filename, src, DefaultLimits)
}

// ParseFileLimits is ParseFile under explicit limits.
func ParseFileLimits(filename string, src []byte, lim Limits) (*Formula, error) {
	p := newParser(filename, src, lim)
	alpha := p.alphabetLine()
	if alpha == nil {
		return nil, p.errs.Err()
	}
	p.pool = newPoolSized(alpha, min(len(src)/8, 1<<16))
	f := p.formula()
	if err := p.errs.Err(); err != nil {
		return nil, err
	}
	return f, nil
}

// Parse reads one formula (no alphabet line) into pool, resolving symbols in
// the pool's alphabet.
func Parse(pool *Pool, filename string, src []byte) (*Formula, error) {
	return ParseLimits(pool, filename, src, DefaultLimits)
}

// ParseLimits is Parse under explicit limits.
func ParseLimits(pool *Pool, filename string, src []byte, lim Limits) (*Formula, error) {
	p := newParser(filename, src, lim)
	p.pool = pool
	f := p.formula()
	if err := p.errs.Err(); err != nil {
		return nil, err
	}
	return f, nil
}

type parser struct {
	file    string
	toks    []token
	k       int
	lim     Limits
	nesting int
	pool    *Pool
	index   func(string) int // the pool's alphabet's Indexer, made on first use
	lets    map[string]*Formula
	errs    ErrorList
	stopped bool // a syntax error ended parsing
}

func newParser(file string, src []byte, lim Limits) *parser {
	p := &parser{file: file, lim: lim, lets: map[string]*Formula{}}
	p.toks = lex(file, src, &p.errs)
	if len(p.toks) > lim.MaxTokens {
		p.errs.AddErr(file, p.toks[lim.MaxTokens].pos, ErrTooLarge,
			"%v: more than %d tokens (limit MaxTokens)", ErrTooLarge, lim.MaxTokens)
		p.toks = []token{{kind: tEOF, pos: p.toks[lim.MaxTokens].pos}}
		p.stopped = true
	}
	return p
}

func (p *parser) peek() token { return p.toks[p.k] }

func (p *parser) next() token {
	t := p.toks[p.k]
	if t.kind != tEOF {
		p.k++
	}
	return t
}

// syntaxError records the first syntax error and stops the parse: the rest of
// the input cannot be read reliably after it.
func (p *parser) syntaxError(pos Pos, format string, args ...any) {
	for _, a := range args {
		if t, ok := a.(token); ok && t.kind == tBad {
			p.stopped = true // the lexer has reported it already
		}
	}
	if !p.stopped {
		p.errs.Add(p.file, pos, format, args...)
		p.stopped = true
	}
}

// alphabetLine reads `alphabet SYMBOL...`, all on one line.
func (p *parser) alphabetLine() alphabet.Alphabet {
	t := p.next()
	if t.kind != tIdent || t.text != "alphabet" {
		p.syntaxError(t.pos, "expected 'alphabet' line before the formula, found %v", t)
		return nil
	}
	var syms []string
	seen := map[string]bool{}
	for p.peek().kind != tEOF && p.peek().pos.Line == t.pos.Line {
		s := p.next()
		if s.kind != tIdent && s.kind != tString {
			if s.kind != tBad {
				p.errs.Add(p.file, s.pos, "expected a symbol in the alphabet, found %v", s)
			}
			continue
		}
		if seen[s.text] {
			p.errs.Add(p.file, s.pos, "duplicate symbol %s in the alphabet", alphabet.Quote(s.text))
			continue
		}
		seen[s.text] = true
		syms = append(syms, s.text)
	}
	if len(syms) == 0 {
		p.errs.Add(p.file, t.pos, "empty alphabet")
		return nil
	}
	a, err := alphabet.New(syms...)
	if err != nil {
		p.errs.Add(p.file, t.pos, "%v", err)
		return nil
	}
	return a
}

// formula parses a whole formula and checks that the input ends there.
func (p *parser) formula() *Formula {
	f := p.let()
	if t := p.peek(); t.kind != tEOF {
		p.syntaxError(t.pos, "unexpected %v after the formula", t)
	}
	if f == nil {
		f = p.pool.False()
	}
	return f
}

func (p *parser) enter(pos Pos) bool {
	p.nesting++
	if p.nesting > p.lim.MaxNesting {
		if !p.stopped {
			p.errs.AddErr(p.file, pos, ErrNesting, "%v: more than %d levels (limit MaxNesting)", ErrNesting, p.lim.MaxNesting)
			p.stopped = true
		}
		return false
	}
	return true
}

func (p *parser) leave() { p.nesting-- }

// let := 'let' NAME '=' let 'in' let | iff
func (p *parser) let() *Formula {
	t := p.peek()
	if t.kind != tIdent || t.text != "let" {
		return p.iff()
	}
	p.next()
	if !p.enter(t.pos) {
		return nil
	}
	defer p.leave()
	name := p.next()
	switch {
	case name.kind != tIdent:
		p.syntaxError(name.pos, "expected a name after 'let', found %v", name)
		return nil
	case isKeyword(name.text):
		p.syntaxError(name.pos, "%s is a keyword and cannot be a let name", name.text)
		return nil
	case p.pool.alpha.Index(name.text) >= 0:
		p.errs.Add(p.file, name.pos, "let name %s is a symbol of the alphabet", name.text)
	}
	if eq := p.next(); eq.kind != tEquals {
		p.syntaxError(eq.pos, "expected '=' after let name, found %v", eq)
		return nil
	}
	def := p.let()
	if in := p.next(); in.kind != tIdent || in.text != "in" {
		p.syntaxError(in.pos, "expected 'in' after the let definition, found %v", in)
		return nil
	}
	old, had := p.lets[name.text]
	p.lets[name.text] = def
	body := p.let()
	if had {
		p.lets[name.text] = old
	} else {
		delete(p.lets, name.text)
	}
	return body
}

// iff := implies ('<->' implies)*        (left-associative)
func (p *parser) iff() *Formula {
	x := p.implies()
	for p.peek().kind == tIff {
		p.next()
		y := p.implies()
		if x == nil || y == nil {
			return nil
		}
		x = p.pool.Binary(OpIff, x, y)
	}
	return x
}

// implies := or ('->' implies)?          (right-associative)
func (p *parser) implies() *Formula {
	xs := []*Formula{p.or()}
	var ops []Op
	for p.peek().kind == tImplies {
		p.next()
		ops = append(ops, OpImplies)
		xs = append(xs, p.or())
	}
	return p.foldRight(xs, ops)
}

// foldRight builds xs[0] ops[0] (xs[1] ops[1] (… xs[n])) without recursion,
// so that long chains do not count as nesting. It returns nil if an operand
// failed to parse.
func (p *parser) foldRight(xs []*Formula, ops []Op) *Formula {
	for _, x := range xs {
		if x == nil {
			return nil
		}
	}
	acc := xs[len(xs)-1]
	for k := len(xs) - 2; k >= 0; k-- {
		acc = p.pool.Binary(ops[k], xs[k], acc)
	}
	return acc
}

// or := and ('|' and)*
func (p *parser) or() *Formula {
	x := p.and()
	for p.peek().kind == tOr {
		p.next()
		y := p.and()
		if x == nil || y == nil {
			return nil
		}
		x = p.pool.Binary(OpOr, x, y)
	}
	return x
}

// and := temporal ('&' temporal)*
func (p *parser) and() *Formula {
	x := p.temporal()
	for p.peek().kind == tAnd {
		p.next()
		y := p.temporal()
		if x == nil || y == nil {
			return nil
		}
		x = p.pool.Binary(OpAnd, x, y)
	}
	return x
}

// temporal := unary (('since'|'until'|'S'|'U') unary)*   (right-associative)
func (p *parser) temporal() *Formula {
	xs := []*Formula{p.unary()}
	var ops []Op
	for {
		t := p.peek()
		op, ok := binaryTemporalOps[t.text]
		if t.kind != tIdent || !ok {
			break
		}
		p.next()
		ops = append(ops, op)
		xs = append(xs, p.unary())
	}
	return p.foldRight(xs, ops)
}

// unary := ('!' | 'X' | 'N' | 'Y' | 'Z' | 'F' | 'G' | 'O' | 'H') unary | atom
func (p *parser) unary() *Formula {
	var ops []Op
	var positions []Pos
	for {
		t := p.peek()
		if t.kind == tNot {
			ops = append(ops, OpNot)
		} else if op, ok := prefixOps[t.text]; ok && t.kind == tIdent {
			ops = append(ops, op)
		} else {
			break
		}
		positions = append(positions, t.pos)
		p.next()
	}
	for k, pos := range positions {
		if !p.enter(pos) {
			p.nesting -= k
			return nil
		}
	}
	x := p.atom()
	p.nesting -= len(ops)
	if x == nil {
		return nil
	}
	for k := len(ops) - 1; k >= 0; k-- {
		x = p.pool.Unary(ops[k], x)
	}
	return x
}

// atom := '(' let ')' | constant | predicate | let name | symbol
func (p *parser) atom() *Formula {
	t := p.next()
	switch t.kind {
	case tLParen:
		if !p.enter(t.pos) {
			return nil
		}
		defer p.leave()
		x := p.let()
		if c := p.next(); c.kind != tRParen {
			p.syntaxError(c.pos, "expected ')' to close '(' at %v, found %v", t.pos, c)
			return nil
		}
		return x
	case tString:
		return p.symbol(t)
	case tIdent:
		switch t.text {
		case "true", "1":
			return p.pool.True()
		case "false", "0":
			return p.pool.False()
		case "first", "last", "Mid":
			pr, _ := brasp.ParsePredicate(t.text)
			return p.pool.Predicate(pr)
		}
		if tab, ok, msg := position.ParsePeriodic(t.text); ok {
			if msg != "" {
				p.errs.Add(p.file, t.pos, "bad predicate %s: %s", t.text, msg)
				return p.pool.False()
			}
			return p.pool.Predicate(Predicate{Kind: brasp.Periodic, Table: tab})
		}
		if _, ok := parseMod(t.text); ok {
			pr, ok := brasp.ParsePredicate(t.text)
			if !ok {
				p.errs.Add(p.file, t.pos, "bad predicate %s: MOD_r_m needs 0 <= r < m <= %d, written without leading zeros", t.text, 1<<20)
				return p.pool.False()
			}
			return p.pool.Predicate(pr)
		}
		if isKeyword(t.text) {
			p.syntaxError(t.pos, "unexpected %s; expected a formula (quote a symbol named %s as %q)", t.text, t.text, t.text)
			return nil
		}
		if f, ok := p.lets[t.text]; ok {
			return f
		}
		return p.symbol(t)
	case tBad:
		p.stopped = true // the lexer already reported it
		return nil
	}
	p.syntaxError(t.pos, "expected a formula, found %v", t)
	return nil
}

// symbol resolves a symbol atom; an unknown symbol is reported and parsing
// continues with false in its place.
func (p *parser) symbol(t token) *Formula {
	if p.index == nil {
		p.index = p.pool.alpha.Indexer()
	}
	k := p.index(t.text)
	if k >= 0 {
		return p.pool.Symbol(k)
	}
	hint := ""
	if t.kind == tIdent && len(t.text) > 1 && strings.ContainsRune("XNYZFGOH", rune(t.text[0])) &&
		p.pool.alpha.Index(t.text[1:]) >= 0 {
		hint = fmt.Sprintf(" (write operators apart from their operand: %c %s)", t.text[0], t.text[1:])
	}
	p.errs.Add(p.file, t.pos, "unknown symbol %s: not in the alphabet {%s}%s", alphabet.Quote(t.text), p.pool.alpha.Brief(), hint)
	return p.pool.False()
}
