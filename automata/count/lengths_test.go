package count

import (
	"strconv"
	"strings"
	"testing"
)

func TestParseLengths(t *testing.T) {
	for s, want := range map[string][2]int{"1:40": {1, 40}, "7": {7, 7}, "3:3": {3, 3}, "1:1048576": {1, MaxLength}} {
		lo, hi, err := ParseLengths(s)
		if err != nil || lo != want[0] || hi != want[1] {
			t.Errorf("ParseLengths(%q) = %d, %d, %v; want %v", s, lo, hi, err, want)
		}
	}
	for s, want := range map[string]string{
		"5:2":                       "the shortest, 5, is longer than the longest, 2",
		"0:3":                       "lengths start at 1 (brasp words are non-empty)",
		"0":                         "lengths start at 1",
		"":                          "want MIN:MAX",
		":4":                        "want MIN:MAX",
		"4:":                        "want MIN:MAX",
		"1:2:3":                     `"2:3" is not a length`,
		"-1:3":                      `"-1" is not a length`,
		"1:+3":                      `"+3" is not a length`,
		" 1:3":                      `" 1" is not a length`,
		"1:1048577":                 "1048577 is longer than 1048576",
		"1:99999999999999999999999": "is longer than 1048576",
	} {
		_, _, err := ParseLengths(s)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseLengths(%q): %v, want an error containing %q", s, err, want)
		}
	}
}

// FuzzParseLengths: any text either parses to a range 1 ≤ lo ≤ hi ≤
// MaxLength that reads back the same, or is refused with a message
// quoting it.
func FuzzParseLengths(f *testing.F) {
	for _, s := range []string{"1:40", "7", "5:2", "0:3", "", ":", "1:x", "00001:0002", "1:1048577", "٣:4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lo, hi, err := ParseLengths(s)
		if err != nil {
			if !strings.Contains(err.Error(), "lengths "+strconv.Quote(s)) {
				t.Fatalf("ParseLengths(%q): the message does not quote the input: %v", s, err)
			}
			return
		}
		if lo < 1 || lo > hi || hi > MaxLength {
			t.Fatalf("ParseLengths(%q) = %d, %d", s, lo, hi)
		}
		lo2, hi2, err := ParseLengths(strconv.Itoa(lo) + ":" + strconv.Itoa(hi))
		if err != nil || lo2 != lo || hi2 != hi {
			t.Fatalf("ParseLengths(%q) = %d, %d, but %d:%d reads as %d, %d, %v", s, lo, hi, lo, hi, lo2, hi2, err)
		}
	})
}
