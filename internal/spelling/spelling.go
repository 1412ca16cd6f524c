// Package spelling matches the operator and punctuation spellings of the
// .brasp, .ltl and .ltlf lexers. Each lexer lists its spellings once, as a
// Table from text to its own token kind, and asks for the longest spelling
// that starts the rest of its input; names, numbers, quoted symbols,
// comments and positions stay with the lexer, whose rules for them differ.
package spelling

import (
	"cmp"
	"slices"
)

// spelling is one way of writing a token of kind K.
type spelling[K any] struct {
	text string
	kind K
}

// Table is a set of spellings, longest first, with the bytes that start
// one, so that a character that starts none costs one look-up.
type Table[K any] struct {
	spellings []spelling[K]
	starts    [256]bool
}

// New returns the table of the spellings, each a text (not empty) and the
// kind of token it writes.
func New[K any](spellings map[string]K) *Table[K] {
	t := &Table[K]{}
	for text, kind := range spellings {
		t.spellings = append(t.spellings, spelling[K]{text, kind})
		t.starts[text[0]] = true
	}
	slices.SortFunc(t.spellings, func(a, b spelling[K]) int {
		return cmp.Or(cmp.Compare(len(b.text), len(a.text)), cmp.Compare(a.text, b.text))
	})
	return t
}

// Match returns the kind and length of the longest spelling that src
// starts with, or ok false when it starts with none.
func (t *Table[K]) Match(src []byte) (kind K, n int, ok bool) {
	if len(src) == 0 || !t.starts[src[0]] {
		return kind, 0, false
	}
	for _, s := range t.spellings {
		if len(src) >= len(s.text) && string(src[:len(s.text)]) == s.text {
			return s.kind, len(s.text), true
		}
	}
	return kind, 0, false
}
