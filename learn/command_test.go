package learn

import (
	"testing"
)

// FuzzParseAnswer: any answer line is read or refused with an error, never
// a panic, and what is read has the verdicts the mode asks for.
func FuzzParseAnswer(f *testing.F) {
	for _, s := range []string{"accept", "reject", "accept\r", " reject ", "0101", "1", "", "maybe", "01x1", "acceptreject"} {
		f.Add(s, 4, true)
		f.Add(s, 1, false)
	}
	f.Fuzz(func(t *testing.T, s string, n int, prefixes bool) {
		if n < 0 || n > 1<<12 {
			return
		}
		v, err := ParseAnswer(s, n, prefixes)
		if err != nil {
			return
		}
		want := 1
		if prefixes {
			want = n
		}
		if len(v) != want {
			t.Fatalf("ParseAnswer(%q, %d, %v) = %d verdicts, want %d", s, n, prefixes, len(v), want)
		}
	})
}

func TestParseAnswer(t *testing.T) {
	if v, err := ParseAnswer("accept", 3, false); err != nil || !v[0] {
		t.Fatal(v, err)
	}
	if v, err := ParseAnswer("011", 3, true); err != nil || v[0] || !v[1] || !v[2] {
		t.Fatal(v, err)
	}
	for _, bad := range []string{"yes", "01", "0a1"} {
		if _, err := ParseAnswer(bad, 3, bad != "yes"); err == nil {
			t.Errorf("ParseAnswer(%q) accepted", bad)
		}
	}
}
