package alphabet

import (
	"errors"
	"strconv"
	"unicode/utf8"
)

// Errors of ScanQuoted, so that every parser reports a bad quoted symbol in
// its own words while reading it the same way.
var (
	// ErrUnterminated: the closing quote is missing before the end of the
	// line or the text.
	ErrUnterminated = errors.New("unterminated quoted symbol")
	// ErrMalformedQuote: the quoted text is not a Go string literal of valid
	// UTF-8.
	ErrMalformedQuote = errors.New("malformed quoted symbol")
)

// ScanQuoted reads the double-quoted symbol that starts at s[i] (s[i] must
// be '"'): the inverse of Quote, shared by every parser that accepts quoted
// symbols or names. A quoted symbol ends at the first unescaped '"' and may
// not span lines. It returns the offset just past the closing quote and the
// decoded symbol, which may be empty (the callers decide whether that is
// allowed). On ErrUnterminated end is the offset of the end of the line (or
// of s); on ErrMalformedQuote it is just past the closing quote.
func ScanQuoted[T ~string | ~[]byte](s T, i int) (end int, sym string, err error) {
	j := i + 1
	for j < len(s) && s[j] != '"' && s[j] != '\n' {
		if s[j] == '\\' && j+1 < len(s) && s[j+1] != '\n' {
			j++
		}
		j++
	}
	if j >= len(s) || s[j] != '"' {
		return j, "", ErrUnterminated
	}
	lit := string(s[i : j+1])
	u, uerr := strconv.Unquote(lit)
	if uerr != nil || !utf8.ValidString(lit) || !utf8.ValidString(u) {
		return j + 1, "", ErrMalformedQuote
	}
	return j + 1, u, nil
}
