package alphabet

import (
	"testing"
	"unicode"
)

func TestScanSymbol(t *testing.T) {
	notSpaceOrHash := func(r rune) bool { return !unicode.IsSpace(r) && r != '#' }
	cases := []struct {
		src    string
		i      int
		bare   func(rune) bool
		end    int
		sym    string
		quoted bool
		err    error
	}{
		{"abc def", 0, nil, 3, "abc", false, nil},
		{"abc def", 4, nil, 7, "def", false, nil},
		{"Q_a?(i)", 0, nil, 4, "Q_a?", false, nil},
		{"äb1 x", 0, nil, 4, "äb1", false, nil},
		{"+x", 0, nil, 0, "", false, nil},
		{`"#" a`, 0, nil, 3, "#", true, nil},
		{`"a\"b"c`, 0, nil, 6, `a"b`, true, nil},
		{`"" a`, 0, nil, 2, "", true, ErrEmptyQuote},
		{"\"ab\nc\"", 0, nil, 3, "", true, ErrUnterminated},
		{`"\q"`, 0, nil, 4, "", true, ErrMalformedQuote},
		{"a#b c", 0, notSpaceOrHash, 1, "a", false, nil},
		{"a+b c", 0, notSpaceOrHash, 3, "a+b", false, nil},
	}
	for _, c := range cases {
		end, sym, quoted, err := ScanSymbol(c.src, c.i, c.bare)
		if end != c.end || sym != c.sym || quoted != c.quoted || err != c.err {
			t.Errorf("ScanSymbol(%q, %d) = %d, %q, %v, %v; want %d, %q, %v, %v", c.src, c.i, end, sym, quoted, err, c.end, c.sym, c.quoted, c.err)
		}
		bend, bsym, bquoted, berr := ScanSymbol([]byte(c.src), c.i, c.bare)
		if bend != end || bsym != sym || bquoted != quoted || berr != err {
			t.Errorf("ScanSymbol([]byte(%q)) differs from the string form", c.src)
		}
	}
}

// FuzzScanSymbol: ScanSymbol stays within its input and makes progress on
// everything that starts a symbol, and a symbol it reads, written back with
// Quote, reads back the same.
func FuzzScanSymbol(f *testing.F) {
	for _, s := range []string{"abc", `"#"`, `""`, `"a\"b"`, "\"x\n", "ä_1?", "+", `"\xff"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" {
			return
		}
		end, sym, quoted, err := ScanSymbol(s, 0, nil)
		if end < 0 || end > len(s) {
			t.Fatalf("end %d outside %q", end, s)
		}
		if quoted && end == 0 {
			t.Fatalf("no progress on a quote: %q", s)
		}
		if err != nil || end == 0 {
			return
		}
		q := Quote(sym)
		end2, sym2, _, err2 := ScanSymbol(q, 0, nil)
		if err2 != nil || end2 != len(q) || sym2 != sym {
			t.Fatalf("%q: symbol %q quoted as %s reads back as %q (%v)", s, sym, q, sym2, err2)
		}
	})
}
