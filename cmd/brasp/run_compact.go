package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/artifact"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp"
)

// runCompact runs a B-RASP program on the word written in line with the
// word stored a byte per symbol (alphabet.ParseCompact, which overwrites
// line) and streams the verdict, the output word or the --json object
// straight from the trace's bits: a word of n symbols costs n bytes plus the
// program's bit vectors, never a slice of ints or of strings per position.
// With table it streams the Figure-2 table first, as brasp.FormatTable lays
// it out. It reports false when it does not apply (not a program over
// symbols, more than 256 symbols, the empty word), leaving the word to
// runWord.
func runCompact(a artifact.Artifact, line []byte, where string, table, asJSON bool, out *bufio.Writer) (bool, error) {
	if d, ok := a.(automaton); ok && !table {
		return runAutomaton(d.Automaton(), line, where, asJSON, out)
	}
	if f, ok := a.(*artifact.Formula); ok && !table && !asJSON {
		return runFormula(f, line, where, out)
	}
	if t, ok := a.(*artifact.Transformer); ok && !table && !t.ReadsTraces() {
		return runModel(t, line, where, asJSON, out)
	}
	if t, ok := a.(*artifact.Transformer); ok && !table && !asJSON && t.ReadsTraces() && !t.IsTransducer() {
		acc, err := t.RunTraceBytes(line)
		if err != nil {
			return true, fmt.Errorf("%s: %v", where, err)
		}
		out.WriteString(map[bool]string{true: "accept", false: "reject"}[acc])
		out.WriteByte('\n')
		return true, nil
	}
	if tr, ok := a.(artifact.TraceBytesRunner); ok && tr.ReadsTraces() && !table && !asJSON && !isTransducer(a) {
		acc, err := tr.RunTraceBytes(line)
		if err != nil {
			return true, fmt.Errorf("%s: %v", where, err)
		}
		out.WriteString(map[bool]string{true: "accept", false: "reject"}[acc])
		out.WriteByte('\n')
		return true, nil
	}
	p, ok := a.(*artifact.Program)
	if !ok || p.ReadsTraces() || len(line) == 0 {
		return false, nil
	}
	w, err := p.Alphabet().ParseCompact(line)
	if errors.Is(err, alphabet.ErrNotCompact) || err == nil && len(w) == 0 {
		return false, nil
	}
	if err != nil {
		return true, fmt.Errorf("%s: %v", where, err)
	}
	t := p.TraceBytes(w)
	prog := p.Prog
	if table {
		writeTable(t, out)
	}
	if prog.IsTransducer() {
		if err := checkOutputs(t); err != nil {
			return true, fmt.Errorf("%s: %v", where, err)
		}
	}
	if !asJSON {
		if prog.IsTransducer() {
			writeOutputWord(t, out)
		} else {
			out.WriteString(map[bool]string{true: "accept", false: "reject"}[t.Accept()])
		}
		out.WriteByte('\n')
		return true, nil
	}
	writeRunJSON(t, out)
	return true, nil
}

// isTransducer reports whether a is a transducer.
func isTransducer(a artifact.Artifact) bool {
	t, ok := a.(artifact.Transducer)
	return ok && t.IsTransducer()
}

// checkOutputs returns the error Trace.Transduce gives when some position
// has no output symbol or two, without building the output word otherwise.
func checkOutputs(t *brasp.Trace) error {
	outs := t.Prog.Output.Vectors
	for i := range t.N() {
		n := 0
		for _, v := range outs {
			if t.Value(v, i) {
				n++
			}
		}
		if n != 1 {
			_, err := t.Transduce()
			return err
		}
	}
	return nil
}

// outputAt is the output symbol of a transducer's trace at position i
// (checked by checkOutputs).
func outputAt(t *brasp.Trace, i int) int {
	for k, v := range t.Prog.Output.Vectors {
		if t.Value(v, i) {
			return k
		}
	}
	return -1
}

// writeOutputWord writes the output word as Alphabet.FormatWord does.
func writeOutputWord(t *brasp.Trace, out *bufio.Writer) {
	syms := t.Prog.Output.Symbols
	single := syms.Unseparated()
	for i := range t.N() {
		k := outputAt(t, i)
		if single {
			out.WriteString(syms[k])
			continue
		}
		if i > 0 {
			out.WriteByte(' ')
		}
		out.WriteString(alphabet.Quote(syms[k]))
	}
}

// writeRunJSON streams the object runResult encodes:
// {"input":[...],"vectors":{"NAME":[0,1,...]},"accept":true}, or "output"
// with the output word instead of "accept".
func writeRunJSON(t *brasp.Trace, out *bufio.Writer) {
	prog := t.Prog
	n := t.N()
	in := quoted(prog.Alphabet)
	out.WriteString(`{"input":[`)
	for i := range n {
		if i > 0 {
			out.WriteByte(',')
		}
		out.WriteString(in[t.Symbol(i)])
	}
	out.WriteString(`],"vectors":{`)
	for v, vec := range prog.Vectors {
		if v > 0 {
			out.WriteByte(',')
		}
		name, _ := json.Marshal(vec.Name)
		out.Write(name)
		out.WriteString(":[")
		for i := range n {
			if i > 0 {
				out.WriteByte(',')
			}
			out.WriteByte('0' + b2i(t.Value(v, i)))
		}
		out.WriteByte(']')
	}
	out.WriteByte('}')
	if prog.IsTransducer() {
		syms := quoted(prog.Output.Symbols)
		out.WriteString(`,"output":[`)
		for i := range n {
			if i > 0 {
				out.WriteByte(',')
			}
			out.WriteString(syms[outputAt(t, i)])
		}
		out.WriteString("]}\n")
		return
	}
	out.WriteString(`,"accept":` + strconv.FormatBool(t.Accept()) + "}\n")
}

func b2i(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// writeTable streams the Figure-2 table of a trace exactly as
// brasp.FormatTable lays it out (internal/tracetable: the label column
// left-aligned, the others right-aligned to their widest cell, one space
// apart), computing each column's width from its own cells instead of
// holding every cell of the table.
func writeTable(t *brasp.Trace, out *bufio.Writer) {
	p := t.Prog
	n := t.N()
	quote := func(syms alphabet.Alphabet) []string {
		q := make([]string, len(syms))
		for k, s := range syms {
			q[k] = alphabet.Quote(s)
		}
		return q
	}
	in := quote(p.Alphabet)
	outs := quote(p.Output.Symbols)
	outAt := func(i int) string {
		sym := "-"
		for k, v := range p.Output.Vectors {
			if t.Value(v, i) {
				if sym != "-" {
					return "*"
				}
				sym = outs[k]
			}
		}
		return sym
	}
	labels := []string{"input"}
	for _, v := range p.Vectors {
		labels = append(labels, brasp.QuoteName(v.Name))
	}
	if p.IsTransducer() {
		labels = append(labels, "output")
	}
	labelWidth := 0
	for _, l := range labels {
		labelWidth = max(labelWidth, utf8.RuneCountInString(l))
	}
	width := func(i int) int {
		w := max(1, utf8.RuneCountInString(in[t.Symbol(i)]))
		if p.IsTransducer() {
			w = max(w, utf8.RuneCountInString(outAt(i)))
		}
		return w
	}
	pad := func(k int) {
		for range k {
			out.WriteByte(' ')
		}
	}
	row := func(label string, cell func(i int) string) {
		out.WriteString(label)
		pad(labelWidth - utf8.RuneCountInString(label))
		for i := range n {
			c := cell(i)
			out.WriteByte(' ')
			pad(width(i) - utf8.RuneCountInString(c))
			out.WriteString(c)
		}
		out.WriteByte('\n')
	}
	row(labels[0], func(i int) string { return in[t.Symbol(i)] })
	for v := range p.Vectors {
		row(labels[v+1], func(i int) string {
			if t.Value(v, i) {
				return "1"
			}
			return "0"
		})
	}
	if p.IsTransducer() {
		row("output", outAt)
	}
}

// automaton is an input run by a DFA (a .dfa automaton, a regular
// expression).
type automaton interface{ Automaton() *automata.DFA }

// runAutomaton runs d on the word written in line, stored a byte per symbol
// as runCompact does, and streams the verdict or the --json object
// {"input":[...],"accept":true}. It reports false when it does not apply
// (more than 256 symbols, the empty word).
func runAutomaton(d *automata.DFA, line []byte, where string, asJSON bool, out *bufio.Writer) (bool, error) {
	if len(line) == 0 {
		return false, nil
	}
	w, err := d.Alphabet.ParseCompact(line)
	if errors.Is(err, alphabet.ErrNotCompact) || err == nil && len(w) == 0 {
		return false, nil
	}
	if err != nil {
		return true, fmt.Errorf("%s: %v", where, err)
	}
	q := d.Start
	for _, c := range w {
		q = d.Delta[q][c]
	}
	if !asJSON {
		out.WriteString(map[bool]string{true: "accept", false: "reject"}[d.Accept[q]])
		out.WriteByte('\n')
		return true, nil
	}
	in := quoted(d.Alphabet)
	out.WriteString(`{"input":[`)
	for i, c := range w {
		if i > 0 {
			out.WriteByte(',')
		}
		out.WriteString(in[c])
	}
	out.WriteString(`],"accept":` + strconv.FormatBool(d.Accept[q]) + "}\n")
	return true, nil
}

// quoted is each symbol as a JSON string, as encoding/json writes it.
func quoted(syms alphabet.Alphabet) []string {
	q := make([]string, len(syms))
	for k, s := range syms {
		data, _ := json.Marshal(s)
		q[k] = string(data)
	}
	return q
}

// runFormula runs an LTL formula on the word written in line, stored a byte
// per symbol as runCompact does, and writes its verdict. It reports false
// when it does not apply (more than 256 symbols, the empty word).
func runFormula(f *artifact.Formula, line []byte, where string, out *bufio.Writer) (bool, error) {
	w, err := f.Alphabet().ParseCompact(line)
	if errors.Is(err, alphabet.ErrNotCompact) || err == nil && len(w) == 0 {
		return false, nil
	}
	if err != nil {
		return true, fmt.Errorf("%s: %v", where, err)
	}
	out.WriteString(map[bool]string{true: "accept", false: "reject"}[f.AcceptsBytes(w)])
	out.WriteByte('\n')
	return true, nil
}
