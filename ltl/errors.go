package ltl

import (
	"errors"
	"fmt"
	"sort"
	"strings"
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
	// ErrSizeLimit: a converter's output would exceed its size limit.
	ErrSizeLimit = errors.New("formula size limit exceeded")
)

// Pos is a 1-based line and byte column in a source file.
type Pos struct {
	Line, Col int
}

// String writes the position as line:col.
func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Error is one problem found in a formula, at File:Pos.
type Error struct {
	File string
	Pos  Pos
	Msg  string
	Err  error // a named error such as ErrNesting, or nil
}

// Error writes file:line:col: message.
func (e *Error) Error() string {
	if e.File != "" {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
	}
	return fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg)
}

// Unwrap returns the named error behind e, if any.
func (e *Error) Unwrap() error { return e.Err }

// ErrorList is every problem found in one source, sorted by position and
// printed one per line (like go/scanner.ErrorList).
type ErrorList []*Error

// Error writes one error per line.
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap returns the errors of the list, so errors.Is sees named errors.
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

func (l *ErrorList) add(file string, pos Pos, named error, format string, args ...any) {
	*l = append(*l, &Error{File: file, Pos: pos, Msg: fmt.Sprintf(format, args...), Err: named})
}

// err returns the sorted list as an error, or nil when empty.
func (l ErrorList) err() error {
	if len(l) == 0 {
		return nil
	}
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		return a.Line < b.Line || (a.Line == b.Line && a.Col < b.Col)
	})
	return l
}
