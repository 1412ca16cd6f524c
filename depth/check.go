package depth

import (
	"fmt"

	"github.com/brasp-dev/brasp/budget"
)

// Check re-checks a certificate from scratch, independently of the search
// that found it: with a fresh table it computes the depth-k types of both
// words' last positions in the fragment (All is checked as SinceUntil, the
// depth then being that of LTL) and the words' verdicts. It returns nil when
// in is in the language, out is not, and their types are equal: then no
// formula of the fragment of depth ≤ k tells them apart.
func Check(b *budget.Budget, lang Language, frag Fragment, in, out []int, k int) error {
	if len(in) == 0 || len(out) == 0 {
		return fmt.Errorf("certificate words must be non-empty")
	}
	if k < 0 {
		return fmt.Errorf("depth %d is negative", k)
	}
	member := lang.member()
	if acc, err := member(in); err != nil {
		return err
	} else if !acc {
		return fmt.Errorf("%s is not in the language", show(lang, in))
	}
	if acc, err := member(out); err != nil {
		return err
	} else if acc {
		return fmt.Errorf("%s is in the language", show(lang, out))
	}
	tab := NewTable(b, lang.Atoms, frag)
	tin, err := tab.WordType(b, in, k)
	if err != nil {
		return err
	}
	tout, err := tab.WordType(b, out, k)
	if err != nil {
		return err
	}
	if tin != tout {
		return fmt.Errorf("%s and %s have different depth-%d types in the %s fragment", show(lang, in), show(lang, out), k, frag)
	}
	return nil
}

func show(lang Language, w []int) string { return fmt.Sprintf("%q", lang.Atoms.Alphabet.FormatWord(w)) }
