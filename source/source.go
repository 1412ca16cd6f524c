// Package source holds the source positions and error lists shared by the
// toolkit's text parsers (the B-RASP parser and checker in package brasp and
// the LTL parser in package ltl), in the style of go/token.Position and
// go/scanner.ErrorList.
//
// It exists so that every parser locates and reports problems the same way:
// each problem prints as file:line:col: message, a parser collects its
// problems rather than stopping at the first, and the list comes back sorted
// by position, one problem per line, capped like go/scanner's: the first
// ten, then "and N more errors". Packages brasp and ltl re-export these
// types under their own names (brasp.Pos, ltl.ErrorList, ...) as aliases, so
// that errors.As with either package's types matches errors of both.
package source

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Pos is a position in a source file: 1-based line and column, where columns
// count bytes, as go/token.Position does. The zero Pos means "no position",
// for problems that belong to a whole file or to a program built in Go
// rather than parsed.
type Pos struct {
	Line, Col int
}

// IsValid reports whether p is a real source position (its line is at
// least 1).
func (p Pos) IsValid() bool { return p.Line > 0 }

// String writes p as line:col, or "-" when p is not valid.
func (p Pos) String() string {
	if !p.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}

// In writes p as file:line:col, for messages that point at another place
// in the same file; without a file it is String.
func (p Pos) In(file string) string {
	if file == "" {
		return p.String()
	}
	return file + ":" + p.String()
}

// Before reports whether p comes before q in a file: an earlier line, or the
// same line and an earlier column. The zero Pos comes before every valid one.
func (p Pos) Before(q Pos) bool {
	return p.Line < q.Line || (p.Line == q.Line && p.Col < q.Col)
}

// Error is one problem found in a source, located at File:Pos. Err, when not
// nil, is a named (sentinel) error saying which kind of problem it is, such
// as a parser limit that was hit, so that callers can test for it with
// errors.Is without matching on Msg; Msg alone is what the error prints.
type Error struct {
	File string
	Pos  Pos
	Msg  string
	Err  error // a named error that e wraps, or nil

	more   int  // in the closing entry of a capped ErrorList: the problems it counts
	gaveUp bool // ... and whether the scanner stopped looking (Full)
}

// Error writes the problem as file:line:col: msg. Without a file it writes
// line:col: msg; without a valid position, file: msg; without either, msg.
func (e *Error) Error() string {
	if e.more > 0 {
		return e.Msg
	}
	switch {
	case e.File != "" && e.Pos.IsValid():
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
	case e.Pos.IsValid():
		return fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg)
	case e.File != "":
		return e.File + ": " + e.Msg
	}
	return e.Msg
}

// Unwrap returns the named error behind e, or nil, for errors.Is and
// errors.As.
func (e *Error) Unwrap() error { return e.Err }

// ErrorList collects the problems found in a source, so that a user sees
// all of them at once rather than one per run. Its Err method returns the
// list sorted by position, and it prints one problem per line.
//
// Hostile input can have a problem at every byte, so the list is capped, as
// go/scanner's is: it keeps the first MaxKept problems added, counts the rest
// in one closing entry, and prints the first MaxPrinted of them (sorted)
// followed by "and N more errors". A scanner can ask Full to stop looking
// once nothing more would be kept; the list then ends "too many errors".
type ErrorList []*Error

const (
	// MaxPrinted is how many problems ErrorList.Error prints before the
	// closing "and N more errors" line.
	MaxPrinted = 10
	// MaxKept is how many problems an ErrorList holds; every further one is
	// only counted.
	MaxKept = 100
)

// ErrTooMany is the named error of the closing entry of a capped ErrorList,
// the one that counts the problems it did not keep.
var ErrTooMany = errors.New("too many errors")

// Add appends a problem at file:pos with the message fmt.Sprintf(format,
// args...).
func (l *ErrorList) Add(file string, pos Pos, format string, args ...any) {
	l.AddErr(file, pos, nil, format, args...)
}

// AddErr is Add for a problem of a named kind: the appended Error unwraps to
// err, so that errors.Is(list, err) holds. Past MaxKept problems it only
// counts the problem (without formatting it).
func (l *ErrorList) AddErr(file string, pos Pos, err error, format string, args ...any) {
	if len(*l) >= MaxKept {
		if last := (*l)[len(*l)-1]; last.more > 0 {
			last.more++
			return
		}
		*l = append(*l, &Error{File: file, Msg: ErrTooMany.Error(), Err: ErrTooMany, more: 1})
		return
	}
	*l = append(*l, &Error{File: file, Pos: pos, Msg: fmt.Sprintf(format, args...), Err: err})
}

// Full reports whether l has stopped keeping problems, so that a scanner of
// hostile input may stop early: nothing it finds from now on would be shown.
// The list then no longer knows how many problems there are, so it ends
// with "too many errors" (as the Go compiler does) instead of a count: call
// Full only where the scanner stops when it returns true.
func (l ErrorList) Full() bool {
	if len(l) <= MaxKept {
		return false
	}
	l[len(l)-1].gaveUp = true
	return true
}

// split separates the kept problems from the closing entry that counts the
// others (nil when nothing was dropped).
func (l ErrorList) split() (kept ErrorList, dropped *Error) {
	if n := len(l); n > 0 && l[n-1].more > 0 {
		return l[:n-1], l[n-1]
	}
	return l, nil
}

// Len is the number of problems found, kept or only counted.
func (l ErrorList) Len() int {
	kept, dropped := l.split()
	if dropped != nil {
		return len(kept) + dropped.more
	}
	return len(kept)
}

// Sort orders the problems by position, keeping the order in which they
// were added among problems at the same position. Problems without a
// position come first; the closing count of a capped list stays last.
func (l ErrorList) Sort() {
	kept, _ := l.split()
	sort.SliceStable(kept, func(i, j int) bool { return kept[i].Pos.Before(kept[j].Pos) })
}

// Err returns l, sorted, as an error, or nil when l is empty, so that a
// parser can end with return l.Err().
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	l.Sort()
	if _, dropped := l.split(); dropped != nil {
		dropped.Msg = fmt.Sprintf("and %d more error%s", dropped.more, plural(dropped.more))
		if dropped.gaveUp {
			dropped.Msg = ErrTooMany.Error()
		}
	}
	return l
}

// Error writes one problem per line, at most MaxPrinted of them, then
// "and N more errors" if there are others; "no errors" for an empty list.
func (l ErrorList) Error() string {
	if len(l) == 0 {
		return "no errors"
	}
	kept, _ := l.split()
	var b strings.Builder
	for i, e := range kept {
		if i == MaxPrinted {
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	if _, dropped := l.split(); dropped != nil && dropped.gaveUp {
		b.WriteString("\n" + ErrTooMany.Error())
	} else if more := l.Len() - min(len(kept), MaxPrinted); more > 0 {
		fmt.Fprintf(&b, "\nand %d more error%s", more, plural(more))
	}
	return b.String()
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Unwrap returns the problems of the list, so that errors.Is and errors.As
// look into each of them (for a named error, or for the first *Error).
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}
