package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/brasp-dev/brasp/artifact"
)

func init() {
	register(&command{name: "run", summary: "run a program, formula, automaton, regex or transformer on words", run: runCmd})
}

const runUsage = "run [--from KIND] [--table | --json] [--input-file F] FILE WORD..."

func runCmd(e *env, args []string) error {
	fs := newFlags(e, "run", runUsage)
	from := fs.String("from", "", "input kind, overriding the file extension")
	table := fs.Bool("table", false, "print the Figure-2 table of every vector at every position (B-RASP)")
	asJSON := fs.Bool("json", false, "print one JSON object per word with the input, vectors and verdict")
	inputFile := fs.String("input-file", "", "read words from `F`, one per line (- for standard input)")
	pos, err := parseFlags(e, fs, runUsage, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return &exitError{code: 2, msg: "run: missing FILE (usage: brasp " + runUsage + ")"}
	}
	if *table && *asJSON {
		return &exitError{code: 2, msg: "run: --table and --json cannot be combined"}
	}
	a, err := loadFile(pos[0], *from)
	if err != nil {
		return err
	}
	words := pos[1:]
	out := bufio.NewWriterSize(e.stdout, 1<<16)
	defer out.Flush()
	if *inputFile != "" {
		var r io.Reader = e.stdin
		if *inputFile != "-" {
			f, err := os.Open(*inputFile)
			if err != nil {
				return err
			}
			defer f.Close()
			r = f
		}
		br := bufio.NewReaderSize(r, 1<<20)
		line := 0
		for {
			s, err := br.ReadString('\n')
			if s != "" || err == nil {
				line++
				s = strings.TrimRight(s, "\r\n")
				if err := runWord(a, s, fmt.Sprintf("%s:%d", *inputFile, line), *table, *asJSON, out); err != nil {
					return err
				}
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	if len(words) == 0 {
		return &exitError{code: 2, msg: "run: no words given (give WORD arguments or --input-file F)"}
	}
	for n, s := range words {
		if err := runWord(a, s, fmt.Sprintf("word %d", n+1), *table, *asJSON, out); err != nil {
			return err
		}
	}
	return nil
}

// runWord runs a on the word written s and prints the result; where names
// the word in error messages.
func runWord(a artifact.Artifact, s, where string, table, asJSON bool, out *bufio.Writer) error {
	w, err := a.Alphabet().ParseWord(s)
	if err != nil {
		return fmt.Errorf("%s: %v", where, err)
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
	// {"input":[...],"vectors":{"NAME":[0,1,...]},"accept":true}, vectors in
	// program order.
	input := make([]string, len(w))
	for i, k := range w {
		input[i] = a.Alphabet()[k]
	}
	var b strings.Builder
	b.WriteString(`{"input":`)
	writeJSON(&b, input)
	if canTrace && len(w) > 0 {
		names, values, err := tracer.Vectors(w)
		if err != nil {
			return err
		}
		b.WriteString(`,"vectors":{`)
		for k, name := range names {
			if k > 0 {
				b.WriteByte(',')
			}
			writeJSON(&b, name)
			b.WriteString(":[")
			for i, v := range values[k] {
				if i > 0 {
					b.WriteByte(',')
				}
				if v {
					b.WriteByte('1')
				} else {
					b.WriteByte('0')
				}
			}
			b.WriteByte(']')
		}
		b.WriteByte('}')
	}
	if outWord != nil {
		b.WriteString(`,"output":`)
		writeJSON(&b, outWord)
	} else {
		fmt.Fprintf(&b, `,"accept":%v`, verdict == "accept")
	}
	b.WriteString("}\n")
	out.WriteString(b.String())
	return nil
}

func writeJSON(b *strings.Builder, v any) {
	data, _ := json.Marshal(v)
	b.Write(data)
}
