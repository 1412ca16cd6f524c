package alphabet

import (
	"bytes"
	"errors"
	"unicode"
	"unicode/utf8"
)

// ErrNotWide is ParseWide's error for an alphabet of more than 65536
// symbols, whose indices do not fit two bytes: use ParseWord.
var ErrNotWide = errors.New("more than 65536 symbols: indices do not fit two bytes")

// ParseWide is ParseWord storing two bytes per symbol, for alphabets of at
// most 65536 symbols (ErrNotWide otherwise): the compact form of words
// over alphabets too large for ParseCompact. It reads s twice (counting,
// then storing) so that the word is allocated once at its exact length
// and no slice of ints or strings per symbol is ever held. Errors are
// ParseWord's.
func (a Alphabet) ParseWide(s []byte) ([]uint16, error) {
	if len(a) > 1<<16 {
		return nil, ErrNotWide
	}
	n := 0
	if !a.eachSymbol(s, func(int) { n++ }) {
		ints, err := a.ParseWord(string(s))
		if err != nil {
			return nil, err
		}
		w := make([]uint16, len(ints))
		for i, k := range ints {
			w[i] = uint16(k)
		}
		return w, nil
	}
	w := make([]uint16, 0, n)
	a.eachSymbol(s, func(k int) { w = append(w, uint16(k)) })
	return w, nil
}

// eachSymbol calls emit with the index of every symbol of the word written
// in s, as ParseWord reads it, without building a slice. It reports false
// (having stopped) at the first problem, which ParseWord then describes.
func (a Alphabet) eachSymbol(s []byte, emit func(k int)) bool {
	index := a.byteIndexer()
	if a.SingleChar() && !bytes.ContainsAny(s, " \t\"") {
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 {
				return false
			}
			k := index(s[i : i+size])
			if k < 0 {
				return false
			}
			emit(k)
			i += size
		}
		return true
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRune(s[i:])
		if unicode.IsSpace(r) {
			i += size
			continue
		}
		var k int
		end := i
		if s[i] == '"' {
			var sym string
			var err error
			if end, sym, _, err = ScanSymbol(s, i, notSpace); err != nil {
				return false
			}
			k = index([]byte(sym))
		} else {
			// A bare symbol (ScanSymbol's run of non-space runes), looked
			// up without a string per symbol.
			for end < len(s) {
				r, size := utf8.DecodeRune(s[end:])
				if unicode.IsSpace(r) {
					break
				}
				end += size
			}
			k = index(s[i:end])
		}
		if k < 0 {
			return false
		}
		emit(k)
		i = end
	}
	return true
}

// byteIndexer is Indexer for symbols given as bytes, which it looks up
// without making a string of them.
func (a Alphabet) byteIndexer() func([]byte) int {
	m := make(map[string]int, len(a))
	for i, s := range a {
		m[s] = i
	}
	return func(b []byte) int {
		if i, ok := m[string(b)]; ok {
			return i
		}
		return -1
	}
}
