package alphabet

import (
	"errors"
	"unicode/utf8"
)

// ErrEmptyQuote is ScanSymbol's error for the quoted symbol "": no symbol
// is empty.
var ErrEmptyQuote = errors.New("empty quoted symbol")

// ScanSymbol reads the symbol written at s[i], the one lexer of symbols and
// names that every text format shares (.brasp, .ltl, .dfa, .re, words):
// a double-quoted symbol when s[i] is '"' (ScanQuoted; the empty symbol ""
// is ErrEmptyQuote, with end just past it), otherwise the longest run of
// runes from s[i] for which bare holds (IsNameRune when bare is nil). It
// returns the offset just past the symbol, the symbol, and whether it was
// quoted; end == i when s[i] starts neither. Each format reports the errors
// in its own words.
func ScanSymbol[T ~string | ~[]byte](s T, i int, bare func(rune) bool) (end int, sym string, quoted bool, err error) {
	if i < len(s) && s[i] == '"' {
		end, sym, err = ScanQuoted(s, i)
		if err == nil && sym == "" {
			err = ErrEmptyQuote
		}
		return end, sym, true, err
	}
	if bare == nil {
		bare = IsNameRune
	}
	j := i
	for j < len(s) {
		r, size := utf8.DecodeRuneInString(string(s[j:min(j+utf8.UTFMax, len(s))]))
		if !bare(r) {
			break
		}
		j += size
	}
	return j, string(s[i:j]), false, nil
}
