package brasp

import "github.com/brasp-dev/brasp/source"

// Pos is a position in a source file: 1-based line and column (columns count
// bytes). The zero Pos means "no position", as for built programs. It is
// source.Pos, shared with the other parsers of the toolkit.
type Pos = source.Pos

// Error is one problem found in a program, located at File:Pos, printed as
// file:line:col: msg. It is source.Error, so errors.As with *brasp.Error
// also matches the errors of the other parsers (such as *ltl.Error).
type Error = source.Error

// ErrorList collects every problem found in a program, so that a user sees
// all of them at once, sorted by position, one per line. It is
// source.ErrorList, shared with the other parsers of the toolkit.
type ErrorList = source.ErrorList
