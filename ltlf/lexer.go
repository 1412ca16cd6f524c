package ltlf

import (
	"strings"
	"unicode/utf8"

	"github.com/brasp-dev/brasp/internal/spelling"
	"github.com/brasp-dev/brasp/source"
)

type tokKind uint8

const (
	tEOF     tokKind = iota
	tIdent           // a bare identifier (operator names are identifiers too)
	tQuoted          // a double-quoted proposition
	tNum             // a number (0 and 1 are the constants)
	tLParen          // (
	tRParen          // )
	tNot             // ! ~
	tAnd             // & && /\
	tOr              // | || \/
	tImplies         // -> => -->
	tEquiv           // <-> <=> <-->
	tXor             // ^ (xor is an identifier)
	tBox             // []: G
	tDiamond         // <>: F
	tStrong          // [!] after X: strong next
	tBound           // [n], [n:m], [n:], [!n], [n!], [n:m!] after X, F, G: Spot's bounded operators
	tNewline         // end of a line (only the directive lines care)
	tBad             // a character that starts no token
)

var tokNames = map[tokKind]string{tEOF: "end of input", tLParen: "'('", tRParen: "')'", tNot: "'!'",
	tAnd: "'&'", tOr: "'|'", tImplies: "'->'", tEquiv: "'<->'", tXor: "'^'", tBox: "'[]'", tDiamond: "'<>'",
	tStrong: "'[!]'", tNewline: "end of line"}

// tBound's text is what is between the brackets, spaces removed.

type token struct {
	kind tokKind
	text string
	pos  source.Pos
}

func (t token) String() string {
	switch t.kind {
	case tIdent, tNum:
		return "'" + t.text + "'"
	case tQuoted:
		return `"` + t.text + `"`
	case tBad:
		return "unexpected character " + t.text
	}
	return tokNames[t.kind]
}

// isIdentStart and isIdentRune: Spot's atomic propositions are letters,
// digits, '_' and '.', not starting with a digit or '.'.
func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isIdentRune(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' || c == '.' }

// lex splits src into tokens; '#' starts a comment to the end of the line.
// It stops after max tokens (the caller reports the limit).
func lex(src []byte, max int) []token {
	var toks []token
	line, lineStart := 1, 0
	i := 0
	emit := func(k tokKind, start int, text string) {
		toks = append(toks, token{k, text, source.Pos{Line: line, Col: start - lineStart + 1}})
	}
	for i < len(src) && len(toks) <= max {
		c := src[i]
		switch {
		case c == '\n':
			emit(tNewline, i, "")
			i++
			line, lineStart = line+1, i
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case isIdentStart(c):
			j := i
			for j < len(src) && isIdentRune(src[j]) {
				j++
			}
			emit(tIdent, i, string(src[i:j]))
			i = j
			continue
		case c >= '0' && c <= '9':
			j := i
			for j < len(src) && src[j] >= '0' && src[j] <= '9' {
				j++
			}
			emit(tNum, i, string(src[i:j]))
			i = j
			continue
		case c == '"':
			j := i + 1
			for j < len(src) && src[j] != '"' && src[j] != '\n' {
				j++
			}
			if j >= len(src) || src[j] != '"' {
				emit(tBad, i, "'\"' (unterminated quoted proposition)")
				i = j
				continue
			}
			emit(tQuoted, i, string(src[i+1:j]))
			i = j + 1
			continue
		}
		if c == '[' {
			if text, n := boundAt(src[i:]); n > 0 {
				emit(tBound, i, text)
				i += n
				continue
			}
		}
		k, n, ok := operators.Match(src[i:])
		if !ok {
			r, size := utf8.DecodeRune(src[i:])
			emit(tBad, i, "'"+string(r)+"'")
			i += size
			continue
		}
		emit(k, i, string(src[i:i+n]))
		i += n
	}
	if len(toks) <= max {
		emit(tEOF, i, "")
	}
	return toks
}

// operators is every token but identifiers, numbers, quoted propositions,
// bounds, ends of line and the end.
var operators = spelling.New(map[string]tokKind{
	"<-->": tEquiv, "<->": tEquiv, "<=>": tEquiv, "<>": tDiamond,
	"-->": tImplies, "->": tImplies, "=>": tImplies,
	"&&": tAnd, "&": tAnd, `/\`: tAnd,
	"||": tOr, "|": tOr, `\/`: tOr,
	"!": tNot, "~": tNot, "^": tXor,
	"(": tLParen, ")": tRParen,
	"[!]": tStrong, "[]": tBox,
})

// boundAt recognises a bracketed bound at the start of src, "[" then "!"
// or digits (X[!3], F[2:5], G[2:], F[1:$], X[3!]), up to the "]" on the
// same line. It returns the text between the brackets without spaces and
// the length of the whole token, or 0 when src does not start one ("[!]"
// and "[]" are other tokens; the parser checks the text's form).
func boundAt(src []byte) (string, int) {
	end := 1
	for end < len(src) && src[end] != ']' && src[end] != '\n' && src[end] != '[' && end < 64 {
		end++
	}
	if end >= len(src) || src[end] != ']' {
		return "", 0
	}
	text := strings.Join(strings.Fields(string(src[1:end])), "")
	if text == "!" || text == "" || !(text[0] == '!' || text[0] >= '0' && text[0] <= '9') {
		return "", 0
	}
	return text, end + 1
}
