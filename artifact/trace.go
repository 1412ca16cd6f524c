package artifact

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/ltlf"
)

// The one trace reader of every kind that reads traces (LTLf formulas,
// programs and models over propositions, symbolic automata): a trace
// written "a,b;;c" is read by ltlf.ParseTraceCompact into its distinct
// steps and a byte (two past 256 distinct steps) per step, and each kind
// runs that compact trace, so that a long trace costs a few bytes per step,
// never a slice per step.

// TraceBytesRunner is implemented by the artifacts that run a trace written
// in a byte slice through the compact reader (brasp run --input-file reads
// each line so).
type TraceBytesRunner interface {
	TraceRunner
	RunTraceBytes(line []byte) (bool, error)
}

// readTrace reads the trace written in line over props. The empty trace
// (a blank line) is returned as nil when empty allows it; otherwise it is
// ParseTrace's error. Past 65,536 distinct steps, whose indices do not fit
// two bytes, it returns the trace read by ltlf.ParseTrace instead (such a
// trace is at least as long in text as its steps take in memory).
func readTrace(props []string, line []byte, empty bool) (*ltlf.CompactTrace, ltlf.Trace, error) {
	if empty && len(bytes.TrimSpace(line)) == 0 {
		return nil, nil, nil
	}
	ct, err := ltlf.ParseTraceCompact(props, line)
	if errors.Is(err, ltlf.ErrTooManySteps) {
		t, err := ltlf.ParseTrace(props, string(line))
		return nil, t, err
	}
	return ct, nil, err
}

// compactSteps is a compact trace as a program over propositions reads it.
func compactSteps(ct *ltlf.CompactTrace) *brasp.CompactSteps {
	set := make([][]uint64, len(ct.Steps))
	for k, s := range ct.Steps {
		set[k] = s
	}
	return &brasp.CompactSteps{Set: set, Narrow: ct.Narrow, Wide: ct.Wide}
}

// stepTrace is a trace of steps stored compactly (ct) or one slice per
// step (t), as readTrace returns it: its length and its steps by position.
type stepTrace struct {
	ct *ltlf.CompactTrace
	t  ltlf.Trace
}

func (s stepTrace) Len() int {
	if s.ct != nil {
		return s.ct.Len()
	}
	return len(s.t)
}

func (s stepTrace) At(i int) ltlf.Step {
	if s.ct != nil {
		return s.ct.At(i)
	}
	return s.t[i]
}

// FormatInput writes a word over a's alphabet as brasp run reads it for
// a: for an input that reads traces, the trace of its valuation letters
// ("b;;a,b"); otherwise the word (alphabet.Alphabet.FormatWord).
func FormatInput(a Artifact, w []int) string {
	if readsTraces(a) {
		if len(w) == 0 {
			return ""
		}
		return traceOf(a.Alphabet(), w)
	}
	return a.Alphabet().FormatWord(w)
}

// ParseInput reads a word for a as brasp run reads it: for an input that
// reads traces, a trace ("b;;a,b") as the word of its valuation letters
// (at most 12 propositions); otherwise a word of a's alphabet.
func ParseInput(a Artifact, s string) ([]int, error) {
	if !readsTraces(a) {
		return a.Alphabet().ParseWord(s)
	}
	props, _ := propsOf(a)
	if a.Alphabet() == nil {
		return nil, fmt.Errorf("%d propositions have too many valuations to be letters (at most %d)", len(props), maxValuationProps)
	}
	t, err := ltlf.ParseTrace(props, s)
	if err != nil {
		return nil, err
	}
	w := make([]int, len(t))
	for i, step := range t {
		if len(step) > 0 {
			w[i] = int(step[0])
		}
	}
	return w, nil
}
