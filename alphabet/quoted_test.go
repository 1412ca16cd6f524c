package alphabet

import (
	"errors"
	"testing"
)

func TestScanQuoted(t *testing.T) {
	for _, c := range []struct {
		in   string
		end  int
		sym  string
		want error
	}{
		{`"#" rest`, 3, "#", nil},
		{`""`, 2, "", nil},
		{`"a\"b"x`, 6, `a"b`, nil},
		{`"\\"`, 4, `\`, nil},
		{`"é"`, 4, "é", nil},
		{`"abc`, 4, "", ErrUnterminated},
		{"\"ab\ncd\"", 3, "", ErrUnterminated},
		{"\"ab\\\ncd\"", 4, "", ErrUnterminated},
		{`"a\`, 3, "", ErrUnterminated},
		{`"\q"`, 4, "", ErrMalformedQuote},
		{"\"\xff\"", 3, "", ErrMalformedQuote},
		{`"\xff"`, 6, "", ErrMalformedQuote},
	} {
		end, sym, err := ScanQuoted(c.in, 0)
		if end != c.end || sym != c.sym || !errors.Is(err, c.want) {
			t.Errorf("ScanQuoted(%q) = %d, %q, %v; want %d, %q, %v", c.in, end, sym, err, c.end, c.sym, c.want)
		}
		bend, bsym, berr := ScanQuoted([]byte(c.in), 0)
		if bend != end || bsym != sym || berr != err {
			t.Errorf("ScanQuoted([]byte(%q)) differs from the string form", c.in)
		}
	}
	// Quote and ScanQuoted are inverse on every symbol that needs quotes.
	for _, s := range []string{"#", "a b", `"`, `\`, "\t", "[", "é ü", "日本"} {
		q := Quote(s)
		end, got, err := ScanQuoted(q, 0)
		if q[0] == '"' && (err != nil || got != s || end != len(q)) {
			t.Errorf("ScanQuoted(Quote(%q)) = %d, %q, %v", s, end, got, err)
		}
	}
}
