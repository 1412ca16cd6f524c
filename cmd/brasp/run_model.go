package main

import (
	"bufio"
	"errors"
	"fmt"
	"strconv"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/artifact"
	"github.com/brasp-dev/brasp/transformer"
)

// runModel runs a transformer over symbols on the word written in line,
// stored a byte per symbol (alphabet.ParseCompact, over line's own bytes)
// or, past 256 symbols, two bytes per symbol (alphabet.ParseWide), with the
// fast pass that keeps a class id of a byte or two per position
// (transformer.Runner.RunBytes), and streams the verdict, the output word
// or the --json object from the word and the final class ids. It reports
// false when it does not apply (the empty word, more than 65536 symbols),
// leaving the word to runWord. An acceptor's words up to maxBatchedWord
// symbols go instead through the artifact's batch (Transformer.AcceptWord),
// which computes the model's per-class work once for all the words read.
func runModel(t *artifact.Transformer, line []byte, where string, asJSON bool, out *bufio.Writer) (bool, error) {
	if len(line) == 0 {
		return false, nil
	}
	syms := t.M.Alphabet
	var (
		n   int
		sym func(i int) int
		act *transformer.Activations
	)
	m := t.M
	batched := !m.IsTransducer()
	w, err := syms.ParseCompact(line)
	switch {
	case err == nil:
		n, sym = len(w), func(i int) int { return int(w[i]) }
		if n > 0 && (!batched || n > maxBatchedWord) {
			batched = false
			act, err = t.RunBytes(w)
		}
	case errors.Is(err, alphabet.ErrNotCompact):
		var wide []uint16
		wide, err = syms.ParseWide(line)
		if errors.Is(err, alphabet.ErrNotWide) {
			return false, nil
		}
		if err == nil {
			n, sym = len(wide), func(i int) int { return int(wide[i]) }
			if n > 0 && (!batched || n > maxBatchedWord) {
				batched = false
				act, err = t.RunWide(wide)
			}
		}
	}
	if err == nil && n == 0 {
		return false, nil
	}
	if err != nil {
		return true, fmt.Errorf("%s: %v", where, err)
	}
	if m.IsTransducer() {
		o := m.Outputs(act)
		for i := range n {
			if _, err := o.At(i); err != nil {
				return true, fmt.Errorf("%s: %v", where, err)
			}
		}
		at := func(i int) int { k, _ := o.At(i); return k }
		if asJSON {
			writeSymbolsJSON(`{"input":[`, syms, n, sym, out)
			writeSymbolsJSON(`],"output":[`, m.Transduction.Symbols, n, at, out)
			out.WriteString("]}\n")
			return true, nil
		}
		writeWord(m.Transduction.Symbols, n, at, out)
		out.WriteByte('\n')
		return true, nil
	}
	var acc bool
	if batched {
		acc, err = t.AcceptWord(n, sym)
	} else {
		acc, err = m.Verdict(act)
	}
	if err != nil {
		return true, fmt.Errorf("%s: %v", where, err)
	}
	if asJSON {
		writeSymbolsJSON(`{"input":[`, syms, n, sym, out)
		out.WriteString(`],"accept":` + strconv.FormatBool(acc) + "}\n")
		return true, nil
	}
	out.WriteString(map[bool]string{true: "accept", false: "reject"}[acc])
	out.WriteByte('\n')
	return true, nil
}

// maxBatchedWord is the longest word run through the batch. Past it
// RunBytes costs less: its per-class work (about 0.1 ms a word on the
// compiled examples) is repaid by its tabulated scans (a few ns per
// symbol, where the batch spends tens), and it keeps one or two bytes per
// position where the batch's scratch keeps four per position and head.
const maxBatchedWord = 1 << 12

// writeSymbolsJSON writes prefix and the n symbols sym(0) … as JSON
// strings separated by commas.
func writeSymbolsJSON(prefix string, syms alphabet.Alphabet, n int, sym func(i int) int, out *bufio.Writer) {
	q := quoted(syms)
	out.WriteString(prefix)
	for i := range n {
		if i > 0 {
			out.WriteByte(',')
		}
		out.WriteString(q[sym(i)])
	}
}

// writeWord writes the word sym(0) … sym(n−1) as Alphabet.FormatWord does.
func writeWord(syms alphabet.Alphabet, n int, sym func(i int) int, out *bufio.Writer) {
	single := syms.Unseparated()
	for i := range n {
		if single {
			out.WriteString(syms[sym(i)])
			continue
		}
		if i > 0 {
			out.WriteByte(' ')
		}
		out.WriteString(alphabet.Quote(syms[sym(i)]))
	}
}
