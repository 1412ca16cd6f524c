// Package alphabet holds what every representation in brasp shares about
// input symbols: the finite alphabet, how a symbol is written in source text
// (bare or double-quoted), and how a word is read from and written to a string.
//
// Words are sequences of symbol indices into an Alphabet. A word is written one
// character per symbol when every symbol of the alphabet is a single
// character; otherwise its symbols are separated by spaces (as the brasp
// command reads and prints words). All of brasp's representations read non-empty words (the paper's
// Σ⁺); the empty word is still representable so that automata can speak of it.
package alphabet

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Alphabet is an ordered list of distinct symbols. The order fixes symbol
// indices, the numbering every interpreter and converter works with.
type Alphabet []string

// New returns the alphabet of the given symbols, or an error naming the first
// duplicate or invalid (empty) symbol.
func New(symbols ...string) (Alphabet, error) {
	seen := make(map[string]bool, len(symbols))
	for _, s := range symbols {
		if s == "" {
			return nil, fmt.Errorf("empty symbol")
		}
		if !utf8.ValidString(s) {
			return nil, fmt.Errorf("symbol %q is not valid UTF-8", s)
		}
		if seen[s] {
			return nil, fmt.Errorf("duplicate symbol %s", Quote(s))
		}
		seen[s] = true
	}
	return Alphabet(append([]string(nil), symbols...)), nil
}

// Index returns the index of symbol s, or -1 if s is not in the alphabet.
func (a Alphabet) Index(s string) int {
	for i, t := range a {
		if t == s {
			return i
		}
	}
	return -1
}

// Indexer returns a function that finds the index of a symbol, or -1: Index
// for small alphabets, a map built once for large ones, so that reading n
// symbols of a k-symbol alphabet costs O(n), not O(nk).
func (a Alphabet) Indexer() func(string) int {
	if len(a) <= 16 {
		return a.Index
	}
	m := make(map[string]int, len(a))
	for i, s := range a {
		m[s] = i
	}
	return func(s string) int {
		if i, ok := m[s]; ok {
			return i
		}
		return -1
	}
}

// Equal reports whether a and b list the same symbols in the same order.
func (a Alphabet) Equal(b Alphabet) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// SingleChar reports whether every symbol is exactly one character, in which
// case words are written without separators.
func (a Alphabet) SingleChar() bool {
	for _, s := range a {
		if utf8.RuneCountInString(s) != 1 || s == " " {
			return false
		}
	}
	return true
}

// Unseparated reports whether FormatWord writes the words over a without
// separators: every symbol is one character (SingleChar) and none is white
// space or a double quote, which ParseWord reads as a separator and a
// quote.
func (a Alphabet) Unseparated() bool {
	if !a.SingleChar() {
		return false
	}
	for _, s := range a {
		if s == `"` || strings.TrimSpace(s) == "" {
			return false
		}
	}
	return true
}

// ParseWord reads a word written in the CLI convention: one character per
// symbol when every symbol is one character, otherwise symbols separated by
// white space. Symbols may also be double-quoted in the separated form.
func (a Alphabet) ParseWord(s string) ([]int, error) {
	if w, ok := a.parseASCII(s); ok {
		return w, nil
	}
	index := a.Indexer()
	if a.SingleChar() && !strings.ContainsAny(s, " \t\"") {
		w := make([]int, 0, len(s))
		for off, r := range s {
			k := index(string(r))
			if k < 0 {
				return nil, fmt.Errorf("symbol %s at offset %d is not in the alphabet {%s}", Quote(string(r)), off, a.Brief())
			}
			w = append(w, k)
		}
		return w, nil
	}
	fields, err := splitSymbols(s)
	if err != nil {
		return nil, err
	}
	w := make([]int, 0, len(fields))
	for n, f := range fields {
		k := index(f)
		if k < 0 {
			return nil, fmt.Errorf("symbol %d (%s) is not in the alphabet {%s}", n+1, Quote(f), a.Brief())
		}
		w = append(w, k)
	}
	return w, nil
}

// ErrNotCompact is ParseCompact's error for an alphabet of more than 256
// symbols, whose indices do not fit a byte: use ParseWord.
var ErrNotCompact = fmt.Errorf("more than 256 symbols: indices do not fit a byte")

// ParseCompact is ParseWord storing a byte per symbol, for alphabets of at
// most 256 symbols (ErrNotCompact otherwise), so that a long word costs a
// byte per symbol. It overwrites s: when every symbol is one ASCII
// character, the indices are written over the characters themselves and
// the word is s; otherwise the word is read as ParseWord reads it and
// packed into s's first bytes (every symbol takes at least a byte of s).
func (a Alphabet) ParseCompact(s []byte) ([]byte, error) {
	if len(a) > 256 {
		return nil, ErrNotCompact
	}
	var table [256]int16
	ascii := true
	for i := range table {
		table[i] = -1
	}
	for k, sym := range a {
		if len(sym) != 1 || sym[0] >= 128 || sym == " " || sym == "\t" || sym == "\"" {
			ascii = false
			break
		}
		table[sym[0]] = int16(k)
	}
	if ascii {
		i := 0
		for ; i < len(s) && table[s[i]] >= 0; i++ {
			s[i] = byte(table[s[i]])
		}
		if i == len(s) {
			return s, nil
		}
		// Separators, quotes or a bad symbol: restore the characters and
		// read the word as ParseWord does.
		for j := range s[:i] {
			s[j] = a[s[j]][0]
		}
	}
	// Every symbol takes at least a byte of s, so the i-th index is written
	// at or before the i-th symbol's first byte, after the symbol was read;
	// a first pass checks the word so that s is changed only when it is
	// good (ParseWord then describes the problem).
	if !a.eachSymbol(s, func(int) {}) {
		w, err := a.ParseWord(string(s))
		if err != nil {
			return nil, err
		}
		out := s[:len(w)]
		for i, k := range w {
			out[i] = byte(k)
		}
		return out, nil
	}
	n := 0
	a.eachSymbol(s, func(k int) {
		s[n] = byte(k)
		n++
	})
	return s[:n], nil
}

// parseASCII is the fast path of ParseWord for alphabets of single ASCII
// characters: one table lookup per byte. It reports false when it does not
// apply or finds a byte it cannot map, leaving errors to the general path.
func (a Alphabet) parseASCII(s string) ([]int, bool) {
	var table [128]int8
	for i := range table {
		table[i] = -1
	}
	if len(a) > 127 {
		return nil, false
	}
	for k, sym := range a {
		if len(sym) != 1 || sym[0] >= 128 || sym == " " || sym == "\t" || sym == "\"" {
			return nil, false
		}
		table[sym[0]] = int8(k)
	}
	w := make([]int, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 128 || table[c] < 0 {
			return nil, false
		}
		w[i] = int(table[c])
	}
	return w, true
}

func notSpace(r rune) bool { return !unicode.IsSpace(r) }

// ParseSymbols reads a list of symbols separated by white space, each bare
// or double-quoted as in a word ("a b" c is the two symbols a b and c), into
// an alphabet: no symbol may be listed twice (New).
func ParseSymbols(s string) (Alphabet, error) {
	fields, err := splitSymbols(s)
	if err != nil {
		return nil, err
	}
	return New(fields...)
}

// splitSymbols splits s at white space, honouring double-quoted symbols.
func splitSymbols(s string) ([]string, error) {
	var out []string
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.IsSpace(r):
			i += size
		default:
			end, u, _, err := ScanSymbol(s, i, notSpace)
			if err == ErrUnterminated {
				return nil, fmt.Errorf("unterminated quoted symbol at offset %d", i)
			}
			if err != nil {
				return nil, fmt.Errorf("bad quoted symbol %s at offset %d", s[i:end], i)
			}
			out = append(out, u)
			i = end
		}
	}
	return out, nil
}

// FormatWord writes w in the CLI convention, the inverse of ParseWord:
// unseparated when a.Unseparated, otherwise symbols separated by spaces
// and quoted where they are not bare.
func (a Alphabet) FormatWord(w []int) string {
	var b strings.Builder
	single := a.Unseparated()
	for n, k := range w {
		if single {
			b.WriteString(a[k])
			continue
		}
		if n > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(Quote(a[k]))
	}
	return b.String()
}

// String lists the symbols separated by spaces, quoted where needed.
func (a Alphabet) String() string {
	q := make([]string, len(a))
	for i, s := range a {
		q[i] = Quote(s)
	}
	return strings.Join(q, " ")
}

// briefSymbols is how many symbols Brief lists.
const briefSymbols = 20

// Brief is String for messages: at most the first 20 symbols, then how many
// more there are, so that an error about a 10,000-symbol alphabet stays one
// short line.
func (a Alphabet) Brief() string {
	if len(a) <= briefSymbols {
		return a.String()
	}
	return a[:briefSymbols].String() + fmt.Sprintf(" … and %d more", len(a)-briefSymbols)
}

// IsBare reports whether symbol s can be written without quotes: it consists
// only of letters, digits, '_' and '?', the characters of B-RASP names.
func IsBare(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !IsNameRune(r) {
			return false
		}
	}
	return true
}

// IsNameRune reports whether r may appear in a bare name or symbol.
func IsNameRune(r rune) bool {
	return r == '_' || r == '?' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// Quote writes symbol s as it appears in source text: bare when IsBare,
// otherwise as a Go-style double-quoted string.
func Quote(s string) string {
	if IsBare(s) {
		return s
	}
	return strconv.Quote(s)
}
