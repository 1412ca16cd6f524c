package artifact

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/brasp-dev/brasp/budget"
)

// The sizes of inputs, checked before an input is read into memory: a
// hostile file, word or standard input is refused with the limit's name
// instead of filling memory. Source texts are small in practice (the B-RASP
// parser has its own cap of 16 MB) except DFAs written over their letters,
// which reach tens of megabytes (and about 25 times that in memory once
// read); models and words are large by nature, so their limits only stop
// what would not fit.
var (
	maxSourceBytes = budget.Define("input-bytes", 64<<20, "bytes", "size of a source file (.brasp .ltl .ltlf .re .dfa)")
	maxModelBytes  = budget.Define("model-bytes", 1<<30, "bytes", "size of a model file (.json .safetensors)")
	maxWordBytes   = budget.Define("word-bytes", 1<<30, "bytes", "length of one input word or trace as written (an argument of run, or a line of --input-file)")
)

// InputLimit is the limit on the size of a file of kind k: model-bytes for
// transformers, input-bytes for the source kinds.
func InputLimit(k Kind) *budget.Limit {
	if k == KindTransformer {
		return maxModelBytes
	}
	return maxSourceBytes
}

// WordLimit is the limit on the length in bytes of one word or trace as
// written, for the commands that read words.
func WordLimit() *budget.Limit { return maxWordBytes }

// CheckSize refuses an input of n bytes named what when it exceeds l.
func CheckSize(b *budget.Budget, l *budget.Limit, n int64, what string) error {
	if max := b.Max(l); n > max {
		return &budget.Error{Limit: l, Value: max, Need: n, What: what}
	}
	return nil
}

// ReadLimited reads all of r, refusing (after reading at most one byte past
// the limit) when it holds more than l allows; what names the input in the
// message. The size of a file is better checked before opening it
// (CheckSize), since that message says how large it is.
func ReadLimited(b *budget.Budget, l *budget.Limit, r io.Reader, what string) ([]byte, error) {
	max := b.Max(l)
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, &budget.Error{Limit: l, Value: max, What: what}
	}
	return data, nil
}

// LoadReader reads an input of the given kind (from filename's extension
// when empty) from r under the kind's size limit, then loads it like Load.
func LoadReader(b *budget.Budget, filename string, r io.Reader, kind Kind) (Artifact, error) {
	if kind == "" {
		var err error
		if kind, err = KindOf(filename); err != nil {
			return nil, err
		}
	}
	if _, err := ParseKind(string(kind)); err != nil {
		return nil, err
	}
	data, err := ReadLimited(b, InputLimit(kind), r, "input file "+filename)
	if err != nil {
		return nil, err
	}
	return Load(b, filename, data, kind)
}

// LineReader reads words or traces one line at a time, refusing a line
// longer than word-bytes before it is held in memory whole.
type LineReader struct {
	r    *bufio.Reader
	max  int64
	name string
	line int
	buf  []byte
}

// NewLineReader reads lines from r; name (a file name, or "-") is for
// messages, which read name:LINE.
//
// When r is a regular file, the line buffer is made as large as the file
// (at most word-bytes) at once: the pages a short line does not touch cost
// no memory, and a file holding one long word is read into one buffer
// instead of a series of doubling ones whose garbage would count too.
func NewLineReader(b *budget.Budget, r io.Reader, name string) *LineReader {
	lr := &LineReader{r: bufio.NewReaderSize(r, 1<<16), max: b.Max(maxWordBytes), name: name}
	if f, ok := r.(interface{ Stat() (os.FileInfo, error) }); ok {
		if info, err := f.Stat(); err == nil && info.Mode().IsRegular() && info.Size() > 1<<16 {
			lr.buf = make([]byte, 0, min(info.Size(), lr.max)+1)
		}
	}
	return lr
}

// Next returns the next line without its line ending, with where it is
// (name:LINE) for messages; io.EOF after the last line.
func (lr *LineReader) Next() (line []byte, where string, err error) {
	lr.buf = lr.buf[:0]
	for {
		chunk, err := lr.r.ReadSlice('\n')
		if int64(len(lr.buf))+int64(len(chunk)) > lr.max+2 { // +2: "\r\n"
			lr.line++
			where := fmt.Sprintf("%s:%d", lr.name, lr.line)
			return nil, where, &budget.Error{Limit: maxWordBytes, Value: lr.max, What: "the word on line " + where}
		}
		lr.grow(len(chunk))
		lr.buf = append(lr.buf, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err == io.EOF && len(lr.buf) == 0 {
			return nil, "", io.EOF
		}
		if err != nil && err != io.EOF {
			return nil, "", err
		}
		lr.line++
		where := fmt.Sprintf("%s:%d", lr.name, lr.line)
		line := bytes.TrimRight(lr.buf, "\r\n")
		if int64(len(line)) > lr.max {
			return nil, where, &budget.Error{Limit: maxWordBytes, Value: lr.max, Need: int64(len(line)), What: "the word on line " + where}
		}
		return line, where, nil
	}
}

// grow makes room for n more bytes of the current line. Past 16 MB it
// doubles the buffer itself and hands the old one back to the operating
// system at once, so that a word read from a pipe costs about twice its
// length at the peak rather than the sum of every buffer it outgrew.
func (lr *LineReader) grow(n int) {
	need := len(lr.buf) + n
	if need <= cap(lr.buf) || need <= 16<<20 {
		return
	}
	nb := make([]byte, len(lr.buf), max(need, min(2*cap(lr.buf), int(lr.max)+1)))
	copy(nb, lr.buf)
	lr.buf = nb
	debug.FreeOSMemory()
}
