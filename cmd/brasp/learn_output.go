package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/brasp-dev/brasp/artifact"
)

// A learning run may ask a teacher for hours; what it learned must not be
// lost to an output it cannot write. So brasp learn makes its outputs (-o
// and --stats) ready before the first query, and writes each whole or not
// at all: pendingOutput holds a temporary file beside the output, renamed
// over it once written (a reader never sees half a file, and a run that
// fails leaves the old file as it was). A path that exists and is not a
// regular file (a pipe, /dev/stdout) is written in place.

// pendingOutput is an output file made ready before the run.
type pendingOutput struct {
	path string
	f    *os.File
	tmp  string // the temporary file renamed to path, or "" to write f in place
}

// prepareOutput makes path ready to be written: a temporary file in its
// directory, or path itself when it exists and is not a regular file. The
// error names the flag and what is wrong (no such directory, a directory,
// no permission).
func prepareOutput(flag, path string) (*pendingOutput, error) {
	fail := func(err error) error {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return &exitError{code: 1, msg: fmt.Sprintf("learn: %s %s: %v (checked before the first query)", flag, path, err)}
	}
	info, err := os.Stat(path)
	switch {
	case err == nil && info.IsDir():
		return nil, fail(errors.New("is a directory"))
	case err == nil && !info.Mode().IsRegular():
		f, err := openOutput(path)
		if err != nil {
			return nil, fail(err)
		}
		return &pendingOutput{path: path, f: f}, nil
	case err == nil:
		// An existing file is replaced: it must be one the user may
		// write, as writing it in place would need.
		f, err := openOutput(path)
		if err != nil {
			return nil, fail(err)
		}
		f.Close()
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fail(err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		if _, serr := os.Stat(filepath.Dir(path)); errors.Is(serr, fs.ErrNotExist) {
			return nil, fail(fmt.Errorf("no directory %s", filepath.Dir(path)))
		}
		return nil, fail(err)
	}
	mode := fs.FileMode(0o644)
	if info != nil {
		mode = info.Mode().Perm()
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fail(err)
	}
	return &pendingOutput{path: path, f: f, tmp: f.Name()}, nil
}

// commit writes data and puts the file in place.
func (o *pendingOutput) commit(ctx context.Context, data []byte) error {
	err := writeChunks(ctx, o.f, data)
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	if o.tmp == "" {
		return err
	}
	if err == nil {
		err = os.Rename(o.tmp, o.path)
	}
	if err != nil {
		os.Remove(o.tmp)
	}
	o.tmp = ""
	return err
}

// discard removes the temporary file of an output not written.
func (o *pendingOutput) discard() {
	if o == nil || o.f == nil {
		return
	}
	o.f.Close()
	if o.tmp != "" {
		os.Remove(o.tmp)
		o.tmp = ""
	}
}

// checkLearnedName refuses an -o path from which brasp would not read back
// what learn writes there, before anything is learned: kind is what is
// written (a DFA over letters, a symbolic DFA over propositions, or the
// kind --to names). A symbolic DFA is known by its contents, so any name
// whose extension names no other kind holds one; a path that exists and
// is not a regular file (a pipe, /dev/stdout) is taken as it is.
func checkLearnedName(path string, kind artifact.Kind) error {
	if info, err := os.Stat(path); err == nil && !info.Mode().IsRegular() {
		return nil
	}
	named, err := artifact.KindOf(path)
	if named == kind || (err != nil && kind == artifact.KindMONADFA && !isDrawing(path)) {
		return nil
	}
	what := map[artifact.Kind]string{
		artifact.KindDFA:     "a DFA over letters",
		artifact.KindMONADFA: "a symbolic DFA over propositions",
	}[kind]
	if what == "" {
		what = "the learned language as " + string(kind)
	}
	exts := artifact.Extensions(kind)
	where := "a " + strings.Join(exts, " or ") + " file"
	if kind == artifact.KindMONADFA {
		where = "a file whose extension names no other kind (f.bdd, f.guards)"
	}
	hint := ""
	if kind == artifact.KindDFA && strings.EqualFold(filepath.Ext(path), ".bdd") {
		hint = "; .bdd holds a symbolic DFA: --propositions 'p q' learns a language of traces as one"
	}
	return &exitError{code: 2, msg: fmt.Sprintf("learn: -o %s: learn writes %s here, which brasp reads back from %s, not from %s%s",
		path, what, where, filepath.Base(path), hint)}
}

// isDrawing reports whether path names a drawing (.dot, .gv), which the
// encoders write but nothing reads.
func isDrawing(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".dot" || ext == ".gv"
}
