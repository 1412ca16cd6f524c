package artifact

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/brasp-dev/brasp/budget"
)

// FuzzLineReader checks that LineReader returns the lines of its input
// (without "\n" or "\r\n" endings, a last line without an ending included)
// with name:LINE positions, and refuses exactly the lines longer than
// word-bytes, reading one byte at a time or in large blocks.
func FuzzLineReader(f *testing.F) {
	for _, s := range []string{"", "a", "a\n", "ab\r\ncd", "\n\n", "abcdefgh\nab\n", strings.Repeat("x", 70000) + "\ny"} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		if max <= 0 || max > 1<<20 || strings.Contains(s, "\r\r") {
			return // (a run of '\r' before a newline counts toward the limit)
		}
		want := strings.Split(s, "\n")
		if want[len(want)-1] == "" {
			want = want[:len(want)-1]
		}
		for _, oneByte := range []bool{false, true} {
			var r io.Reader = strings.NewReader(s)
			if oneByte {
				r = iotest.OneByteReader(r)
			}
			b := budget.New(context.Background(), budget.Settings{"word-bytes": int64(max)})
			lr := NewLineReader(b, r, "f")
			for n := 0; ; n++ {
				line, where, err := lr.Next()
				if err == io.EOF {
					if n != len(want) {
						t.Fatalf("%q: %d lines, want %d", s, n, len(want))
					}
					break
				}
				if n >= len(want) {
					t.Fatalf("%q: more than %d lines", s, len(want))
				}
				w := strings.TrimRight(want[n], "\r\n")
				if len(w) > max {
					if !errors.Is(err, budget.ErrLimit) {
						t.Fatalf("%q line %d (%d bytes, limit %d): %v, want the word-bytes limit", s, n+1, len(w), max, err)
					}
					break
				}
				if err != nil || string(line) != w || where != "f:"+strconv.Itoa(n+1) {
					t.Fatalf("%q line %d: %q at %s (%v), want %q", s, n+1, line, where, err, w)
				}
			}
		}
	})
}
