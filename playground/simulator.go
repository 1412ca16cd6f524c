package playground

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
)

// The B-RASP web simulator (https://b-rasp.github.io/) reads a program line
// by line with a grammar of its own and silently drops every line that does
// not match it; it stops at the first operation that uses an undefined
// name. Its output vector is the last line it kept; its input is the text
// of the input box, trimmed, one character per symbol, where an undeclared
// character has every symbol vector 0. This file models that reading, so
// that the page can say what brasp reads differently when a program is
// pasted from the simulator.

// simOp is one line as the simulator reads it.
type simOp struct {
	line   int
	name   string
	symbol string // declarations: the symbol of Q_σ
	// attention operations
	attention bool
	leftmost  bool
	mask      string
	score     simExpr
	value     simExpr
	def       simExpr
	expr      simExpr // position-wise operations
}

// simExpr is an expression of the simulator's grammar: a constant (name
// "0" or "1"), a reference NAME(i) or NAME(j), or an operator.
type simExpr struct {
	op       byte // 'c' constant, 'r' reference, '!', '&', '|'
	name     string
	atJ      bool
	val      bool
	operands []simExpr
}

// simParser reads one line with the simulator's grammar: tokens may be
// separated by spaces, "(i)", "(j)", ":=" and the masks are single tokens,
// names are runs of letters, digits and '_'.
type simParser struct {
	s   string
	pos int
	ok  bool
}

func (p *simParser) space() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t' || p.s[p.pos] == '\r') {
		p.pos++
	}
}

func (p *simParser) lit(t string) bool {
	p.space()
	if strings.HasPrefix(p.s[p.pos:], t) {
		p.pos += len(t)
		return true
	}
	return false
}

func isSimNameRune(r rune) bool {
	return unicode.IsLower(r) || unicode.IsUpper(r) || r >= '0' && r <= '9' || r == '_'
}

func (p *simParser) name() string {
	p.space()
	start := p.pos
	for _, r := range p.s[p.pos:] {
		if !isSimNameRune(r) {
			break
		}
		p.pos += len(string(r))
	}
	return p.s[start:p.pos]
}

// expr parses EXPR = TERM { "|" TERM }, TERM = FACTOR { "&" FACTOR },
// FACTOR = "!" FACTOR | "(" EXPR ")" | "0" | "1" | NAME "(i)" | NAME "(j)":
// the simulator's left-recursive grammar, evaluated by math.js with ! above
// & above |.
func (p *simParser) expr() simExpr {
	e := p.term()
	for p.ok && p.lit("|") {
		e = simExpr{op: '|', operands: []simExpr{e, p.term()}}
	}
	return e
}

func (p *simParser) term() simExpr {
	e := p.factor()
	for p.ok && p.lit("&") {
		e = simExpr{op: '&', operands: []simExpr{e, p.factor()}}
	}
	return e
}

func (p *simParser) factor() simExpr {
	switch {
	case !p.ok:
		return simExpr{}
	case p.lit("!"):
		return simExpr{op: '!', operands: []simExpr{p.factor()}}
	case p.lit("("):
		e := p.expr()
		if !p.lit(")") {
			p.ok = false
		}
		return e
	}
	save := p.pos
	n := p.name()
	if p.lit("(i)") {
		return simExpr{op: 'r', name: n}
	}
	if p.lit("(j)") {
		return simExpr{op: 'r', name: n, atJ: true}
	}
	if n == "0" || n == "1" {
		return simExpr{op: 'c', val: n == "1"}
	}
	p.pos = save
	p.ok = false
	return simExpr{}
}

// parseSimLine reads a line as the simulator does; ok is false when the
// simulator drops it.
func parseSimLine(line string, number int) (op simOp, ok bool) {
	p := &simParser{s: line, ok: true}
	op.line = number
	// A declaration: Q_ followed by one letter or digit.
	if p.lit("Q_") {
		rest := []rune(strings.TrimRight(p.s[p.pos:], " \t\r"))
		if len(rest) == 4 && (unicode.IsLetter(rest[0]) || unicode.IsDigit(rest[0])) && string(rest[1:]) == "(i)" {
			op.symbol = string(rest[0])
			op.name = "Q_" + op.symbol
			return op, true
		}
		p.pos = 0
	}
	op.name = p.name()
	if op.name == "" || !p.lit("(i)") || !p.lit(":=") {
		return op, false
	}
	save := p.pos
	if tie := p.name(); tie == "leftmost" || tie == "rightmost" {
		op.attention, op.leftmost = true, tie == "leftmost"
		if !p.lit("[") {
			return op, false
		}
		for _, m := range []string{"j<=i", "i<=j", "j<i", "i<j", "1"} {
			if p.lit(m) {
				op.mask = m
				break
			}
		}
		if op.mask == "" || !p.lit(",") {
			return op, false
		}
		op.score = p.expr()
		if !p.ok || !p.lit("]") {
			return op, false
		}
		op.value = p.expr()
		if !p.ok || !p.lit(":") {
			return op, false
		}
		op.def = p.expr()
	} else {
		p.pos = save
		op.expr = p.expr()
	}
	p.space()
	return op, p.ok && p.pos == len(p.s)
}

// refs appends the names e refers to.
func (e simExpr) refs(out []string) []string {
	if e.op == 'r' {
		out = append(out, e.name)
	}
	for _, o := range e.operands {
		out = o.refs(out)
	}
	return out
}

// simProgram is a program as the simulator reads it.
type simProgram struct {
	ops []simOp
	// dropped are the lines the simulator ignores (1-based).
	dropped []int
	// stop is the line where the simulator stops loading because it uses
	// an undefined name (0 when it loads every line), and undefined that
	// name.
	stop      int
	undefined string
}

func readSimulator(src string) *simProgram {
	sp := &simProgram{}
	defined := map[string]bool{}
	for k, line := range strings.Split(src, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		op, ok := parseSimLine(line, k+1)
		if !ok {
			sp.dropped = append(sp.dropped, k+1)
			continue
		}
		var used []string
		for _, e := range []simExpr{op.expr, op.score, op.value, op.def} {
			used = e.refs(used)
		}
		for _, n := range used {
			if !defined[n] {
				sp.stop, sp.undefined = k+1, n
				return sp
			}
		}
		defined[op.name] = true
		sp.ops = append(sp.ops, op)
	}
	return sp
}

// run evaluates the program on word (one character per symbol) as the
// simulator does: vectors by name, a later definition replacing an earlier
// one.
func (sp *simProgram) run(b *budget.Budget, word []rune) (map[string][]bool, error) {
	n := len(word)
	vals := map[string][]bool{}
	for _, op := range sp.ops {
		v := make([]bool, n)
		switch {
		case op.symbol != "":
			for i, r := range word {
				v[i] = string(r) == op.symbol
			}
		case !op.attention:
			for i := range v {
				v[i] = op.expr.eval(vals, i, i)
			}
		default:
			for i := range v {
				if err := b.Step(int64(n)); err != nil {
					return nil, err
				}
				j := -1
				for k := 0; k < n; k++ {
					jj := k
					if !op.leftmost {
						jj = n - 1 - k
					}
					if simMask(op.mask, i, jj) && op.score.eval(vals, i, jj) {
						j = jj
						break
					}
				}
				if j < 0 {
					v[i] = op.def.eval(vals, i, i)
				} else {
					v[i] = op.value.eval(vals, i, j)
				}
			}
		}
		vals[op.name] = v
	}
	return vals, nil
}

func simMask(m string, i, j int) bool {
	switch m {
	case "j<i":
		return j < i
	case "i<j":
		return i < j
	case "j<=i":
		return j <= i
	case "i<=j":
		return i <= j
	}
	return true
}

func (e simExpr) eval(vals map[string][]bool, i, j int) bool {
	switch e.op {
	case 'c':
		return e.val
	case 'r':
		if e.atJ {
			return vals[e.name][j]
		}
		return vals[e.name][i]
	case '!':
		return !e.operands[0].eval(vals, i, j)
	case '&':
		return e.operands[0].eval(vals, i, j) && e.operands[1].eval(vals, i, j)
	case '|':
		return e.operands[0].eval(vals, i, j) || e.operands[1].eval(vals, i, j)
	}
	return false
}

// SimCheckRequest is the body of POST /api/simcheck.
type SimCheckRequest struct {
	Program string `json:"program"`
	Word    string `json:"word"`
}

// SimCheckResponse lists what brasp reads differently from the web
// simulator; Same is true when there is nothing.
type SimCheckResponse struct {
	Same        bool            `json:"same"`
	Differences []SimDifference `json:"differences"`
}

// SimDifference is one thing brasp reads differently, at a 1-based line of
// the program (0 for the word or the whole program).
type SimDifference struct {
	Line int    `json:"line"`
	Msg  string `json:"msg"`
}

func (a *API) simcheck(b *budget.Budget, req *SimCheckRequest) (any, *apiError) {
	diffs, err := SimulatorDifferences(b, req.Program, req.Word, a.cfg.MaxWord)
	if err != nil {
		return nil, failed("word", "simulator check", err)
	}
	return &SimCheckResponse{Same: len(diffs) == 0, Differences: diffs}, nil
}

// SimulatorDifferences names everything brasp reads differently from the
// B-RASP web simulator in program and word: lines the simulator drops or
// stops at, a different output vector, characters of the word brasp
// refuses or separates, and every vector whose values differ on the word
// (words of up to maxWord symbols are run).
func SimulatorDifferences(b *budget.Budget, program, word string, maxWord int) ([]SimDifference, error) {
	var out []SimDifference
	add := func(line int, format string, args ...any) {
		out = append(out, SimDifference{line, fmt.Sprintf(format, args...)})
	}
	sp := readSimulator(program)
	lines := strings.Split(program, "\n")
	for _, l := range sp.dropped {
		text := strings.TrimSpace(lines[l-1])
		switch {
		case strings.HasPrefix(text, "#"):
			add(l, "a comment: the simulator's syntax has none, it ignores the line")
		case strings.HasPrefix(text, "output"):
			add(l, "an output line: the simulator ignores it and outputs its last line")
		default:
			add(l, "not in the simulator's syntax (%s): it ignores the line", simSyntaxHint(text))
		}
	}
	if sp.stop > 0 {
		add(sp.stop, "the simulator stops loading here: %s is not defined in what it read (\"Error: function %s not defined\"); the lines from here on are not in its program", sp.undefined, sp.undefined)
	}
	p, err := brasp.Parse("program", []byte(program))
	if err != nil {
		add(0, "brasp does not accept the program: %v", err)
		return out, nil
	}
	if len(sp.ops) == 0 {
		add(0, "the simulator reads no line of the program")
		return out, nil
	}
	simOut := sp.ops[len(sp.ops)-1]
	switch {
	case p.IsTransducer():
		add(p.Output.Pos.Line, "brasp reads a transducer (one output vector per symbol); the simulator accepts or rejects with its last line, %s", simOut.name)
	case p.Vectors[p.Output.Accept].Name != simOut.name:
		add(p.Output.Pos.Line, "the output vector: brasp reads %s, the simulator its last line, %s (line %d)", p.Vectors[p.Output.Accept].Name, simOut.name, simOut.line)
	}
	trimmed := strings.TrimSpace(word)
	chars := []rune(trimmed)
	if strings.ContainsAny(trimmed, " \t") {
		add(0, "the word has spaces: brasp separates symbols with them, the simulator reads each space as a symbol (undeclared, so all-zero)")
	}
	var undeclared []string
	seen := map[rune]bool{}
	for _, r := range chars {
		if r != ' ' && r != '\t' && p.Alphabet.Index(string(r)) < 0 && !seen[r] {
			seen[r] = true
			undeclared = append(undeclared, fmt.Sprintf("%q", r))
		}
	}
	if len(undeclared) > 0 && p.Alphabet.SingleChar() {
		add(0, "the word has characters the program does not declare (%s): the simulator reads them as symbols whose every Q vector is 0; brasp refuses the word unless \"undeclared characters as all-zero symbols\" is on", strings.Join(undeclared, ", "))
	}
	if len(chars) == 0 || len(chars) > maxWord || sp.stop > 0 || !p.Alphabet.SingleChar() {
		return out, nil
	}
	// Run both on the word, read the simulator's way, and compare every
	// vector the two programs share by name.
	w, _, err := brasp.ParseWordUndeclared(p.Alphabet, trimmed)
	if err != nil {
		return out, nil
	}
	simVals, err := sp.run(b, chars)
	if err != nil {
		return nil, err
	}
	t := p.Run(w)
	for k, v := range p.Vectors {
		sv, ok := simVals[v.Name]
		if !ok {
			if !slices.Contains(sp.dropped, v.NamePos.Line) && (!v.IsInitial() || p.Output.Accept == k) {
				add(v.NamePos.Line, "%s is not in the simulator's program", v.Name)
			}
			continue
		}
		for i := range w {
			if t.Value(k, i) != sv[i] {
				add(v.NamePos.Line, "%s differs at position %d: brasp %v, the simulator %v", v.Name, i+1, b2i(t.Value(k, i)), b2i(sv[i]))
				break
			}
		}
	}
	if !p.IsTransducer() {
		if acc, simAcc := t.Accept(), simVals[simOut.name][len(chars)-1]; acc != simAcc {
			add(0, "the verdict differs: brasp %s, the simulator %s", verdict(acc), verdict(simAcc))
		}
	}
	return out, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func verdict(acc bool) string {
	if acc {
		return "accepts"
	}
	return "rejects"
}

// simSyntaxHint names the brasp extension a line uses, as far as a glance
// can tell.
func simSyntaxHint(text string) string {
	switch {
	case strings.Contains(text, "#"):
		return "a comment"
	case strings.Contains(text, `"`):
		return "a quoted symbol"
	case strings.Contains(text, "?"):
		return "'?' in a name"
	case strings.Contains(text, "true") || strings.Contains(text, "false"):
		return "true/false for 1/0"
	case strings.HasPrefix(text, "Q_") && !strings.Contains(text, ":="):
		return "a symbol of several characters"
	case !strings.Contains(text, ":="):
		if _, ok := brasp.ParsePredicate(strings.TrimSuffix(text, "(i)")); ok {
			return "a position predicate"
		}
		return "a declaration the simulator does not know"
	case strings.Contains(text, ">") || strings.Contains(text, "< ") || strings.Contains(text, " <"):
		return "a mask written other than j<i, i<j, j<=i, i<=j or 1"
	}
	return "an extension"
}
