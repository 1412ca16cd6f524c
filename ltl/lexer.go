package ltl

import (
	"strconv"
	"unicode/utf8"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/internal/spelling"
)

type tokenKind uint8

const (
	tEOF tokenKind = iota
	tIdent
	tString
	tLParen
	tRParen
	tNot
	tAnd
	tOr
	tImplies
	tIff
	tEquals
	tBad
)

var tokenNames = [...]string{
	tEOF: "end of input", tIdent: "identifier", tString: "quoted symbol", tLParen: "'('", tRParen: "')'",
	tNot: "'!'", tAnd: "'&'", tOr: "'|'", tImplies: "'->'", tIff: "'<->'", tEquals: "'='", tBad: "bad character",
}

// operators is every token but names, quoted symbols and the end.
var operators = spelling.New(map[string]tokenKind{
	"(": tLParen, ")": tRParen, "!": tNot, "~": tNot, "&": tAnd, "&&": tAnd, "|": tOr, "||": tOr,
	"->": tImplies, "=>": tImplies, "<->": tIff, "<=>": tIff, "=": tEquals,
})

type token struct {
	kind tokenKind
	text string // identifier name, unquoted string, or the raw text
	pos  Pos
}

func (t token) String() string {
	switch t.kind {
	case tIdent:
		return strconv.Quote(t.text)
	case tString:
		return "quoted symbol " + strconv.Quote(t.text)
	case tBad:
		return strconv.Quote(t.text)
	}
	return tokenNames[t.kind]
}

// lex splits src into tokens; '#' starts a comment to the end of the line.
// Problems are added to errs; a bad token is still returned so that the
// parser reports where it is.
func lex(file string, src []byte, errs *ErrorList) []token {
	// About one token per four bytes of a formula: a small formula's tokens
	// fit in one allocation instead of a dozen doublings (each of a new size
	// class, which a short run pays for in fresh pages); a large one's grow
	// from a bounded start as before.
	toks := make([]token, 0, min(len(src)/4+8, 1<<10))
	line, lineStart := 1, 0
	i := 0
	for i < len(src) && !errs.Full() {
		c := src[i]
		pos := Pos{Line: line, Col: i - lineStart + 1}
		switch {
		case c == '\n':
			line++
			i++
			lineStart = i
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		default:
			if k, n, ok := operators.Match(src[i:]); ok {
				toks = append(toks, token{k, string(src[i : i+n]), pos})
				i += n
				continue
			}
			end, s, quoted, err := alphabet.ScanSymbol(src, i, nil)
			switch {
			case err == alphabet.ErrUnterminated:
				errs.Add(file, pos, "unterminated quoted symbol")
				toks = append(toks, token{tBad, string(src[i:end]), pos})
			case err == alphabet.ErrEmptyQuote:
				errs.Add(file, pos, "empty quoted symbol")
				toks = append(toks, token{tBad, `""`, pos})
			case err != nil:
				errs.Add(file, pos, "bad quoted symbol %s", src[i:end])
				toks = append(toks, token{tBad, string(src[i:end]), pos})
			case quoted:
				toks = append(toks, token{tString, s, pos})
			case end > i:
				toks = append(toks, token{tIdent, s, pos})
			default:
				r, size := utf8.DecodeRune(src[i:])
				if r == utf8.RuneError && size == 1 {
					errs.Add(file, pos, "invalid UTF-8")
				} else {
					errs.Add(file, pos, "unexpected character %q", r)
				}
				toks = append(toks, token{tBad, string(src[i : i+size]), pos})
				end = i + size
			}
			i = end
		}
	}
	toks = append(toks, token{tEOF, "", Pos{Line: line, Col: i - lineStart + 1}})
	return toks
}
