package alphabet

import (
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
