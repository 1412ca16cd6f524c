package guarddfa

import (
	"strconv"
	"unicode/utf8"
)

type tokenKind int

const (
	tIdent  tokenKind = iota // a bare proposition or keyword
	tQuoted                  // a double-quoted proposition, unquoted in text
	tNumber                  // a state number
	tNot                     // !
	tAnd                     // &
	tOr                      // |
)

type token struct {
	kind tokenKind
	text string
	col  int // 1-based byte column
}

func (t token) describe() string {
	switch t.kind {
	case tNot, tAnd, tOr:
		return strconv.Quote(t.text)
	case tQuoted:
		return "proposition " + strconv.Quote(t.text)
	}
	return t.text
}

type scanError struct {
	col int
	msg string
}

// scan splits one line into tokens; # starts a comment.
func scan(line string) ([]token, *scanError) {
	var toks []token
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '#':
			return toks, nil
		case c == '!' || c == '&' || c == '|':
			toks = append(toks, token{map[byte]tokenKind{'!': tNot, '&': tAnd, '|': tOr}[c], string(c), i + 1})
			i++
		case c >= '0' && c <= '9' || c == '-' && i+1 < len(line) && line[i+1] >= '0' && line[i+1] <= '9':
			// (a sign is read so that "start -1" is refused as a state
			// number, not as an unexpected character)
			j := i + 1
			for j < len(line) && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			toks = append(toks, token{tNumber, line[i:j], i + 1})
			i = j
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i + 1
			for j < len(line) && isIdentRune(line[j]) {
				j++
			}
			toks = append(toks, token{tIdent, line[i:j], i + 1})
			i = j
		case c == '"':
			q, err := strconv.QuotedPrefix(line[i:])
			if err != nil {
				return nil, &scanError{i + 1, "unterminated or invalid quoted proposition (Go's escapes: \\\\, \\\", \\n, \\t, \\u00e9, …)"}
			}
			s, _ := strconv.Unquote(q)
			toks = append(toks, token{tQuoted, s, i + 1})
			i += len(q)
		default:
			r, _ := utf8.DecodeRuneInString(line[i:])
			return nil, &scanError{i + 1, "unexpected " + strconv.QuoteRune(r) + " (quote propositions that are not identifiers)"}
		}
	}
	return toks, nil
}

func isIdentRune(c byte) bool {
	return c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
