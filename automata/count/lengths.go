package count

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxLength is the longest length ParseLengths accepts; the tables'
// limit (count-table-bytes) usually stops far below it.
const MaxLength = 1 << 20

// ParseLengths reads a range of word lengths, "MIN:MAX" or one length
// "N": 1 ≤ MIN ≤ MAX ≤ MaxLength (brasp words are non-empty).
func ParseLengths(s string) (lo, hi int, err error) {
	a, b, isRange := strings.Cut(s, ":")
	if lo, err = parseLength(a, s); err != nil {
		return 0, 0, err
	}
	hi = lo
	if isRange {
		if hi, err = parseLength(b, s); err != nil {
			return 0, 0, err
		}
	}
	if lo > hi {
		return 0, 0, fmt.Errorf("lengths %q: the shortest, %d, is longer than the longest, %d (want MIN:MAX with MIN ≤ MAX)", s, lo, hi)
	}
	return lo, hi, nil
}

// parseLength reads one bound of the range s.
func parseLength(x, s string) (int, error) {
	if x == "" {
		return 0, fmt.Errorf("lengths %q: want MIN:MAX (such as 1:40) or one length N", s)
	}
	for _, r := range x {
		if r < '0' || r > '9' {
			return 0, fmt.Errorf("lengths %q: %q is not a length (want MIN:MAX, such as 1:40, or one length N)", s, x)
		}
	}
	n, err := strconv.Atoi(x)
	if err != nil || n > MaxLength {
		return 0, fmt.Errorf("lengths %q: %s is longer than %d, the longest length", s, x, MaxLength)
	}
	if n == 0 {
		return 0, fmt.Errorf("lengths %q: lengths start at 1 (brasp words are non-empty)", s)
	}
	return n, nil
}
