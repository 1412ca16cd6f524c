package alphabet

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// wideAlphabet has 300 symbols s0 … s299: too many for ParseCompact.
var wideAlphabet = func() Alphabet {
	syms := make([]string, 300)
	for i := range syms {
		syms[i] = fmt.Sprintf("s%d", i)
	}
	return Alphabet(syms)
}()

// TestParseWide checks ParseWide against ParseWord on random words over
// an alphabet of 300 symbols (bare and quoted, any spacing), on words of
// one-character alphabets, and its errors.
func TestParseWide(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		var b strings.Builder
		var want []int
		for range rng.IntN(50) {
			k := rng.IntN(len(wideAlphabet))
			want = append(want, k)
			b.WriteString(strings.Repeat(" ", 1+rng.IntN(2)))
			if rng.IntN(4) == 0 {
				b.WriteString(`"` + wideAlphabet[k] + `"`)
			} else {
				b.WriteString(wideAlphabet[k])
			}
		}
		got, err := wideAlphabet.ParseWide([]byte(b.String()))
		if err != nil {
			t.Fatalf("%q: %v", b.String(), err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) && len(want) > 0 {
			t.Fatalf("%q: read %v, want %v", b.String(), got, want)
		}
	}
	for _, c := range []struct {
		a    Alphabet
		word string
	}{
		{Alphabet{"α", "β"}, "αββα"},
		{Alphabet{"l", "r"}, "lrrl"},
		{wideAlphabet, "s1 s300"},
		{wideAlphabet, `s1 "s2`},
		{Alphabet{"α", "β"}, "αγ"},
	} {
		want, wantErr := c.a.ParseWord(c.word)
		got, err := c.a.ParseWide([]byte(c.word))
		if fmt.Sprint(err) != fmt.Sprint(wantErr) || fmt.Sprint(got) != fmt.Sprint(want) && err == nil {
			t.Errorf("%q: %v %v, want %v %v", c.word, got, err, want, wantErr)
		}
	}
	huge := make(Alphabet, 1<<16+1)
	if _, err := huge.ParseWide([]byte("x")); err != ErrNotWide {
		t.Errorf("65537 symbols: %v, want ErrNotWide", err)
	}
}
