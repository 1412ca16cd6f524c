package ltl

import (
	"errors"

	"github.com/brasp-dev/brasp/source"
)

// Named errors for the parser's limits and the converters' limits; a returned
// error wraps one of them when that limit was hit, so callers can test it
// with errors.Is.
var (
	// ErrNesting: parentheses, prefix operators and lets nested deeper than
	// Limits.MaxNesting.
	ErrNesting = errors.New("formula nested too deeply")
	// ErrTooLarge: the source has more tokens than Limits.MaxTokens.
	ErrTooLarge = errors.New("formula too large")
)

// Pos is a 1-based line and byte column in a source file. It is source.Pos,
// shared with the other parsers of the toolkit.
type Pos = source.Pos

// Error is one problem found in a formula, at File:Pos, printed as
// file:line:col: message; it unwraps to a named error such as ErrNesting, or
// to nil. It is source.Error, so errors.As with *ltl.Error also matches the
// errors of the other parsers (such as *brasp.Error).
type Error = source.Error

// ErrorList is every problem found in one source, sorted by position and
// printed one per line (like go/scanner.ErrorList). It is source.ErrorList.
type ErrorList = source.ErrorList
