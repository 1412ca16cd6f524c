package learn

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
)

// maxBatchSeconds bounds how long a black-box teacher may take to answer
// one batch.
var maxBatchSeconds = budget.Define("learn-batch-seconds", 60, "seconds",
	"time a teacher command of brasp learn may take to answer one batch of words")

// maxAnswerBytes bounds one answer line of a teacher command (beyond the
// letters of the longest word of the batch, which a prefix answer needs).
var maxAnswerBytes = budget.Define("learn-answer-bytes", 1<<20, "bytes",
	"one answer line of a teacher command of brasp learn, beyond a letter per letter of the longest word of the batch")

// Command is a black-box teacher: a process started once that reads one
// word per line on its standard input and writes one answer line per word
// on its standard output, in order. A word is written one character per
// letter when every letter is one character, and letters separated by
// spaces otherwise (all of them quoted where not bare, as brasp run reads
// a word, when a letter holds white space). An answer is "accept" or "reject"; in prefix mode it is
// one character per non-empty prefix of the word, '1' accepted and '0'
// rejected. A batch is written whole while the answers are read
// (concurrently, so neither side blocks on a full pipe); a batch that is
// not answered within learn-batch-seconds ends the run.
type Command struct {
	// Format, when set, writes a word as a line instead of FormatWord
	// (brasp learn --propositions writes traces).
	Format   func(w []int) string
	alpha    alphabet.Alphabet
	prefixes bool
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	lines    chan line
	mu       sync.Mutex
	stderr   strings.Builder
	waitErr  chan error
	// lineCap is the longest answer line read (see maxAnswerBytes),
	// set by Query before a batch is written.
	lineCap atomic.Int64
}

type line struct {
	text string
	err  error
}

// lineTooLong is the end of the teacher's stream at an answer line longer
// than the cap.
type lineTooLong struct{ cap int64 }

func (e *lineTooLong) Error() string { return fmt.Sprintf("a line longer than %d bytes", e.cap) }

// StartCommand starts the teacher argv.
func StartCommand(argv []string, alpha alphabet.Alphabet, prefixes bool) (*Command, error) {
	if len(argv) == 0 {
		return nil, errors.New("--command: empty command")
	}
	c := &Command{alpha: alpha, prefixes: prefixes, lines: make(chan line, 1024), waitErr: make(chan error, 1)}
	c.lineCap.Store(maxAnswerBytes.Default)
	c.cmd = exec.Command(argv[0], argv[1:]...)
	var err error
	if c.stdin, err = c.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	c.cmd.Stderr = &limitedWriter{c: c}
	if err := c.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the teacher: %v", err)
	}
	go c.readLines(stdout)
	return c, nil
}

// limitedWriter keeps the first few hundred bytes the teacher writes to
// its standard error, for messages.
type limitedWriter struct{ c *Command }

func (w *limitedWriter) Write(p []byte) (int, error) {
	w.c.mu.Lock()
	defer w.c.mu.Unlock()
	if room := 400 - w.c.stderr.Len(); room > 0 {
		w.c.stderr.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// readLines reads the teacher's standard output line by line into
// c.lines, all the time (so that a line written when no word awaits an
// answer is seen), until its end or a line longer than the cap.
func (c *Command) readLines(r io.Reader) {
	defer close(c.lines)
	br := bufio.NewReaderSize(r, 1<<16)
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		buf = append(buf, chunk...)
		if limit := c.lineCap.Load(); int64(len(buf)) > limit+1 {
			c.lines <- line{err: &lineTooLong{cap: limit}}
			return
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err != nil && len(buf) == 0:
			c.lines <- line{err: err}
			return
		}
		c.lines <- line{text: strings.TrimSuffix(string(buf), "\n")}
		buf = buf[:0]
		if err != nil {
			// A last line without its newline, then the end.
			c.lines <- line{err: err}
			return
		}
	}
}

// PerPrefix reports whether the teacher answers per prefix.
func (c *Command) PerPrefix() bool { return c.prefixes }

// FormatWord writes w as a line of the protocol (without the newline):
// one character per letter, or the letters separated by spaces, a letter
// holding white space or starting with a double quote written quoted (as
// brasp run reads a word).
func FormatWord(alpha alphabet.Alphabet, w []int) string {
	if alpha.SingleChar() {
		return joinLetters(alpha, w, "")
	}
	for _, s := range alpha {
		if strings.HasPrefix(s, `"`) || strings.ContainsFunc(s, unicode.IsSpace) {
			return alpha.FormatWord(w)
		}
	}
	return joinLetters(alpha, w, " ")
}

// FormatTrace writes w, a word over letters named as steps of a trace
// ("{p,q}"), as a trace in the syntax of brasp run: the steps joined by
// ';'.
func FormatTrace(alpha alphabet.Alphabet, w []int) string { return joinLetters(alpha, w, ";") }

// joinLetters writes the letters of w separated by sep.
func joinLetters(alpha alphabet.Alphabet, w []int, sep string) string {
	var sb strings.Builder
	for i, a := range w {
		if i > 0 {
			sb.WriteString(sep)
		}
		sb.WriteString(alpha[a])
	}
	return sb.String()
}

// ParseAnswer reads one answer line for a word of n letters: "accept" or
// "reject", or in prefix mode n characters '0' or '1'.
func ParseAnswer(text string, n int, prefixes bool) ([]bool, error) {
	text = strings.TrimRight(text, "\r")
	if !prefixes {
		switch strings.TrimSpace(text) {
		case "accept":
			return []bool{true}, nil
		case "reject":
			return []bool{false}, nil
		}
		return nil, fmt.Errorf("want accept or reject, have %s", quoteAnswer(text))
	}
	text = strings.TrimSpace(text)
	if len(text) != n {
		return nil, fmt.Errorf("want %d verdicts 0/1 (one per prefix), have %s", n, quoteAnswer(text))
	}
	v := make([]bool, n)
	for i := range n {
		switch text[i] {
		case '1':
			v[i] = true
		case '0':
		default:
			return nil, fmt.Errorf("want %d verdicts 0/1 (one per prefix), have %s", n, quoteAnswer(text))
		}
	}
	return v, nil
}

func quoteAnswer(s string) string {
	if len(s) > 60 {
		return fmt.Sprintf("%q...", s[:60])
	}
	return fmt.Sprintf("%q", s)
}

// Query writes the batch and reads its answers.
func (c *Command) Query(b *budget.Budget, words [][]int) ([][]bool, error) {
	longest := 0
	for _, w := range words {
		longest = max(longest, len(w))
	}
	c.lineCap.Store(b.Max(maxAnswerBytes) + int64(longest))
	werr := make(chan error, 1)
	go func() {
		bw := bufio.NewWriterSize(c.stdin, 1<<16)
		format := c.Format
		if format == nil {
			format = func(w []int) string { return FormatWord(c.alpha, w) }
		}
		for _, w := range words {
			bw.WriteString(format(w))
			bw.WriteByte('\n')
		}
		werr <- bw.Flush()
	}()
	timeout := time.Duration(b.Max(maxBatchSeconds)) * time.Second
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	out, err := ReadAnswers(c.alpha, words, c.prefixes, func(i int) (string, error) {
		select {
		case l, ok := <-c.lines:
			var tooLong *lineTooLong
			if ok && errors.As(l.err, &tooLong) {
				c.Close()
				return "", fmt.Errorf("the teacher's answer to %s is %v (the cap %s; --limit %s=N raises it)",
					automata.ShowWord(c.alpha, words[i]), tooLong, maxAnswerBytes.Name, maxAnswerBytes.Name)
			}
			if !ok || l.err != nil {
				return "", c.died(words[i])
			}
			return l.text, nil
		case <-timer.C:
			return "", fmt.Errorf("the teacher did not answer %s within %d s (the batch's word %d of %d; --limit %s=N raises it)",
				automata.ShowWord(c.alpha, words[i]), b.Max(maxBatchSeconds), i+1, len(words), maxBatchSeconds.Name)
		case <-b.Context().Done():
			return "", b.Err()
		}
	})
	if err != nil {
		// Ctrl-C in a terminal reaches the teacher too: when the run is
		// being stopped, a teacher that died of it is the stop, not a
		// teacher's fault.
		if berr := b.Err(); berr != nil {
			return nil, berr
		}
		return nil, err
	}
	if err := <-werr; err != nil {
		return nil, c.died(words[len(words)-1])
	}
	// A line already waiting is an answer to no word: the answers of the
	// next batch would be shifted by it.
	select {
	case l, ok := <-c.lines:
		if ok && l.err == nil {
			return nil, fmt.Errorf("the teacher wrote more answers than the %d words of the batch (then %s)", len(words), quoteAnswer(l.text))
		}
	default:
	}
	return out, nil
}

// ReadAnswers reads the answers to a batch of words, one line per word in
// order: next(i) returns the line that answers words[i], or the error that
// ends the batch (a teacher that stopped, a time limit, an interruption).
// An answer that is not what the mode asks for is an error naming the
// word.
func ReadAnswers(alpha alphabet.Alphabet, words [][]int, prefixes bool, next func(i int) (string, error)) ([][]bool, error) {
	out := make([][]bool, len(words))
	for i, w := range words {
		text, err := next(i)
		if err != nil {
			return nil, err
		}
		v, err := ParseAnswer(text, len(w), prefixes)
		if err != nil {
			return nil, fmt.Errorf("the teacher's answer to %s: %v", automata.ShowWord(alpha, w), err)
		}
		out[i] = v
	}
	return out, nil
}

// died describes a teacher that stopped answering at word w.
func (c *Command) died(w []int) error {
	c.stdin.Close()
	err := c.wait(time.Second)
	c.mu.Lock()
	msg := strings.TrimSpace(c.stderr.String())
	c.mu.Unlock()
	if msg != "" {
		msg = "; it wrote: " + msg
	}
	return fmt.Errorf("the teacher stopped before answering %s (%v)%s", automata.ShowWord(c.alpha, w), err, msg)
}

func (c *Command) wait(d time.Duration) error {
	go func() { c.waitErr <- c.cmd.Wait() }()
	select {
	case err := <-c.waitErr:
		if err == nil {
			return errors.New("it exited")
		}
		return err
	case <-time.After(d):
		c.cmd.Process.Kill()
		return errors.New("it closed its output")
	}
}

// Close ends the teacher: its input is closed, and it is killed if it has
// not exited within a second.
func (c *Command) Close() {
	c.stdin.Close()
	c.wait(time.Second)
}

// Finish ends a teacher whose answers are all in: its input is closed and
// what it writes until it exits (within a second) is read. A line then is
// an answer to no word: the teacher wrote more lines than words at some
// point, which shifted the answers after it, however late the extra line
// came. A teacher that stopped on its own is no error.
func (c *Command) Finish() error {
	c.stdin.Close()
	deadline := time.After(time.Second)
	extra, first := 0, ""
	for {
		select {
		case l, ok := <-c.lines:
			if ok && l.err == nil {
				if extra == 0 {
					first = l.text
				}
				extra++
				continue
			}
			if ok {
				continue // the end of its output: the channel closes next
			}
		case <-deadline:
		}
		c.wait(time.Second)
		if extra > 0 {
			return fmt.Errorf("the teacher wrote %d more lines than there were words (the first %s): "+
				"the protocol is one answer line per word, and an extra line shifts every answer after it", extra, quoteAnswer(first))
		}
		return nil
	}
}
