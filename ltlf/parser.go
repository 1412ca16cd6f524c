package ltlf

import (
	"errors"
	"strings"

	"github.com/brasp-dev/brasp/source"
)

// Named errors for the parser's limits.
var (
	// ErrNesting: parentheses and prefix operators nested deeper than
	// Options.MaxNesting.
	ErrNesting = errors.New("formula nested too deeply")
	// ErrTooLarge: the source has more tokens than Options.MaxTokens.
	ErrTooLarge = errors.New("formula too large")
)

// Options say how to read a source.
type Options struct {
	Dialect    Dialect // overridden by a `dialect` line in the source
	MaxNesting int     // parentheses and prefix operators nested at once; 0 means 1000
	MaxTokens  int     // tokens in one source; 0 means 1<<22
}

// Parse reads an .ltlf source in Spot's dialect (unless the source says
// otherwise). filename is used in error messages only.
func Parse(filename string, src []byte) (*Formula, error) {
	return ParseOptions(filename, src, Options{})
}

// ParseString parses a formula given as a string, for tests and examples.
func ParseString(s string) (*Formula, error) { return Parse("", []byte(s)) }

// ParseOptions is Parse with explicit options.
func ParseOptions(filename string, src []byte, opts Options) (*Formula, error) {
	if opts.MaxNesting <= 0 {
		opts.MaxNesting = 1000
	}
	if opts.MaxTokens <= 0 {
		opts.MaxTokens = 1 << 22
	}
	p := &parser{file: filename, opts: opts, dialect: opts.Dialect, propIndex: map[string]int32{}}
	p.toks = lex(src, opts.MaxTokens)
	if len(p.toks) > opts.MaxTokens {
		p.errs.AddErr(filename, p.toks[opts.MaxTokens].pos, ErrTooLarge, "%v: more than %d tokens (limit MaxTokens)",
			ErrTooLarge, opts.MaxTokens)
		return nil, p.errs.Err()
	}
	p.f = NewFormula(nil)
	p.directives()
	if len(p.errs) > 0 {
		return nil, p.errs.Err()
	}
	root, ok := p.parseAll()
	if !ok {
		return nil, p.errs.Err()
	}
	if p.dialect == PPLTL {
		root = p.f.Mk(Finally, p.f.Mk(And, p.f.Mk(WeakNext, p.f.Mk(False, 0, 0), 0), root), 0)
	}
	p.f.Root = root
	return p.f, nil
}

type parser struct {
	file      string
	opts      Options
	dialect   Dialect
	toks      []token
	i         int
	errs      source.ErrorList
	f         *Formula
	declared  bool // a propositions line fixed the propositions
	propIndex map[string]int32
	nesting   int
	pending   []token // operator letters split off an identifier, not yet read
}

// directives reads the optional lines `propositions p q ...` and
// `dialect NAME` at the top of the source.
func (p *parser) directives() {
	for {
		for p.toks[p.i].kind == tNewline {
			p.i++
		}
		t := p.toks[p.i]
		if t.kind != tIdent || (t.text != "propositions" && t.text != "dialect" && t.text != "semantics") {
			return
		}
		// A directive is the keyword followed by names to the end of the line.
		j := p.i + 1
		for p.toks[j].kind == tIdent || p.toks[j].kind == tQuoted {
			j++
		}
		if k := p.toks[j].kind; k != tNewline && k != tEOF {
			return // not a directive: a formula using the name as a proposition
		}
		args := p.toks[p.i+1 : j]
		switch t.text {
		case "propositions":
			if p.declared {
				p.errs.Add(p.file, t.pos, "a second propositions line")
			}
			p.declared = true
			for _, a := range args {
				if a.kind == tIdent && p.keyword(a.text) {
					p.errs.Add(p.file, a.pos, "%s is an operator; quote it to use it as a proposition", a)
					continue
				}
				if _, dup := p.propIndex[a.text]; dup {
					p.errs.Add(p.file, a.pos, "proposition %s declared twice", a)
					continue
				}
				p.propIndex[a.text] = int32(len(p.f.Props))
				p.f.Props = append(p.f.Props, a.text)
			}
		case "semantics":
			if len(args) != 1 || args[0].text != "empty_trace" && args[0].text != "nonempty_traces" {
				p.errs.Add(p.file, t.pos, "semantics wants empty_trace (every finite trace, the empty one included) or nonempty_traces (the default)")
			} else {
				p.f.EmptyTrace = args[0].text == "empty_trace"
			}
		case "dialect":
			if len(args) != 1 || args[0].kind != tIdent {
				p.errs.Add(p.file, t.pos, "dialect wants one name (%s)", strings.Join(dialectNames, ", "))
			} else if d, err := ParseDialect(args[0].text); err != nil {
				p.errs.Add(p.file, args[0].pos, "%v", err)
			} else {
				p.dialect = d
			}
		}
		p.i = j
	}
}

// keyword reports whether a bare identifier is an operator or constant of
// the dialect (and so cannot name a proposition unquoted).
func (p *parser) keyword(s string) bool {
	switch s {
	case "true", "false", "xor", "U", "R", "W", "M", "S", "X", "F", "G", "Y", "Z", "O", "H", "WX", "WY":
		return true
	case "V":
		return p.dialect == Spot || p.dialect == Syft
	case "last":
		return p.dialect == LTLf2DFA || p.dialect == PPLTL
	}
	return p.splits(s) != nil
}

// splits returns the operator letters an identifier stands for when it is
// a run of prefix operators written together: in Spot's syntax a leading
// run of F, G, X before a proposition (GFa is G F a); in LTLf2DFA's a word
// of capital operator letters (XGXFWX). It returns nil for a proposition.
func (p *parser) splits(s string) []string {
	switch p.dialect {
	case Spot, Syft:
		if len(s) < 2 || strings.IndexByte("FGX", s[0]) < 0 || s == "WX" {
			return nil
		}
		var out []string
		for len(s) > 1 && strings.IndexByte("FGX", s[0]) >= 0 {
			out = append(out, s[:1])
			s = s[1:]
		}
		return append(out, s)
	default:
		if len(s) < 2 {
			return nil
		}
		var out []string
		for i := 0; i < len(s); {
			switch {
			case strings.HasPrefix(s[i:], "WX") || strings.HasPrefix(s[i:], "WY"):
				out = append(out, s[i:i+2])
				i += 2
			case strings.IndexByte("XFGYOH", s[i]) >= 0:
				out = append(out, s[i:i+1])
				i++
			default:
				return nil
			}
		}
		return out
	}
}

type bailout struct{}

func (p *parser) fail(pos source.Pos, format string, args ...any) {
	p.errs.Add(p.file, pos, format, args...)
	panic(bailout{})
}

func (p *parser) parseAll() (root int32, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, is := r.(bailout); !is {
				panic(r)
			}
			ok = false
		}
	}()
	if p.peek().kind == tEOF {
		p.fail(p.peek().pos, "no formula")
	}
	root = p.top()
	if t := p.peek(); t.kind == tBad {
		p.fail(t.pos, "%s", t)
	} else if t.kind != tEOF {
		p.fail(t.pos, "unexpected %s after the formula", t)
	}
	return root, true
}

// peek is the next token, skipping line ends (a formula may span lines).
func (p *parser) peek() token {
	if len(p.pending) > 0 {
		return p.pending[0]
	}
	for p.toks[p.i].kind == tNewline {
		p.i++
	}
	t := p.toks[p.i]
	if t.kind == tIdent {
		if parts := p.splits(t.text); parts != nil {
			col := t.pos.Col
			for _, s := range parts {
				k := tIdent
				if s[0] >= '0' && s[0] <= '9' {
					k = tNum
				}
				p.pending = append(p.pending, token{k, s, source.Pos{Line: t.pos.Line, Col: col}})
				col += len(s)
			}
			p.i++
			return p.pending[0]
		}
	}
	return t
}

func (p *parser) next() token {
	t := p.peek()
	if len(p.pending) > 0 {
		p.pending = p.pending[1:]
	} else {
		p.i++
	}
	return t
}

func (p *parser) expect(k tokKind, what string) {
	if t := p.next(); t.kind != k {
		p.fail(t.pos, "expected %s, found %s", what, t)
	}
}

func (p *parser) isIdent(s ...string) (string, bool) {
	t := p.peek()
	if t.kind != tIdent {
		return "", false
	}
	for _, x := range s {
		if t.text == x {
			return x, true
		}
	}
	return "", false
}

var unaryOps = map[string]Op{"F": Finally, "G": Globally, "Y": Yesterday, "Z": WeakYesterday, "WY": WeakYesterday,
	"O": Once, "H": Historically, "WX": WeakNext}

// constants are the numbers and identifiers that are constants.
var constants = map[string]Op{"0": False, "1": True, "false": False, "true": True}

func (p *parser) unary() int32 {
	t := p.peek()
	p.nesting++
	if p.nesting > p.opts.MaxNesting {
		p.errs.AddErr(p.file, t.pos, ErrNesting, "%v: more than %d levels (limit MaxNesting)", ErrNesting,
			p.opts.MaxNesting)
		panic(bailout{})
	}
	defer func() { p.nesting-- }()
	switch t.kind {
	case tNot:
		p.next()
		return p.f.Mk(Not, p.unary(), 0)
	case tBox:
		p.next()
		return p.f.Mk(Globally, p.unary(), 0)
	case tDiamond:
		p.next()
		return p.f.Mk(Finally, p.unary(), 0)
	case tLParen:
		p.next()
		r := p.top()
		p.expect(tRParen, "')'")
		return r
	case tNum:
		p.next()
		if op, ok := constants[t.text]; ok {
			return p.f.Mk(op, 0, 0)
		}
		p.fail(t.pos, "number %s is not a formula (only 0 and 1 are constants)", t.text)
	case tQuoted:
		p.next()
		return p.prop(t)
	case tIdent:
		p.next()
		if op, ok := constants[t.text]; ok {
			return p.f.Mk(op, 0, 0)
		}
		switch t.text {
		case "X":
			strong := p.dialect != Spot
			if p.peek().kind == tStrong {
				p.next()
				strong = true
			}
			if b := p.peek(); b.kind == tBound {
				p.next()
				return p.bounded(t, b, strong)
			}
			op := WeakNext
			if strong {
				op = Next
			}
			return p.f.Mk(op, p.unary(), 0)
		case "F", "G":
			if b := p.peek(); b.kind == tBound {
				p.next()
				return p.bounded(t, b, p.dialect != Spot)
			}
		case "last":
			if p.dialect == LTLf2DFA || p.dialect == PPLTL {
				return p.f.Mk(WeakNext, p.f.Mk(False, 0, 0), 0)
			}
		}
		if op, ok := unaryOps[t.text]; ok {
			return p.f.Mk(op, p.unary(), 0)
		}
		if p.keyword(t.text) {
			p.fail(t.pos, "expected a formula, found the operator %s", t)
		}
		return p.prop(t)
	case tStrong:
		p.fail(t.pos, "[!] must follow X")
	case tBound:
		p.fail(t.pos, "[%s] must follow X, F or G", t.text)
	case tBad:
		p.fail(t.pos, "%s", t)
	}
	p.fail(t.pos, "expected a formula, found %s", t)
	return 0
}

func (p *parser) prop(t token) int32 {
	i, ok := p.propIndex[t.text]
	if !ok {
		if p.declared {
			p.fail(t.pos, "proposition %s is not declared on the propositions line", t)
		}
		if t.text == "" {
			p.fail(t.pos, "empty proposition name")
		}
		i = int32(len(p.f.Props))
		p.f.Props = append(p.f.Props, t.text)
		p.propIndex[t.text] = i
	}
	return p.f.Mk(Prop, i, 0)
}
