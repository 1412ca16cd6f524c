package artifact

import (
	"encoding/json"
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata/count"
	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/exact"
	"github.com/brasp-dev/brasp/ltlf"
)

// This file gives brasp count and brasp sample an input's language as an
// automaton to count and sample words on (package automata/count), and
// writes the words drawn as brasp run reads them.

// Language is an input's language as count and sample read it: its
// minimal automaton, and how its letters are written. Over letters a word
// is written as brasp run reads it (one character per letter, or letters
// separated by spaces, quoted where needed); over propositions a letter is
// a valuation and a word a trace ("a,b;;c").
type Language struct {
	A *count.Automaton
	// Alphabet names the letters of a language over letters (the minimal
	// DFA's alphabet); nil over propositions.
	Alphabet alphabet.Alphabet
	// Props are the propositions of a language over them (bit i of a
	// letter: Props[i] holds).
	Props []string

	single bool     // words written without separators (alphabet.Alphabet.Unseparated)
	text   []string // each letter as written in a word (a step of a trace); nil over many propositions
	json   []string // each letter as a JSON string; nil over many propositions
	// propText are the propositions as written in a trace, jsonProps as
	// JSON string contents (no quotes).
	propText, jsonProps []string
}

// LanguageOf returns the language of an acceptor of any kind: the minimal
// DFA that ToDFA gives, or, for an input over propositions (an LTLf
// formula, a program or model over propositions, MONA's automata), its
// minimal symbolic DFA, whose letters are the 2^k valuations counted on the
// decision diagrams. A transducer has no language.
func LanguageOf(b *budget.Budget, a Artifact, opts Options) (*Language, error) {
	if isTransducer(a) {
		return nil, exact.ErrTransducer
	}
	if _, ok := propsOf(a); ok {
		c, err := Convert(b, a, KindDFA, opts)
		if err != nil {
			return nil, err
		}
		if s, ok := c.(*SymbolicDFA); ok {
			d, err := symbolic.Minimize(b, s.D)
			if err != nil {
				return nil, err
			}
			ca, err := count.FromSymbolic(b, d)
			if err != nil {
				return nil, err
			}
			l := &Language{A: ca, Props: d.Props}
			for _, p := range d.Props {
				if strings.ContainsAny(p, ",;") {
					return nil, fmt.Errorf("the proposition %q cannot be written in a trace (it contains , or ;)", p)
				}
				if alphabet.IsBare(p) {
					l.propText = append(l.propText, p)
				} else {
					l.propText = append(l.propText, `"`+p+`"`) // as brasp run reads it: quotes stripped
				}
				q, _ := json.Marshal(p)
				l.jsonProps = append(l.jsonProps, string(q[1:len(q)-1]))
			}
			if len(d.Props) <= tabulatedProps {
				// Each valuation's step and JSON name, written once.
				for v := range uint64(1) << len(d.Props) {
					l.text = append(l.text, string(l.appendStep(nil, v)))
					l.json = append(l.json, string(l.appendValuationJSON(nil, v)))
				}
			}
			return l, nil
		}
	}
	d, err := ToDFA(b, a, opts)
	if err != nil {
		return nil, err
	}
	ca, err := count.FromDFA(d)
	if err != nil {
		return nil, err
	}
	l := &Language{A: ca, Alphabet: d.Alphabet, single: d.Alphabet.Unseparated()}
	for _, s := range d.Alphabet {
		if l.single {
			l.text = append(l.text, s)
		} else {
			l.text = append(l.text, alphabet.Quote(s))
		}
		q, _ := json.Marshal(s)
		l.json = append(l.json, string(q))
	}
	return l, nil
}

// Traces reports whether the language is over propositions (its words
// are traces).
func (l *Language) Traces() bool { return l.Alphabet == nil }

// AppendWord appends w as brasp run reads it: a word of letters, or a
// trace (steps separated by ';', each its true propositions separated by
// ',', in double quotes unless bare names; "{}" for a trace of one step
// where nothing holds).
func (l *Language) AppendWord(dst []byte, w []uint64) []byte {
	if !l.Traces() {
		for i, c := range w {
			if i > 0 && !l.single {
				dst = append(dst, ' ')
			}
			dst = append(dst, l.text[c]...)
		}
		return dst
	}
	if len(w) == 1 && w[0] == 0 {
		return append(dst, "{}"...)
	}
	for i, v := range w {
		if i > 0 {
			dst = append(dst, ';')
		}
		if l.text != nil {
			dst = append(dst, l.text[v]...)
		} else {
			dst = l.appendStep(dst, v)
		}
	}
	return dst
}

// tabulatedProps is the most propositions whose 2^k valuations have their
// text written once, in a table, rather than at every step.
const tabulatedProps = 10

// appendStep appends the propositions true in v, separated by ','.
func (l *Language) appendStep(dst []byte, v uint64) []byte {
	for first := true; v != 0; v &= v - 1 {
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, l.propText[bits.TrailingZeros64(v)]...)
	}
	return dst
}

// appendValuationJSON appends the name of the valuation v as a JSON
// string: its true propositions, sorted, in braces.
func (l *Language) appendValuationJSON(dst []byte, v uint64) []byte {
	dst = append(dst, `"{`...)
	for i, p := range l.sortedProps(v) {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, l.jsonProps[p]...)
	}
	return append(dst, `}"`...)
}

// AppendJSON appends w as one line of JSON: {"word": [...], "length": n,
// "label": "accept"}, the word's letters as strings; over propositions a
// letter is named by its true propositions, sorted, {a,b}, as the
// valuation letters of the letter-based kinds are, and "trace" is the
// trace as brasp run reads it.
func (l *Language) AppendJSON(dst []byte, w []uint64, accepted bool) []byte {
	dst = append(dst, `{"word":[`...)
	for i, c := range w {
		if i > 0 {
			dst = append(dst, ',')
		}
		if l.json != nil {
			dst = append(dst, l.json[c]...)
		} else {
			dst = l.appendValuationJSON(dst, c)
		}
	}
	dst = append(dst, `],"length":`...)
	dst = strconv.AppendInt(dst, int64(len(w)), 10)
	if l.Traces() {
		dst = append(dst, `,"trace":`...)
		q, _ := json.Marshal(string(l.AppendWord(nil, w)))
		dst = append(dst, q...)
	}
	dst = append(dst, `,"label":"`...)
	if accepted {
		dst = append(dst, "accept"...)
	} else {
		dst = append(dst, "reject"...)
	}
	return append(dst, `"}`...)
}

// sortedProps lists the propositions true in v, by name.
func (l *Language) sortedProps(v uint64) []int {
	var out []int
	for ; v != 0; v &= v - 1 {
		p := bits.TrailingZeros64(v)
		i := len(out)
		for i > 0 && l.Props[out[i-1]] > l.Props[p] {
			i--
		}
		out = append(out, 0)
		copy(out[i+1:], out[i:])
		out[i] = p
	}
	return out
}

// Run runs the input a itself on w, a word of the language written as
// AppendWord writes it and read back as brasp run reads it: the check of
// sample --verify and of the tests that a label is the input's verdict.
func (l *Language) Run(a Artifact, w []uint64) (bool, error) {
	text := string(l.AppendWord(nil, w))
	if tr, ok := a.(TraceRunner); ok && tr.ReadsTraces() {
		// The trace must read back as the one drawn.
		t, err := ltlf.ParseTrace(l.Props, text)
		if err != nil {
			return false, err
		}
		for i, v := range w {
			for p := range l.Props {
				if i >= len(t) || t[i].Has(p) != (v>>p&1 == 1) {
					return false, fmt.Errorf("the trace drawn, written %s, reads back as another", text)
				}
			}
		}
		if len(t) != len(w) {
			return false, fmt.Errorf("the trace drawn, written %s, reads back as one of %d steps", text, len(t))
		}
		return tr.RunTrace(text)
	}
	v, err := a.Alphabet().ParseWord(text)
	if err != nil {
		return false, err
	}
	// The word must read back as the one drawn.
	own := a.Alphabet()
	if len(v) != len(w) {
		return false, fmt.Errorf("the word drawn, written %s, reads back as %d letters", text, len(v))
	}
	for i, c := range w {
		if own[v[i]] != l.Alphabet[c] {
			return false, fmt.Errorf("the word drawn, written %s, reads back as another", text)
		}
	}
	return a.Accepts(v)
}
