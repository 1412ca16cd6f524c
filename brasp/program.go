package brasp

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/position"
)

// Program is a checked B-RASP program: the central type of this package.
// Every vector has a unique name and an index in Vectors; every reference in
// every expression is resolved to an earlier vector. Programs come from Parse
// (source text) or from a Builder (converters).
type Program struct {
	// File is the source file name used in error messages ("" if built).
	File string
	// Alphabet is the input alphabet Σ, in the order of the Q_σ declarations
	// (empty in a program over propositions).
	Alphabet alphabet.Alphabet
	// Props are the atomic propositions of a program over propositions, in
	// the order of its propositions line (nil in a program over symbols).
	// Such a program reads traces, each position a set of true
	// propositions, through the initial vectors P_p (see propositions.go).
	Props []string
	// Vectors lists every Boolean vector in definition order: the initial
	// vectors (Q_σ and position predicates) and the computed ones.
	Vectors []*Vector
	// Output says how the program accepts or transduces.
	Output Output
}

// VectorKind says how a vector gets its values.
type VectorKind uint8

// The kinds of vectors.
const (
	SymbolVector       VectorKind = iota // initial Q_σ(i): the input symbol at i is σ
	PredicateVector                      // initial position predicate (first, last, MOD_r_m, Mid, PERIODIC_u_v)
	PositionwiseVector                   // P(i) := R(i)
	AttentionVector                      // P(i) := leftmost/rightmost [M, S] V : D
	PropositionVector                    // initial P_p(i): proposition p is true at i
)

func (k VectorKind) String() string {
	return [...]string{"symbol", "predicate", "position-wise", "attention", "proposition"}[k]
}

// Vector is one Boolean vector of a program.
type Vector struct {
	Name    string
	NamePos Pos
	Kind    VectorKind
	Symbol  int        // SymbolVector: index into Program.Alphabet
	Prop    int        // PropositionVector: index into Program.Props
	Pred    Predicate  // PredicateVector
	Expr    Expr       // PositionwiseVector: R(i), which reads only position i
	Att     *Attention // AttentionVector
}

// IsInitial reports whether v is an input vector (symbol, proposition or
// position predicate) rather than a computed one.
func (v *Vector) IsInitial() bool {
	return v.Kind == SymbolVector || v.Kind == PredicateVector || v.Kind == PropositionVector
}

// PredKind names a position predicate.
type PredKind uint8

// The position predicates of §5.3. Positions are 1-based as in the paper.
const (
	First    PredKind = iota // i = 1
	Last                     // i = n
	Mod                      // i ≡ R (mod M)
	Mid                      // n is odd and i = ⌈n/2⌉ (not regular)
	Periodic                 // an eventually periodic table (position.Periodic): PERIODIC_<prefix>_<period>
)

// Predicate is a position predicate usable as an initial vector.
type Predicate struct {
	Kind  PredKind
	R, M  int               // Mod only: 0 ≤ R < M
	Table position.Periodic // Periodic only
}

// Name is the predicate's vector name: first, last, MOD_r_m, Mid or
// PERIODIC_<prefix>_<period>.
func (p Predicate) Name() string {
	switch p.Kind {
	case Periodic:
		return p.Table.Name()
	case First:
		return "first"
	case Last:
		return "last"
	case Mod:
		return fmt.Sprintf("MOD_%d_%d", p.R, p.M)
	}
	return "Mid"
}

// Holds reports whether the predicate is true at 1-based position i of a word
// of length n.
func (p Predicate) Holds(i, n int) bool {
	switch p.Kind {
	case First:
		return i == 1
	case Last:
		return i == n
	case Mod:
		return i%p.M == p.R
	case Periodic:
		return p.Table.Holds(i)
	}
	return n%2 == 1 && i == (n+1)/2
}

// ParsePredicate recognises the name of a position predicate: first, last,
// Mid, MOD_r_m with 0 ≤ r < m, or a well-formed PERIODIC_<prefix>_<period>.
func ParsePredicate(name string) (Predicate, bool) {
	if t, ok, msg := position.ParsePeriodic(name); ok {
		return Predicate{Kind: Periodic, Table: t}, msg == ""
	}
	switch name {
	case "first":
		return Predicate{Kind: First}, true
	case "last":
		return Predicate{Kind: Last}, true
	case "Mid":
		return Predicate{Kind: Mid}, true
	}
	rest, ok := strings.CutPrefix(name, "MOD_")
	if !ok {
		return Predicate{}, false
	}
	rs, ms, ok := strings.Cut(rest, "_")
	if !ok {
		return Predicate{}, false
	}
	r, err1 := strconv.Atoi(rs)
	m, err2 := strconv.Atoi(ms)
	if err1 != nil || err2 != nil || m < 1 || r < 0 || r >= m || m > 1<<20 ||
		strconv.Itoa(r) != rs || strconv.Itoa(m) != ms {
		return Predicate{}, false
	}
	return Predicate{Kind: Mod, R: r, M: m}, true
}

// Attention is the right-hand side of an attention operation:
//
//	P(i) := Tiebreak [Mask, Score] Value : Default
//
// For each i, j_i is the leftmost or rightmost j with Mask(i,j) and
// Score(i,j); P(i) is Value(i, j_i) if j_i exists and Default(i) otherwise.
type Attention struct {
	TiebreakPos Pos
	Tiebreak    position.Tiebreak
	MaskPos     Pos
	Mask        position.Mask
	Score       Expr
	Value       Expr
	Default     Expr
}

// Output designates how a program maps words to answers: an acceptor reads
// vector Accept at the last position; a transducer (Symbols non-nil) outputs
// at each position the symbol γ whose vector Vectors[γ] is 1 there.
type Output struct {
	Pos      Pos
	Explicit bool // written as an output line rather than the default
	Accept   int  // acceptor: index of the output vector
	Symbols  alphabet.Alphabet
	Vectors  []int
}

// IsTransducer reports whether the program computes an output word rather
// than accepting or rejecting.
func (p *Program) IsTransducer() bool { return p.Output.Symbols != nil }

// Lookup returns the index of the vector named name, or -1.
func (p *Program) Lookup(name string) int {
	for k, v := range p.Vectors {
		if v.Name == name {
			return k
		}
	}
	return -1
}

// SymbolVectorName is the name of the initial vector of symbol s: Q_s.
func SymbolVectorName(s string) string { return "Q_" + s }

// PropositionVectorName is the name of the initial vector of proposition p:
// P_p.
func PropositionVectorName(p string) string { return "P_" + p }
