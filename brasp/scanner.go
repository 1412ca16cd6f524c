package brasp

import (
	"strconv"
	"unicode/utf8"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/internal/spelling"
)

// token is a lexical token kind.
type token uint8

const (
	tEOF token = iota
	tNewline
	tName    // letters, digits, _ and ?, possibly with juxtaposed "quoted" parts
	tLparen  // (
	tRparen  // )
	tLbrack  // [
	tRbrack  // ]
	tComma   // ,
	tAssign  // :=
	tColon   // :
	tNot     // !
	tAnd     // &
	tOr      // |
	tLess    // <
	tLessEq  // <=
	tGreater // >
	tGreatEq // >=
	tIllegal
)

var tokenNames = [...]string{
	tEOF: "end of file", tNewline: "end of line", tName: "name", tLparen: "(", tRparen: ")",
	tLbrack: "[", tRbrack: "]", tComma: ",", tAssign: ":=", tColon: ":", tNot: "!",
	tAnd: "&", tOr: "|", tLess: "<", tLessEq: "<=", tGreater: ">", tGreatEq: ">=", tIllegal: "illegal character",
}

func (t token) String() string { return tokenNames[t] }

// punctuation is every token but names, ends of line and of file.
var punctuation = spelling.New(map[string]token{
	"(": tLparen, ")": tRparen, "[": tLbrack, "]": tRbrack, ",": tComma, ":=": tAssign, ":": tColon,
	"!": tNot, "&": tAnd, "|": tOr, "<": tLess, "<=": tLessEq, ">": tGreater, ">=": tGreatEq,
})

// scanner splits B-RASP source into tokens. '#' starts a comment that runs to
// the end of the line; a name is a run of letters, digits, '_' and '?', and
// may contain double-quoted parts (Q_"#"), so that any symbol can be named.
type scanner struct {
	file string
	src  []byte
	off  int
	line int
	col  int
	errs *ErrorList
}

func newScanner(file string, src []byte, errs *ErrorList) *scanner {
	return &scanner{file: file, src: src, line: 1, col: 1, errs: errs}
}

func (s *scanner) peekRune() (rune, int) {
	if s.off >= len(s.src) {
		return -1, 0
	}
	return utf8.DecodeRune(s.src[s.off:])
}

func (s *scanner) advance(size int) {
	s.off += size
	s.col += size
}

// next returns the next token, its position and, for names, its text with
// quoted parts decoded.
func (s *scanner) next() (token, Pos, string) {
	for {
		r, size := s.peekRune()
		switch {
		case r == ' ' || r == '\t' || r == '\r' || r == '\f' || r == '\v':
			s.advance(size)
			continue
		case r == '#':
			for s.off < len(s.src) && s.src[s.off] != '\n' {
				s.advance(1)
			}
			continue
		}
		break
	}
	pos := Pos{Line: s.line, Col: s.col}
	r, size := s.peekRune()
	switch {
	case r < 0 || s.errs.Full(): // the end, or too many errors to show more
		return tEOF, pos, ""
	case r == '\n':
		s.off++
		s.line++
		s.col = 1
		return tNewline, pos, ""
	case r == utf8.RuneError && size == 1:
		s.advance(1)
		s.errs.Add(s.file, pos, "invalid UTF-8 encoding")
		return tIllegal, pos, ""
	case alphabet.IsNameRune(r) || r == '"':
		return s.name(pos)
	}
	if t, n, ok := punctuation.Match(s.src[s.off:]); ok {
		s.advance(n)
		return t, pos, ""
	}
	s.advance(size)
	s.errs.Add(s.file, pos, "unexpected character %q", r)
	return tIllegal, pos, ""
}

// name scans a name: bare runs and double-quoted parts, juxtaposed.
func (s *scanner) name(pos Pos) (token, Pos, string) {
	var text []byte
	for {
		r, _ := s.peekRune()
		switch {
		case r >= 0 && (alphabet.IsNameRune(r) || r == '"'):
			start := s.off
			qpos := Pos{Line: s.line, Col: s.col}
			end, u, _, err := alphabet.ScanSymbol(s.src, start, nil)
			s.advance(end - start) // a quoted part does not span lines
			if err == alphabet.ErrUnterminated {
				s.errs.Add(s.file, qpos, "unterminated quoted name")
				return tIllegal, pos, ""
			}
			if err != nil {
				s.errs.Add(s.file, qpos, "invalid quoted name %s", s.src[start:end])
				return tIllegal, pos, ""
			}
			text = append(text, u...)
			continue
		}
		return tName, pos, string(text)
	}
}

// QuoteName writes a vector name as it must appear in source text: bare when
// it has only name characters, otherwise with its non-bare tail quoted after
// the last '_' of a bare prefix (Q_"#"), or wholly quoted.
func QuoteName(name string) string {
	if alphabet.IsBare(name) {
		return name
	}
	best := -1
	for k := 0; k < len(name); k++ {
		if name[k] == '_' && alphabet.IsBare(name[:k+1]) {
			best = k
		}
	}
	return name[:best+1] + strconv.Quote(name[best+1:])
}
