// Package testkit is what brasp's tests share: every word up to a length,
// words parsed or the test failed, files loaded or the test failed, and
// golden files with one update switch.
//
// The switch is the -update flag, registered here once for every test
// binary that imports testkit: go test ./brasp -update rewrites the golden
// files of package brasp, go test ./cmd/brasp -update the expected output
// in the CLI scripts (testdata/script/*.txtar). Tests read it as
// *testkit.Update, or let Golden read it.
//
// testkit imports only alphabet and budget, so that the internal tests of every other
// package can use it.
package testkit

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
)

// Update is the -update flag: rewrite golden files (and the CLI scripts'
// expected output) instead of comparing with them.
var Update = flag.Bool("update", false, "rewrite golden files and the expected output of the CLI scripts")

// EachWord calls f on every word over k symbols with length minLen..maxLen,
// in short-lex order (by length, then lexicographically). The slice passed
// to f is reused: copy it to keep it.
func EachWord(k, minLen, maxLen int, f func(w []int)) {
	if k <= 0 {
		if minLen == 0 && maxLen >= 0 {
			f([]int{})
		}
		return
	}
	buf := make([]int, max(maxLen, 0))
	for n := max(minLen, 0); n <= maxLen; n++ {
		w := buf[:n]
		clear(w)
		for {
			f(w)
			i := n - 1
			for i >= 0 && w[i] == k-1 {
				w[i] = 0
				i--
			}
			if i < 0 {
				break
			}
			w[i]++
		}
	}
}

// Words returns every word over k symbols with length minLen..maxLen, in
// short-lex order (EachWord's), each its own slice.
func Words(k, minLen, maxLen int) [][]int {
	var out [][]int
	EachWord(k, minLen, maxLen, func(w []int) { out = append(out, append([]int{}, w...)) })
	return out
}

// Letters returns the alphabet of k single-letter symbols a, b, c, ... (k
// between 1 and 26, clamped).
func Letters(k int) alphabet.Alphabet {
	k = max(1, min(k, 26))
	a := make(alphabet.Alphabet, k)
	for i := range a {
		a[i] = string(rune('a' + i))
	}
	return a
}

// Word parses s as a word over alpha (alphabet.Alphabet.ParseWord; "" is the
// empty word), failing the test if it is not one.
func Word(t testing.TB, alpha alphabet.Alphabet, s string) []int {
	t.Helper()
	if s == "" {
		return []int{}
	}
	w, err := alpha.ParseWord(s)
	if err != nil {
		t.Fatalf("word %q: %v", s, err)
	}
	return w
}

// Load reads the file at path and parses it with parse (a package's Parse
// function: file name for messages, then contents), failing the test on
// either error.
func Load[T any](t testing.TB, path string, parse func(filename string, src []byte) (T, error)) T {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v, err := parse(path, src)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

// Golden compares got with the contents of the golden file at path and
// fails the test with both if they differ; with -update it writes got to
// path instead.
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	if *Update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err := compareGolden(path, got); err != nil {
		t.Error(err)
	}
}

// compareGolden says how got differs from the file at path, or returns nil.
func compareGolden(path string, got []byte) error {
	want, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("%v (run go test with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("%s differs from what the test computes (run go test with -update if the change is intended):\n--- got\n%s--- want\n%s", path, got, want)
	}
	return nil
}
