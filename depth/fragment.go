package depth

import "fmt"

// Fragment is a family of temporal operators, each standing for a family of
// attention operations, whose nesting depth is measured.
type Fragment uint8

const (
	// Since is LTL with strict since only: B-RASP and transformers with
	// future-masked rightmost attention (Thm 5.6).
	Since Fragment = iota
	// SinceUntil is LTL with strict since and until: future-masked rightmost
	// and past-masked leftmost attention (App. C).
	SinceUntil
	// All is every attention kind (three masks × two tie-breaks). An
	// operation of depth d is expressible in SinceUntil at depth 2d (App. C),
	// so its bounds are derived from SinceUntil's.
	All
)

// Fragments lists the fragments in order of inclusion.
var Fragments = []Fragment{Since, SinceUntil, All}

// String is the fragment's name on the command line.
func (f Fragment) String() string {
	switch f {
	case Since:
		return "since"
	case SinceUntil:
		return "since-until"
	case All:
		return "all"
	}
	return fmt.Sprintf("Fragment(%d)", uint8(f))
}

// ParseFragment reads a fragment name.
func ParseFragment(s string) (Fragment, error) {
	for _, f := range Fragments {
		if f.String() == s {
			return f, nil
		}
	}
	return 0, fmt.Errorf("unknown fragment %q (want since, since-until or all)", s)
}

// Describe says which attention the fragment stands for.
func (f Fragment) Describe() string {
	switch f {
	case Since:
		return "future-masked rightmost attention (LTL with since)"
	case SinceUntil:
		return "future-masked rightmost and past-masked leftmost attention (LTL with since and until)"
	}
	return "every attention kind"
}

// temporal reports whether the LTL fragment whose types are computed has
// until as well as since. All is measured through SinceUntil.
func (f Fragment) hasUntil() bool { return f != Since }
