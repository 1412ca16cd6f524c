package brasp

import (
	"strconv"
	"strings"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/position"
)

// Builder assembles a program operation by operation, for converters that
// produce B-RASP (LTL → B-RASP, Krohn–Rhodes, normal forms, decompilation).
// Its methods return vector indices; Program checks the result exactly as
// Parse would, so a built program is as trustworthy as a parsed one.
type Builder struct {
	prog  *Program
	names map[string]int
	// next is, per base of generated names, the first suffix Fresh has not
	// tried yet, so that n fresh names from one base cost O(n), not O(n²).
	next   map[string]int
	accept int
	out    *Output
}

// NewBuilder starts a program over alpha, declaring Q_σ for every symbol σ
// in order (vector k is Q of symbol k).
func NewBuilder(alpha alphabet.Alphabet) *Builder {
	b := &Builder{prog: &Program{Alphabet: alpha}, names: map[string]int{}, next: map[string]int{}, accept: -1}
	for k, s := range alpha {
		b.add(&Vector{Name: SymbolVectorName(s), Kind: SymbolVector, Symbol: k})
	}
	return b
}

// NewPropositionBuilder starts a program over the atomic propositions
// props, declaring P_p for every proposition p in order (vector k is P of
// proposition k).
func NewPropositionBuilder(props []string) *Builder {
	b := &Builder{prog: &Program{Props: append([]string{}, props...)}, names: map[string]int{}, next: map[string]int{}, accept: -1}
	for k, p := range props {
		b.add(&Vector{Name: PropositionVectorName(p), Kind: PropositionVector, Prop: k})
	}
	return b
}

// newBuilderLike starts a program with the inputs of p: its symbols or its
// propositions.
func newBuilderLike(p *Program) *Builder {
	if p.Props != nil {
		return NewPropositionBuilder(p.Props)
	}
	return NewBuilder(p.Alphabet)
}

func (b *Builder) add(v *Vector) int {
	if _, dup := b.names[v.Name]; dup {
		v.Name = b.Fresh(v.Name)
	}
	k := len(b.prog.Vectors)
	b.names[v.Name] = k
	b.prog.Vectors = append(b.prog.Vectors, v)
	return k
}

// SymbolVec returns the index of Q_σ for symbol index k.
func (b *Builder) SymbolVec(k int) int { return k }

// Predicate returns the vector of position predicate p, declaring it on first
// use.
func (b *Builder) Predicate(p Predicate) int {
	if k, ok := b.names[p.Name()]; ok && b.prog.Vectors[k].Kind == PredicateVector {
		return k
	}
	return b.add(&Vector{Name: p.Name(), Kind: PredicateVector, Pred: p})
}

// Fresh returns a name starting with prefix that no vector has yet.
func (b *Builder) Fresh(prefix string) string {
	if prefix == "" {
		prefix = "P"
	}
	if _, used := b.names[prefix]; !used && !reserved[prefix] && !isPredicateName(prefix) {
		return prefix
	}
	base := strings.TrimRight(prefix, "0123456789")
	if base == "" || !strings.HasSuffix(base, "_") {
		base += "_"
	}
	for n := max(b.next[base], 1); ; n++ {
		name := base + strconv.Itoa(n)
		if _, used := b.names[name]; !used {
			b.next[base] = n + 1
			return name
		}
	}
}

func isPredicateName(name string) bool {
	_, ok := ParsePredicate(name)
	return ok || strings.HasPrefix(name, "Q_")
}

// Positionwise adds name(i) := e and returns its index. A name already in use
// is replaced by a fresh one.
func (b *Builder) Positionwise(name string, e Expr) int {
	return b.add(&Vector{Name: b.Fresh(name), Kind: PositionwiseVector, Expr: e})
}

// Attend adds name(i) := tb [m, score] value : def and returns its index.
func (b *Builder) Attend(name string, tb position.Tiebreak, m position.Mask, score, value, def Expr) int {
	return b.add(&Vector{Name: b.Fresh(name), Kind: AttentionVector,
		Att: &Attention{Tiebreak: tb, Mask: m, Score: score, Value: value, Default: def}})
}

// Name returns the name of vector k.
func (b *Builder) Name(k int) string { return b.prog.Vectors[k].Name }

// Len returns the number of vectors so far.
func (b *Builder) Len() int { return len(b.prog.Vectors) }

// I returns a reference to vector k at position i.
func (b *Builder) I(k int) *Ref { return &Ref{Name: b.prog.Vectors[k].Name, Var: VarI, Vec: k} }

// J returns a reference to vector k at position j.
func (b *Builder) J(k int) *Ref { return &Ref{Name: b.prog.Vectors[k].Name, Var: VarJ, Vec: k} }

// At returns a reference to vector k read at position v (I or J).
func (b *Builder) At(k int, v Var) *Ref {
	if v == VarJ {
		return b.J(k)
	}
	return b.I(k)
}

// SetAccept makes vector k the output of an acceptor.
func (b *Builder) SetAccept(k int) { b.accept, b.out = k, nil }

// SetTransducer makes the program a transducer: output symbol γ_k at a
// position where vector vecs[k] is 1.
func (b *Builder) SetTransducer(symbols alphabet.Alphabet, vecs []int) {
	b.out = &Output{Explicit: true, Accept: -1, Symbols: symbols, Vectors: append([]int(nil), vecs...)}
}

// Program checks and returns the built program. The builder must not be used
// afterwards. Without SetAccept, the output is the last operation.
func (b *Builder) Program() (*Program, error) {
	p := b.prog
	switch {
	case b.out != nil:
		p.Output = *b.out
	case b.accept >= 0:
		p.Output = Output{Accept: b.accept}
		p.Output.Explicit = b.accept != p.defaultOutput()
	default:
		p.Output = Output{Accept: p.defaultOutput()}
	}
	// Round-trip through the checker so that built programs obey exactly the
	// rules of parsed ones; this also validates references.
	if err := Validate(p); err != nil {
		return nil, err
	}
	return p, nil
}

// setOutputOf gives the program being built p's output (its acceptance
// vector, or its transducer outputs), with p's vector k now remap[k].
func (b *Builder) setOutputOf(p *Program, remap []int) {
	if !p.IsTransducer() {
		b.SetAccept(remap[p.Output.Accept])
		return
	}
	vecs := make([]int, len(p.Output.Vectors))
	for k, x := range p.Output.Vectors {
		vecs[k] = remap[x]
	}
	b.SetTransducer(p.Output.Symbols, vecs)
}
