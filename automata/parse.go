package automata

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/source"
)

// The `.dfa` format has one fact per line:
//
//	alphabet SYMBOL...
//	start STATE
//	accept STATE...
//	FROM SYMBOL TO
//
// `#` starts a comment that runs to the end of the line (outside quotes).
// Symbols and state names are bare (letters, digits, '_' and '?') or
// double-quoted Go strings; a quoted token is never a keyword, so a state named
// "start" is written quoted. States are numbered by their first appearance as
// the source of a transition, then by first appearance anywhere; a missing
// transition goes to an implicit rejecting sink state, added last and named
// "sink" (or "sink1", … if that name is taken). Several accept lines add up.

// dfaToken is one token of a .dfa line.
type dfaToken struct {
	text   string
	quoted bool
	pos    source.Pos
}

// keywords of the .dfa format, recognised only when written bare.
const (
	kwAlphabet = "alphabet"
	kwStart    = "start"
	kwAccept   = "accept"
)

// Parse reads an automaton in the `.dfa` text format. filename is used only
// in error positions. All errors are collected and returned as a
// source.ErrorList, sorted, one file:line:col: message per problem.
//
//	file       = { line "\n" } .
//	line       = [ alphabet | start | accept | transition ] [ "#" comment ] .
//	alphabet   = "alphabet" name { name } .
//	start      = "start" name .
//	accept     = "accept" { name } .
//	transition = name name name .            (FROM SYMBOL TO)
//	name       = bare | quoted .              (bare: letters, digits, _ and ?; quoted: a Go string)
func Parse(filename string, src []byte) (*DFA, error) {
	var errs source.ErrorList
	add := func(p source.Pos, msg string) { errs.Add(filename, p, "%s", msg) }
	at := func(p source.Pos) string { return p.In(filename) }
	lines := tokenizeDFA(filename, src, &errs)

	var (
		alpha      alphabet.Alphabet
		alphaPos   source.Pos
		haveAlpha  bool
		start      *dfaToken
		accepts    []dfaToken
		trans      [][3]dfaToken
		firstSeen  = map[string]int{} // order of first appearance anywhere
		firstFrom  = map[string]int{} // order of first appearance as FROM
		noteState  = func(t dfaToken) { firstSeen[t.text] = orderOf(firstSeen, t.text) }
		eofPos     = source.Pos{Line: 1 + strings.Count(string(src), "\n"), Col: 1}
		firstToken *dfaToken
	)
	for _, line := range lines {
		if len(line) == 0 {
			continue
		}
		head := line[0]
		if firstToken == nil {
			firstToken = &line[0]
		}
		switch {
		case !head.quoted && head.text == kwAlphabet:
			if haveAlpha {
				add(head.pos, "duplicate alphabet line (first at "+at(alphaPos)+")")
				continue
			}
			haveAlpha, alphaPos = true, head.pos
			if len(line) == 1 {
				add(head.pos, "alphabet needs at least one symbol")
			}
			seen := map[string]bool{}
			for _, t := range line[1:] {
				if seen[t.text] {
					add(t.pos, "duplicate symbol "+alphabet.Quote(t.text))
					continue
				}
				seen[t.text] = true
				alpha = append(alpha, t.text)
			}
		case !head.quoted && head.text == kwStart:
			if len(line) != 2 {
				add(head.pos, "start needs exactly one state")
				continue
			}
			if start != nil {
				add(head.pos, "duplicate start line (first at "+at(start.pos)+")")
				continue
			}
			start = &line[1]
			noteState(line[1])
		case !head.quoted && head.text == kwAccept:
			for _, t := range line[1:] {
				accepts = append(accepts, t)
				noteState(t)
			}
		default:
			if len(line) != 3 {
				add(head.pos, "expected a transition FROM SYMBOL TO or a line starting with alphabet, start or accept")
				continue
			}
			trans = append(trans, [3]dfaToken{line[0], line[1], line[2]})
			noteState(line[0])
			noteState(line[2])
			firstFrom[line[0].text] = orderOf(firstFrom, line[0].text)
		}
	}
	if !haveAlpha {
		p := eofPos
		if firstToken != nil {
			p = firstToken.pos
		}
		add(p, "missing alphabet line")
	}
	if start == nil {
		add(eofPos, "missing start line")
	}
	if len(errs) > 0 {
		return nil, errs.Err()
	}

	// Number the states: sources of transitions first, then the rest.
	names := make([]string, 0, len(firstSeen))
	for name := range firstSeen {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool {
		fi, iok := firstFrom[names[i]]
		fj, jok := firstFrom[names[j]]
		if iok != jok {
			return iok
		}
		if iok {
			return fi < fj
		}
		return firstSeen[names[i]] < firstSeen[names[j]]
	})
	index := make(map[string]int, len(names))
	for q, name := range names {
		index[name] = q
	}
	n := len(names)
	d := &DFA{Alphabet: alpha, States: names, Start: index[start.text], Accept: make([]bool, n), Delta: make([][]int, n)}
	for q := range d.Delta {
		d.Delta[q] = make([]int, len(alpha))
		for a := range d.Delta[q] {
			d.Delta[q][a] = -1
		}
	}
	for _, t := range accepts {
		d.Accept[index[t.text]] = true
	}
	defined := map[[2]int]source.Pos{}
	symbol := alpha.Indexer()
	for _, t := range trans {
		from, to := index[t[0].text], index[t[2].text]
		a := symbol(t[1].text)
		if a < 0 {
			add(t[1].pos, "symbol "+alphabet.Quote(t[1].text)+" is not in the alphabet {"+alpha.Brief()+"}")
			continue
		}
		if old := d.Delta[from][a]; old >= 0 {
			if old != to {
				add(t[0].pos, "conflicting transition "+alphabet.Quote(t[0].text)+" "+alphabet.Quote(t[1].text)+
					": already goes to "+alphabet.Quote(names[old])+" at "+at(defined[[2]int{from, a}]))
			}
			continue
		}
		d.Delta[from][a] = to
		defined[[2]int{from, a}] = t[0].pos
	}
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	completeWithSink(d)
	return d, nil
}

// orderOf returns the existing order number of key in m, or the next one.
func orderOf(m map[string]int, key string) int {
	if k, ok := m[key]; ok {
		return k
	}
	return len(m)
}

// completeWithSink sends every transition marked -1 to a new rejecting sink
// state, added only if some transition is missing.
func completeWithSink(d *DFA) {
	sink := -1
	for q := range d.Delta {
		for a, r := range d.Delta[q] {
			if r >= 0 {
				continue
			}
			if sink < 0 {
				taken := make(map[string]bool, len(d.States))
				for _, s := range d.States {
					taken[s] = true
				}
				sink = len(d.Delta)
				d.States = append(d.States, uniqueName("sink", taken))
				d.Accept = append(d.Accept, false)
				row := make([]int, len(d.Alphabet))
				for b := range row {
					row[b] = sink
				}
				d.Delta = append(d.Delta, row)
			}
			d.Delta[q][a] = sink
		}
	}
}

// tokenizeDFA splits src into lines of tokens, reporting malformed tokens.
func tokenizeDFA(filename string, src []byte, errs *source.ErrorList) [][]dfaToken {
	var lines [][]dfaToken
	for lineNo, text := range strings.Split(string(src), "\n") {
		if errs.Full() {
			break // nothing more would be shown
		}
		var line []dfaToken
		pos := func(off int) source.Pos { return source.Pos{Line: lineNo + 1, Col: off + 1} }
		add := func(p source.Pos, msg string) { errs.Add(filename, p, "%s", msg) }
		for i := 0; i < len(text) && !errs.Full(); {
			r, size := utf8.DecodeRuneInString(text[i:])
			switch {
			case r == ' ' || r == '\t' || r == '\r' || r == '\f' || r == '\v':
				i += size
			case r == '#':
				i = len(text)
			case r == '"' || alphabet.IsNameRune(r):
				j, s, quoted, err := alphabet.ScanSymbol(text, i, nil)
				switch {
				case err == alphabet.ErrEmptyQuote:
					add(pos(i), "empty quoted name")
				case err != nil:
					add(pos(i), "malformed quoted string")
					j = len(text)
				default:
					line = append(line, dfaToken{text: s, quoted: quoted, pos: pos(i)})
				}
				i = j
			default:
				if r == utf8.RuneError && size == 1 {
					add(pos(i), "invalid UTF-8")
				} else {
					add(pos(i), "unexpected character "+strconv.QuoteRune(r)+" (quote names that are not letters, digits, _ or ?)")
				}
				i += size
			}
		}
		lines = append(lines, line)
	}
	return lines
}
