package brasp

import (
	"fmt"

	"github.com/brasp-dev/brasp/position"
)

// Trace holds the value of every vector of a program at every position of
// one input word: the paper's Figure-2 table. Values are stored as bitsets,
// 64 positions per word.
type Trace struct {
	// Prog is the program that produced the trace.
	Prog *Program
	// Word is the input, as symbol indices (nil for a trace of steps or of
	// Bytes).
	Word []int
	// Bytes is the input of RunBytes: a symbol index per byte, for words
	// over at most 256 symbols stored compactly (nil otherwise).
	Bytes []byte
	// Steps is the input of a program over propositions: Steps[i] is the set
	// of propositions true at position i, bit p%64 of Steps[i][p/64] for
	// proposition p (nil for a word of symbols).
	Steps [][]uint64
	// Compact is the input of a program over propositions stored
	// compactly (RunCompact; nil otherwise).
	Compact *CompactSteps
	// Bits[v] is vector v as a bitset: bit i%64 of Bits[v][i/64] is position i.
	Bits [][]uint64
}

// N returns the length of the input word.
func (t *Trace) N() int { return max(len(t.Word), len(t.Steps), len(t.Bytes), t.Compact.Len()) }

// Symbol returns the index of the input symbol at position i, from Word or
// Bytes (-1 for a trace of steps).
func (t *Trace) Symbol(i int) int {
	switch {
	case t.Word != nil:
		return t.Word[i]
	case t.Bytes != nil:
		return int(t.Bytes[i])
	}
	return -1
}

// Value returns vector v at 0-based position i.
func (t *Trace) Value(v, i int) bool { return t.Bits[v][i>>6]>>(uint(i)&63)&1 == 1 }

// Vector returns vector v as a slice of Booleans.
func (t *Trace) Vector(v int) []bool {
	out := make([]bool, t.N())
	for i := range out {
		out[i] = t.Value(v, i)
	}
	return out
}

// Accept reports whether the program accepts the word: its output vector is 1
// at the last position. The empty word is never accepted (B-RASP reads Σ⁺).
func (t *Trace) Accept() bool {
	n := t.N()
	if n == 0 || t.Prog.IsTransducer() {
		return false
	}
	return t.Value(t.Prog.Output.Accept, n-1)
}

// Transduce returns the output word of a transducer: at each position, the
// output symbol whose vector is 1 there. Exactly one must be 1; otherwise the
// error names the position and the symbols.
func (t *Trace) Transduce() ([]int, error) {
	p := t.Prog
	if !p.IsTransducer() {
		return nil, fmt.Errorf("the program is an acceptor, not a transducer")
	}
	out := make([]int, t.N())
	for i := range out {
		out[i] = -1
		for k, v := range p.Output.Vectors {
			if !t.Value(v, i) {
				continue
			}
			if out[i] >= 0 {
				return nil, fmt.Errorf("position %d: output vectors %s and %s are both 1", i+1,
					p.Vectors[p.Output.Vectors[out[i]]].Name, p.Vectors[v].Name)
			}
			out[i] = k
		}
		if out[i] < 0 {
			return nil, fmt.Errorf("position %d: no output vector is 1", i+1)
		}
	}
	return out, nil
}

func newTrace(p *Program, w []int, steps [][]uint64) *Trace {
	t := newTraceLen(p, max(len(w), len(steps)))
	t.Word, t.Steps = w, steps
	return t
}

// newTraceLen returns a trace of p with room for n positions and no input.
func newTraceLen(p *Program, n int) *Trace {
	words := (n + 63) / 64
	backing := make([]uint64, words*len(p.Vectors))
	t := &Trace{Prog: p, Bits: make([][]uint64, len(p.Vectors))}
	for v := range t.Bits {
		t.Bits[v] = backing[v*words : (v+1)*words : (v+1)*words]
	}
	return t
}

func (t *Trace) set(v, i int, b bool) {
	if b {
		t.Bits[v][i>>6] |= 1 << (uint(i) & 63)
	}
}

// RunReference runs p on w by the paper's definition, literally: for each
// position i of each attention operation it scans every j. It is O(n²) per
// attention operation and serves as the executable specification that the
// fast interpreter is tested against. Symbols of w must be valid indices.
func (p *Program) RunReference(w []int) *Trace { return p.runReference(newTrace(p, w, nil)) }

func (p *Program) runReference(t *Trace) *Trace {
	n := t.N()
	for k, v := range p.Vectors {
		for i := 0; i < n; i++ {
			t.set(k, i, p.valueAt(t, v, i))
		}
	}
	return t
}

func (p *Program) valueAt(t *Trace, v *Vector, i int) bool {
	n := t.N()
	at := func(j int) func(int, Var) bool {
		return func(vec int, x Var) bool {
			if x == VarJ {
				return t.Value(vec, j)
			}
			return t.Value(vec, i)
		}
	}
	switch v.Kind {
	case SymbolVector:
		return t.Word != nil && t.Word[i] == v.Symbol
	case PropositionVector:
		if t.Compact != nil {
			return StepHas(t.Compact.At(i), v.Prop)
		}
		return t.Steps != nil && StepHas(t.Steps[i], v.Prop)
	case PredicateVector:
		return v.Pred.Holds(i+1, n)
	case PositionwiseVector:
		return Eval(v.Expr, at(i))
	}
	a := v.Att
	chosen := -1
	for j := 0; j < n; j++ {
		if a.Mask.Allows(i, j) && Eval(a.Score, at(j)) {
			if a.Tiebreak == position.Leftmost {
				chosen = j
				break
			}
			chosen = j
		}
	}
	if chosen < 0 {
		return Eval(a.Default, at(i))
	}
	return Eval(a.Value, at(chosen))
}

// Run runs p on w with the fast interpreter (linear in len(w)).
func (p *Program) Run(w []int) *Trace { return p.runFast(w) }

// Accepts reports whether p accepts w.
func (p *Program) Accepts(w []int) bool { return p.Run(w).Accept() }

// Transduce runs a transducer on w and returns its output word.
func (p *Program) Transduce(w []int) ([]int, error) { return p.Run(w).Transduce() }
