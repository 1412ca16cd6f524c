package brasp

import (
	"strings"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/position"
)

// reserved are words that cannot name a vector.
var reserved = map[string]bool{
	"leftmost": true, "rightmost": true, "output": true, "i": true, "j": true,
	"0": true, "1": true, "true": true, "false": true,
}

// checker resolves names and enforces the rules of §3.1: every reference is to
// an earlier vector, position-wise operations and defaults read only (i).
type checker struct {
	file    string
	errs    *ErrorList
	prog    *Program
	index   map[string]int  // defined so far
	later   map[string]Pos  // defined somewhere in the file
	failed  map[string]bool // statements with syntax errors
	current string
	// syntaxErrors is set when the parser reported errors, so that the
	// checker does not add their consequences (an empty alphabet when a
	// declaration failed to parse).
	syntaxErrors bool
}

func check(file string, stmts []*stmt, failed map[string]bool, errs *ErrorList) *Program {
	c := &checker{file: file, errs: errs, prog: &Program{File: file}, index: map[string]int{}, later: map[string]Pos{}, failed: failed, syntaxErrors: len(*errs) > 0}
	for _, s := range stmts {
		if s.kind != outputStmt && s.kind != propsStmt {
			if _, dup := c.later[s.name]; !dup {
				c.later[s.name] = s.namePos
			}
		}
	}
	var out, propsLine *stmt
	var symbols []string
	for n, s := range stmts {
		switch s.kind {
		case propsStmt:
			switch {
			case propsLine != nil:
				c.errorf(s.pos, "second propositions line (the first is at %s): declare every proposition in one line", propsLine.pos)
			case n > 0:
				c.errorf(s.pos, "the propositions line must come before every declaration and operation")
			default:
				c.declareProps(s)
			}
			propsLine = s
			continue
		case outputStmt:
			if out != nil {
				c.errorf(s.pos, "second output line (the first is at %s)", out.pos)
				continue
			}
			out = s
			continue
		}
		if reserved[s.name] {
			c.errorf(s.namePos, "%s is a reserved word and cannot name a vector", s.name)
			continue
		}
		if k, dup := c.index[s.name]; dup {
			c.errorf(s.namePos, "%s redefined (first defined at %s)", QuoteName(s.name), c.prog.Vectors[k].NamePos)
			continue
		}
		if len(c.prog.Vectors) >= MaxVectors {
			c.errorf(s.namePos, "too many vectors (limit MaxVectors = %d)", MaxVectors)
			return c.prog
		}
		v := &Vector{Name: s.name, NamePos: s.namePos}
		c.current = s.name
		switch s.kind {
		case declStmt:
			if pred, ok := ParsePredicate(s.name); ok {
				v.Kind, v.Pred = PredicateVector, pred
			} else if sym, ok := strings.CutPrefix(s.name, "Q_"); ok && sym != "" && c.prog.Props != nil {
				c.errorf(s.namePos, "%s(i): a program over propositions reads traces, not symbols; name the proposition in the propositions line and read it as %s(i)",
					QuoteName(s.name), QuoteName(PropositionVectorName(sym)))
				continue
			} else if sym, ok := strings.CutPrefix(s.name, "Q_"); ok && sym != "" {
				v.Kind, v.Symbol = SymbolVector, len(symbols)
				symbols = append(symbols, sym)
			} else if _, periodic, msg := position.ParsePeriodic(s.name); periodic {
				c.errorf(s.namePos, "%s", msg)
				continue
			} else {
				c.errorf(s.namePos, "%s(i) without := declares an initial vector, which must be an input symbol Q_σ or a position predicate (first, last, MOD_r_m, Mid, PERIODIC_<prefix>_<period>)", QuoteName(s.name))
				continue
			}
		case assignStmt:
			if s.att != nil {
				v.Kind, v.Att = AttentionVector, s.att
				c.resolve(s.att.Score, true, "")
				c.resolve(s.att.Value, true, "")
				c.resolve(s.att.Default, false, "the default of an attention operation")
			} else {
				v.Kind, v.Expr = PositionwiseVector, s.expr
				c.resolve(s.expr, false, "a position-wise operation")
			}
		}
		c.index[s.name] = len(c.prog.Vectors)
		c.prog.Vectors = append(c.prog.Vectors, v)
	}
	if c.prog.Props != nil {
		// A program over propositions has no alphabet of symbols.
		if len(c.prog.Vectors) == 0 && !c.syntaxErrors {
			c.errorf(Pos{Line: 1, Col: 1}, "empty program: no proposition and no operation, so there is no output vector")
		}
	} else if len(symbols) == 0 && !c.syntaxErrors {
		c.errorf(Pos{Line: 1, Col: 1}, "empty alphabet: declare each input symbol σ with a line Q_σ(i)")
	} else if a, err := alphabet.New(symbols...); err == nil {
		c.prog.Alphabet = a
	}
	c.resolveOutput(out)
	return c.prog
}

// declareProps adds the initial vector P_p of every proposition p of a
// propositions line, in order.
func (c *checker) declareProps(s *stmt) {
	c.prog.Props = []string{}
	for _, pn := range s.props {
		name := PropositionVectorName(pn.name)
		if k, dup := c.index[name]; dup {
			c.errorf(pn.pos, "proposition %s declared twice (first at %s)", alphabet.Quote(pn.name), c.prog.Vectors[k].NamePos)
			continue
		}
		if len(c.prog.Vectors) >= MaxVectors {
			c.errorf(pn.pos, "too many vectors (limit MaxVectors = %d)", MaxVectors)
			return
		}
		c.index[name] = len(c.prog.Vectors)
		c.prog.Vectors = append(c.prog.Vectors, &Vector{Name: name, NamePos: pn.pos, Kind: PropositionVector, Prop: len(c.prog.Props)})
		c.prog.Props = append(c.prog.Props, pn.name)
	}
}

func (c *checker) errorf(pos Pos, format string, args ...any) {
	c.errs.Add(c.file, pos, format, args...)
}

// resolve sets Ref.Vec in e; allowJ says whether (j) references are allowed,
// where names the context for the error when they are not.
func (c *checker) resolve(e Expr, allowJ bool, where string) {
	for _, r := range Refs(e) {
		if r.Var == VarJ && !allowJ {
			c.errorf(r.NamePos, "%s(j) in %s: only (i) is allowed there", QuoteName(r.Name), where)
		}
		k, ok := c.index[r.Name]
		switch {
		case ok:
			r.Vec = k
		case c.failed[r.Name]:
			// Already reported as a syntax error.
		case r.Name == c.current:
			c.errorf(r.NamePos, "%s is used in its own definition", QuoteName(r.Name))
		default:
			if pos, later := c.later[r.Name]; later {
				c.errorf(r.NamePos, "%s is used before its definition at %s", QuoteName(r.Name), pos)
			} else {
				c.errorf(r.NamePos, "undefined: %s%s", QuoteName(r.Name), c.hint(r.Name))
			}
		}
	}
}

// hint suggests how to declare a name that looks like an initial vector.
func (c *checker) hint(name string) string {
	if _, ok := ParsePredicate(name); ok {
		return " (declare the position predicate with a line " + name + "(i))"
	}
	if prop, ok := strings.CutPrefix(name, "P_"); ok && prop != "" && c.prog.Props != nil {
		return " (add " + alphabet.Quote(prop) + " to the propositions line)"
	}
	if strings.HasPrefix(name, "Q_") && c.prog.Props == nil {
		return " (declare the input symbol with a line " + QuoteName(name) + "(i))"
	}
	return ""
}

// resolveOutput fills Program.Output from the output line, or defaults to the
// program's last line, a declaration or an operation, as in the web
// simulator.
func (c *checker) resolveOutput(out *stmt) {
	p := c.prog
	if out == nil {
		if len(p.Vectors) > 0 {
			p.Output = Output{Accept: len(p.Vectors) - 1}
		}
		return
	}
	p.Output = Output{Pos: out.pos, Explicit: true, Accept: -1}
	lookup := func(name string, pos Pos) int {
		k, ok := c.index[name]
		if !ok {
			c.errorf(pos, "output vector %s is not defined", QuoteName(name))
			return -1
		}
		return k
	}
	if len(out.outputs) == 1 && out.outputs[0].symbol == "" {
		p.Output.Accept = lookup(out.outputs[0].name, out.outputs[0].namePos)
		return
	}
	var syms []string
	seen := map[string]Pos{}
	for _, o := range out.outputs {
		if pos, dup := seen[o.symbol]; dup {
			c.errorf(o.symbolPos, "output symbol %s given twice (first at %s)", alphabet.Quote(o.symbol), pos)
			continue
		}
		seen[o.symbol] = o.symbolPos
		syms = append(syms, o.symbol)
		p.Output.Vectors = append(p.Output.Vectors, lookup(o.name, o.namePos))
	}
	if a, err := alphabet.New(syms...); err == nil {
		p.Output.Symbols = a
	}
}

// Validate checks the invariants of a program built in memory: names unique
// and non-reserved, references resolved to earlier vectors with matching
// names, (j) only in scores and values, a non-empty alphabet, a valid output.
func Validate(p *Program) error {
	var errs ErrorList
	bad := func(format string, args ...any) { errs.Add(p.File, Pos{}, format, args...) }
	if len(p.Alphabet) == 0 && p.Props == nil {
		bad("empty alphabet")
	}
	if len(p.Alphabet) > 0 && p.Props != nil {
		bad("a program has input symbols or propositions, not both")
	}
	seen := map[string]bool{}
	for k, v := range p.Vectors {
		if v.Name == "" || reserved[v.Name] || seen[v.Name] {
			bad("vector %d has an empty, reserved or duplicate name %q", k, v.Name)
		}
		seen[v.Name] = true
		check := func(e Expr, allowJ bool, what string) {
			if e == nil {
				bad("%s: missing %s", v.Name, what)
				return
			}
			for _, r := range Refs(e) {
				if r.Vec < 0 || r.Vec >= k || p.Vectors[r.Vec].Name != r.Name {
					bad("%s: reference %s(%s) does not resolve to an earlier vector", v.Name, r.Name, r.Var)
				} else if r.Var == VarJ && !allowJ {
					bad("%s: %s(j) in %s, where only (i) is allowed", v.Name, r.Name, what)
				}
			}
		}
		switch v.Kind {
		case SymbolVector:
			if v.Symbol < 0 || v.Symbol >= len(p.Alphabet) || v.Name != SymbolVectorName(p.Alphabet[v.Symbol]) {
				bad("symbol vector %s does not match the alphabet", v.Name)
			}
		case PropositionVector:
			if v.Prop < 0 || v.Prop >= len(p.Props) || v.Name != PropositionVectorName(p.Props[v.Prop]) {
				bad("proposition vector %s does not match the propositions", v.Name)
			}
		case PredicateVector:
			if v.Name != v.Pred.Name() {
				bad("predicate vector %s is named differently from its predicate %s", v.Name, v.Pred.Name())
			}
		case PositionwiseVector:
			check(v.Expr, false, "a position-wise operation")
		case AttentionVector:
			if v.Att == nil {
				bad("%s: missing attention", v.Name)
				continue
			}
			check(v.Att.Score, true, "the score")
			check(v.Att.Value, true, "the value")
			check(v.Att.Default, false, "the default")
		}
	}
	o := p.Output
	valid := func(k int) bool { return k >= 0 && k < len(p.Vectors) }
	if o.Symbols != nil {
		if len(o.Vectors) != len(o.Symbols) {
			bad("transducer output has %d symbols but %d vectors", len(o.Symbols), len(o.Vectors))
		}
		for _, k := range o.Vectors {
			if !valid(k) {
				bad("transducer output vector %d out of range", k)
			}
		}
	} else if !valid(o.Accept) {
		bad("no output vector")
	}
	return errs.Err()
}
