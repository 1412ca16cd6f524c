package alphabet

import (
	"fmt"
	"reflect"
	"testing"
)

func TestParseFormatWord(t *testing.T) {
	a, err := New("l", "r")
	if err != nil {
		t.Fatal(err)
	}
	w, err := a.ParseWord("llrr")
	if err != nil || !reflect.DeepEqual(w, []int{0, 0, 1, 1}) {
		t.Fatalf("ParseWord(llrr) = %v, %v", w, err)
	}
	if got := a.FormatWord(w); got != "llrr" {
		t.Errorf("FormatWord = %q", got)
	}
	if _, err := a.ParseWord("lxr"); err == nil {
		t.Error("ParseWord accepted a symbol outside the alphabet")
	}

	m, err := New("ab", "#", "c")
	if err != nil {
		t.Fatal(err)
	}
	w, err = m.ParseWord(`ab "#" c ab`)
	if err != nil || !reflect.DeepEqual(w, []int{0, 1, 2, 0}) {
		t.Fatalf("ParseWord = %v, %v", w, err)
	}
	if got := m.FormatWord(w); got != `ab "#" c ab` {
		t.Errorf("FormatWord = %q", got)
	}
	// A quote or a blank symbol of one character: separated and quoted.
	for _, syms := range [][]string{{"a", `"`}, {"a", "\t"}, {"a", "\u00a0"}} {
		q, err := New(syms...)
		if err != nil {
			t.Fatal(err)
		}
		text := q.FormatWord([]int{0, 1, 0, 1})
		if w, err := q.ParseWord(text); err != nil || !reflect.DeepEqual(w, []int{0, 1, 0, 1}) {
			t.Errorf("alphabet %v: %q reads back as %v, %v", syms, text, w, err)
		}
	}
	if _, err := m.ParseWord(`ab "#`); err == nil {
		t.Error("unterminated quote accepted")
	}
	if _, err := New("a", "a"); err == nil {
		t.Error("duplicate symbol accepted")
	}
	if _, err := New(""); err == nil {
		t.Error("empty symbol accepted")
	}
}

func TestQuote(t *testing.T) {
	for s, want := range map[string]string{"a": "a", "Y_?": "Y_?", "#": `"#"`, "(": `"("`, "a b": `"a b"`} {
		if got := Quote(s); got != want {
			t.Errorf("Quote(%q) = %s, want %s", s, got, want)
		}
	}
}

func BenchmarkParseWordASCII(b *testing.B) {
	a, _ := New("l", "r")
	s := make([]byte, 1<<20)
	for i := range s {
		s[i] = "lr"[i%3%2]
	}
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if _, err := a.ParseWord(string(s)); err != nil {
			b.Fatal(err)
		}
	}
}

// TestBrief checks that messages list at most 20 symbols of an alphabet.
func TestBrief(t *testing.T) {
	syms := make([]string, 10000)
	for i := range syms {
		syms[i] = fmt.Sprintf("s%d", i)
	}
	a, err := New(syms...)
	if err != nil {
		t.Fatal(err)
	}
	_, err = a.ParseWord("s1 x s2")
	want := "symbol 2 (x) is not in the alphabet {s0 s1 s2 s3 s4 s5 s6 s7 s8 s9 s10 s11 s12 s13 s14 s15 s16 s17 s18 s19 … and 9980 more}"
	if err == nil || err.Error() != want {
		t.Errorf("ParseWord error %q, want %q", err, want)
	}
	if got := a[:3].Brief(); got != "s0 s1 s2" {
		t.Errorf("Brief of a small alphabet = %q, want every symbol", got)
	}
}

// TestParseCompact checks that ParseCompact reads what ParseWord reads, a
// byte per symbol, in place for one-character ASCII alphabets, and gives
// ParseWord's errors.
func TestParseCompact(t *testing.T) {
	for _, c := range []struct {
		syms []string
		word string
	}{
		{[]string{"l", "r"}, "llrrlr"},
		{[]string{"a", "b", "#"}, "ab#ba"},
		{[]string{"α", "β"}, "αββα"},
		{[]string{"ab", "c", "#"}, `ab c "#" ab`},
		{[]string{"l", "r"}, "lxr"},
		{[]string{"a", "1", "b"}, "a 1 b 1 a"},
		{[]string{"a", "1", "b"}, `a "1"`},
		{[]string{"ab", "c"}, "ab d"},
	} {
		a, err := New(c.syms...)
		if err != nil {
			t.Fatal(err)
		}
		want, wantErr := a.ParseWord(c.word)
		buf := []byte(c.word)
		got, err := a.ParseCompact(buf)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Errorf("%q: error %v, want %v", c.word, err, wantErr)
			continue
		}
		if err != nil {
			continue
		}
		if len(got) != len(want) {
			t.Fatalf("%q: %d symbols, want %d", c.word, len(got), len(want))
		}
		for i := range want {
			if int(got[i]) != want[i] {
				t.Errorf("%q: symbol %d is %d, want %d", c.word, i, got[i], want[i])
			}
		}
		if len(got) > 0 && &got[0] != &buf[0] { // (packed at its start otherwise)
			t.Errorf("%q: not stored in the input's memory", c.word)
		}
	}
	big := make([]string, 257)
	for i := range big {
		big[i] = fmt.Sprintf("s%d", i)
	}
	a, _ := New(big...)
	if _, err := a.ParseCompact([]byte("s1")); err != ErrNotCompact {
		t.Errorf("257 symbols: %v, want ErrNotCompact", err)
	}
}

// FuzzParseCompact checks that ParseCompact reads every string as ParseWord
// does, over one-character, multi-character and non-ASCII alphabets.
func FuzzParseCompact(f *testing.F) {
	for _, s := range []string{"llrr", "l r", `"l" r`, "lxr", "ab c ab", "αβ", "", " ", "\"", "a\tb", "s0 s299 \"s7\"", "s300", "s1 \"s2"} {
		f.Add(s)
	}
	alphabets := []Alphabet{{"l", "r"}, {"ab", "c", "#"}, {"α", "β", "l"}, {"a", "b", "\""}}
	f.Fuzz(func(t *testing.T, s string) {
		for _, a := range alphabets {
			want, wantErr := a.ParseWord(s)
			got, err := a.ParseCompact([]byte(s))
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("{%s} %q: error %v, want %v", a, s, err, wantErr)
			}
			if len(got) != len(want) {
				t.Fatalf("{%s} %q: %d symbols, want %d", a, s, len(got), len(want))
			}
			for i := range want {
				if int(got[i]) != want[i] {
					t.Fatalf("{%s} %q: symbol %d is %d, want %d", a, s, i, got[i], want[i])
				}
			}
		}
		for _, a := range append(alphabets, wideAlphabet) {
			want, wantErr := a.ParseWord(s)
			got, err := a.ParseWide([]byte(s))
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("{%s} %q: ParseWide error %v, want %v", a.Brief(), s, err, wantErr)
			}
			if len(got) != len(want) {
				t.Fatalf("{%s} %q: ParseWide read %d symbols, want %d", a.Brief(), s, len(got), len(want))
			}
			for i := range want {
				if int(got[i]) != want[i] {
					t.Fatalf("{%s} %q: ParseWide symbol %d is %d, want %d", a.Brief(), s, i, got[i], want[i])
				}
			}
		}
	})
}

func TestParseSymbols(t *testing.T) {
	for _, c := range []struct {
		in, want, err string
	}{
		{`a b c`, `a b c`, ""},
		{`"a b" c`, `"a b" c`, ""},
		{` "(" x1	"é" `, `"(" x1 é`, ""},
		{`   `, ``, ""},
		{`a "b`, "", "unterminated quoted symbol at offset 2"},
		{`a ""`, "", `bad quoted symbol "" at offset 2`},
		{`a "a"`, "", "duplicate symbol a"},
	} {
		a, err := ParseSymbols(c.in)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("ParseSymbols(%q): %v, want error %q", c.in, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("ParseSymbols(%q): %v", c.in, err)
		case c.err == "" && a.String() != c.want:
			t.Errorf("ParseSymbols(%q) = %s, want %s", c.in, a, c.want)
		}
	}
}
