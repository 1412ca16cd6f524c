package learn

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
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

// FuzzReadAnswers: a whole reply stream (any bytes, split into lines as
// Command reads them) answering a batch is read or refused with an error,
// never a panic; what is read has one answer per word with the verdicts
// the mode asks for, and is what the first lines of the stream say.
func FuzzReadAnswers(f *testing.F) {
	for _, s := range []string{
		"accept\nreject\naccept\n", "accept\r\nreject\r\n", "accept\n", "", "\n\n\n",
		"1\n01\n101\n", "1\n01\n", "1\n0x\n101\n", "accept\nreject\naccept\nextra\n",
		"1\n01\n101\n0000\n", "reject\n\x00\n", strings.Repeat("1", 5000) + "\n",
	} {
		f.Add([]byte(s), uint8(3), false)
		f.Add([]byte(s), uint8(3), true)
	}
	alpha := alphabet.Alphabet{"a", "b"}
	f.Fuzz(func(t *testing.T, stream []byte, n uint8, prefixes bool) {
		words := make([][]int, n%16)
		for i := range words {
			words[i] = make([]int, i%4+1)
		}
		c := &Command{lines: make(chan line, 1024)}
		c.lineCap.Store(4096)
		go c.readLines(bytes.NewReader(stream))
		var lines []string
		out, err := ReadAnswers(alpha, words, prefixes, func(i int) (string, error) {
			l, ok := <-c.lines
			if !ok {
				t.Fatal("the lines ended without an error")
			}
			if l.err != nil {
				return "", l.err
			}
			if len(l.text) > 4096 || strings.Contains(l.text, "\n") {
				t.Fatalf("a line of %d bytes read past the cap or a newline", len(l.text))
			}
			lines = append(lines, l.text)
			return l.text, nil
		})
		for range c.lines {
		}
		if err != nil {
			return
		}
		if len(out) != len(words) {
			t.Fatalf("%d answers to %d words", len(out), len(words))
		}
		for i, v := range out {
			want := 1
			if prefixes {
				want = len(words[i])
			}
			if len(v) != want {
				t.Fatalf("answer %d: %d verdicts, want %d", i, len(v), want)
			}
			if again, err := ParseAnswer(lines[i], len(words[i]), prefixes); err != nil || !slices.Equal(again, v) {
				t.Fatalf("answer %d is not what line %q says", i, lines[i])
			}
		}
	})
}
