package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/brasp-dev/brasp/artifact"
)

const runUsage = "run [--from KIND] [--table | --json | --trace] [--input-file F] [--limit NAME=N]... FILE WORD..."

func runCmd(e *env, args []string) error {
	fs := newFlags(e, "run", runUsage)
	from := fs.String("from", "", "input kind, overriding the file extension")
	table := fs.Bool("table", false, "print the Figure-2 table of every vector at every position (B-RASP)")
	asJSON := fs.Bool("json", false, "print one JSON object per word with the input, vectors and verdict")
	trace := fs.Bool("trace", false, "print one JSON object per word with every layer's exact activations and every head's attended positions (transformers)")
	inputFile := fs.String("input-file", "", "read words from `F`, one per line (- for standard input)")
	lim := addLimitFlag(fs)
	pos, err := parseFlags(e, fs, runUsage, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageError(runUsage, "missing FILE")
	}
	if (*table && *asJSON) || (*trace && (*table || *asJSON)) {
		return &exitError{code: 2, msg: "run: --table, --json and --trace cannot be combined"}
	}
	b := e.budget(lim)
	a, err := loadFile(b, pos[0], *from)
	if err != nil {
		return err
	}
	var traced *artifact.Transformer
	if *trace {
		tm, ok := a.(*artifact.Transformer)
		if !ok {
			return &exitError{code: 2, msg: fmt.Sprintf("run: --trace needs a transformer; %s inputs have no layers", a.Kind())}
		}
		traced = tm
	}
	words := pos[1:]
	out := bufio.NewWriterSize(e.stdout, 1<<16)
	defer out.Flush()
	if *inputFile != "" {
		var r io.Reader = e.stdin
		if *inputFile != "-" {
			f, err := openInput(*inputFile)
			if err != nil {
				return err
			}
			defer f.Close()
			r = f
		}
		lines := artifact.NewLineReader(b, r, *inputFile)
		for {
			s, where, err := lines.Next()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			if err := b.Err(); err != nil {
				return err
			}
			if traced == nil {
				if done, err := runCompact(a, s, where, *table, *asJSON, out); done || err != nil {
					if err != nil {
						return err
					}
					continue
				}
			}
			if err := runWord(a, string(s), where, *table, *asJSON, traced, out); err != nil {
				return err
			}
		}
	}
	if len(words) == 0 {
		return &exitError{code: 2, msg: "run: no words given (give WORD arguments or --input-file F)"}
	}
	for n, s := range words {
		if err := b.Err(); err != nil {
			return err
		}
		if err := artifact.CheckSize(b, artifact.WordLimit(), int64(len(s)), fmt.Sprintf("word %d", n+1)); err != nil {
			return err
		}
		where := fmt.Sprintf("word %d", n+1)
		if traced == nil {
			if done, err := runCompact(a, []byte(s), where, *table, *asJSON, out); done || err != nil {
				if err != nil {
					return err
				}
				continue
			}
		}
		if err := runWord(a, s, where, *table, *asJSON, traced, out); err != nil {
			return err
		}
	}
	return nil
}

// runWord runs a on the word written s and prints the result; where names
// the word in error messages. With traced (the transformer a holds) it
// prints the word's exact trace instead (see writeTrace).
func runWord(a artifact.Artifact, s, where string, table, asJSON bool, traced *artifact.Transformer, out *bufio.Writer) error {
	if tr, ok := a.(artifact.TraceRunner); ok && tr.ReadsTraces() {
		if traced != nil {
			// A model over propositions: its trace on the word of the
			// trace's distinct steps, named {a,b}, {}, ….
			steps, w, err := traced.OverTrace(s)
			if err != nil {
				return fmt.Errorf("%s: %v", where, err)
			}
			return writeTrace(steps, w, where, out)
		}
		tt, canTable := a.(artifact.TraceTabler)
		if asJSON || table && !canTable {
			return fmt.Errorf("--table and --json are for words; %s inputs read traces", a.Kind())
		}
		if table {
			t, err := tt.TraceTable(s)
			if err != nil {
				return fmt.Errorf("%s: %v", where, err)
			}
			out.WriteString(t)
		}
		if td, ok := a.(artifact.TraceTransducer); ok && td.IsTransducer() {
			o, syms, err := td.TransduceTrace(s)
			if err != nil {
				return fmt.Errorf("%s: %v", where, err)
			}
			out.WriteString(syms.FormatWord(o))
			out.WriteByte('\n')
			return nil
		}
		acc, err := tr.RunTrace(s)
		if err != nil {
			return fmt.Errorf("%s: %v", where, err)
		}
		out.WriteString(map[bool]string{true: "accept", false: "reject"}[acc])
		out.WriteByte('\n')
		return nil
	}
	w, err := a.Alphabet().ParseWord(s)
	if err != nil {
		return fmt.Errorf("%s: %v", where, err)
	}
	if traced != nil {
		return writeTrace(traced, w, where, out)
	}
	tracer, canTrace := a.(artifact.Tracer)
	if (table || asJSON) && !canTrace {
		if table {
			return fmt.Errorf("--table needs a B-RASP program; %s inputs have no vectors to show", a.Kind())
		}
	}
	if table {
		if len(w) == 0 {
			return fmt.Errorf("%s: the empty word has no table (B-RASP reads non-empty words)", where)
		}
		t, err := tracer.Table(w)
		if err != nil {
			return err
		}
		out.WriteString(t)
	}
	var verdict string
	var outWord []string
	if td, ok := a.(artifact.Transducer); ok && td.IsTransducer() {
		if len(w) == 0 {
			verdict = ""
		} else {
			o, syms, err := td.Transduce(w)
			if err != nil {
				return fmt.Errorf("%s: %v", where, err)
			}
			verdict = syms.FormatWord(o)
			for _, k := range o {
				outWord = append(outWord, syms[k])
			}
		}
	} else {
		acc, err := a.Accepts(w)
		if err != nil {
			return fmt.Errorf("%s: %v", where, err)
		}
		verdict = map[bool]string{true: "accept", false: "reject"}[acc]
	}
	if !asJSON {
		out.WriteString(verdict)
		out.WriteByte('\n')
		return nil
	}
	res := runResult{Input: make([]string, len(w))}
	for i, k := range w {
		res.Input[i] = a.Alphabet()[k]
	}
	if canTrace && len(w) > 0 {
		names, values, err := tracer.Vectors(w)
		if err != nil {
			return err
		}
		res.Vectors = &vectorTable{names: names, values: values}
	}
	if outWord != nil {
		res.Output = outWord
	} else {
		acc := verdict == "accept"
		res.Accept = &acc
	}
	data, err := json.Marshal(res)
	if err != nil {
		return err
	}
	out.Write(data)
	out.WriteByte('\n')
	return nil
}

// runResult is the JSON object run --json prints for one word:
// {"input":[...],"vectors":{"NAME":[0,1,...]},"accept":true}, or "output"
// with the output word instead of "accept" for a transducer.
type runResult struct {
	Input   []string     `json:"input"`
	Vectors *vectorTable `json:"vectors,omitempty"`
	Output  []string     `json:"output,omitempty"`
	Accept  *bool        `json:"accept,omitempty"`
}

// vectorTable is the vectors of a run as a JSON object from each name to
// its values as 0s and 1s, in program order (which a Go map would lose).
type vectorTable struct {
	names  []string
	values [][]bool
}

// MarshalJSON implements json.Marshaler.
func (t *vectorTable) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for k, name := range t.names {
		if k > 0 {
			b.WriteByte(',')
		}
		key, err := json.Marshal(name)
		if err != nil {
			return nil, err
		}
		b.Write(key)
		b.WriteByte(':')
		bits := make([]int8, len(t.values[k]))
		for i, v := range t.values[k] {
			if v {
				bits[i] = 1
			}
		}
		val, err := json.Marshal(bits)
		if err != nil {
			return nil, err
		}
		b.Write(val)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// writeTrace prints the exact trace of the transformer t on w as one JSON
// object with the input, the trace (transformer.Trace.JSON) and the verdict
// or output word, or, when the output layer fails on w (a transducer with
// not exactly one output symbol somewhere), the error. Every pass runs
// within t's budget (the user's --limit settings).
func writeTrace(t *artifact.Transformer, w []int, where string, out *bufio.Writer) error {
	if len(w) == 0 {
		return fmt.Errorf("%s: the empty word has no trace (transformers read non-empty words)", where)
	}
	tr, err := t.Trace(w)
	if err != nil {
		return fmt.Errorf("%s: %v", where, err)
	}
	input := make([]string, len(w))
	for i, k := range w {
		input[i] = t.Alphabet()[k]
	}
	var b strings.Builder
	b.WriteString(`{"input":`)
	writeJSONTo(&b, input)
	b.WriteString(`,"trace":`)
	b.WriteString(tr.JSON())
	if t.IsTransducer() {
		o, syms, err := t.Transduce(w)
		if err != nil {
			b.WriteString(`,"error":`)
			writeJSONTo(&b, err.Error())
		} else {
			names := make([]string, len(o))
			for i, k := range o {
				names[i] = syms[k]
			}
			b.WriteString(`,"output":`)
			writeJSONTo(&b, names)
		}
	} else {
		acc, err := t.Accepts(w)
		if err != nil {
			return fmt.Errorf("%s: %v", where, err)
		}
		fmt.Fprintf(&b, `,"accept":%v`, acc)
	}
	b.WriteString("}\n")
	out.WriteString(b.String())
	return nil
}

// writeJSONTo appends the JSON encoding of v (strings and string slices,
// which always encode) to b.
func writeJSONTo(b *strings.Builder, v any) {
	data, _ := json.Marshal(v)
	b.Write(data)
}
