package ltl

import (
	"fmt"
	"math"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/brasp"
)

// Op is the operator at the root of a formula.
type Op uint8

// The operators. Since and Until are the paper's strict operators; the rest
// of the temporal operators have the conventional meanings listed in the
// package documentation.
const (
	OpFalse Op = iota
	OpTrue
	OpSymbol    // a letter of the alphabet
	OpPredicate // a position predicate
	OpNot
	OpAnd
	OpOr
	OpImplies
	OpIff
	OpSince         // φ since ψ, strict (paper)
	OpUntil         // φ until ψ, strict (paper)
	OpSinceNS       // φ S ψ, non-strict
	OpUntilNS       // φ U ψ, non-strict
	OpNext          // X φ, strong next
	OpWeakNext      // N φ, weak next
	OpYesterday     // Y φ, strong yesterday
	OpWeakYesterday // Z φ, weak yesterday
	OpEventually    // F φ
	OpGlobally      // G φ
	OpOnce          // O φ
	OpHistorically  // H φ
	numOps
)

// opInfo says how an operator is written and how many operands it takes.
var opInfo = [numOps]struct {
	token string
	arity int
}{
	OpFalse: {"false", 0}, OpTrue: {"true", 0}, OpSymbol: {"", 0}, OpPredicate: {"", 0},
	OpNot: {"!", 1}, OpAnd: {"&", 2}, OpOr: {"|", 2}, OpImplies: {"->", 2}, OpIff: {"<->", 2},
	OpSince: {"since", 2}, OpUntil: {"until", 2}, OpSinceNS: {"S", 2}, OpUntilNS: {"U", 2},
	OpNext: {"X", 1}, OpWeakNext: {"N", 1}, OpYesterday: {"Y", 1}, OpWeakYesterday: {"Z", 1},
	OpEventually: {"F", 1}, OpGlobally: {"G", 1}, OpOnce: {"O", 1}, OpHistorically: {"H", 1},
}

// String returns the operator's token as written in formulas.
func (op Op) String() string {
	if op < numOps && opInfo[op].token != "" {
		return opInfo[op].token
	}
	return fmt.Sprintf("Op(%d)", uint8(op))
}

// Arity is the number of operands the operator takes.
func (op Op) Arity() int { return opInfo[op].arity }

// IsTemporal reports whether op is a temporal operator (it adds one to the
// temporal depth).
func (op Op) IsTemporal() bool { return op >= OpSince && op < numOps }

// Formula is one node of a hash-consed formula DAG. Formulas are immutable and
// only made by a Pool; two formulas of the same pool are equivalent as syntax
// trees iff they are the same pointer.
type Formula struct {
	Op     Op
	Symbol int       // OpSymbol: index into the pool's alphabet
	Pred   Predicate // OpPredicate
	X, Y   *Formula  // operands: X for unary operators, X and Y for binary

	id    int    // creation number in the pool: operands come first
	depth int    // temporal depth
	tree  uint64 // tree size, saturating at math.MaxUint64
	pool  *Pool
}

// Pool makes and owns the formulas over one alphabet, sharing equal ones.
// Building formulas in a pool is not safe for concurrent use; the formulas
// themselves are immutable and may be read and evaluated concurrently.
type Pool struct {
	alpha alphabet.Alphabet
	nodes []*Formula
	index map[nodeKey]*Formula
}

type nodeKey struct {
	op   Op
	sym  int
	pred Predicate
	x, y int
}

// NewPool returns an empty pool for formulas over alpha.
func NewPool(alpha alphabet.Alphabet) *Pool {
	return &Pool{alpha: alpha, index: make(map[nodeKey]*Formula)}
}

// newPoolSized is NewPool with room for about n formulas (a parsed file
// makes about one per eight bytes), so that the index is not rehashed as
// it grows.
func newPoolSized(alpha alphabet.Alphabet, n int) *Pool {
	return &Pool{alpha: alpha, nodes: make([]*Formula, 0, n), index: make(map[nodeKey]*Formula, n)}
}

// Alphabet is the alphabet the pool's symbol atoms index into.
func (p *Pool) Alphabet() alphabet.Alphabet { return p.alpha }

// Len is the number of distinct formulas made so far.
func (p *Pool) Len() int { return len(p.nodes) }

// ID is the formula's creation number in its pool; operands have smaller IDs
// than the formulas built on them, so ID order is a topological order.
func (f *Formula) ID() int { return f.id }

// Pool is the pool that made f.
func (f *Formula) Pool() *Pool { return f.pool }

// Alphabet is the alphabet of f's pool.
func (f *Formula) Alphabet() alphabet.Alphabet { return f.pool.alpha }

// Depth is the temporal depth of f (§5.4): the largest number of nested
// temporal operators.
func (f *Formula) Depth() int { return f.depth }

// TreeSize is the number of nodes of f written out as a tree, without
// sharing; it saturates at math.MaxUint64.
func (f *Formula) TreeSize() uint64 { return f.tree }

// DAGSize is the number of distinct subformulas of f, f included.
func (f *Formula) DAGSize() int { return len(f.Nodes()) }

// Nodes returns the distinct subformulas of f in topological order, operands
// first and f last.
func (f *Formula) Nodes() []*Formula {
	seen := map[*Formula]bool{}
	var out []*Formula
	var stack []*Formula
	stack = append(stack, f)
	for len(stack) > 0 {
		g := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[g] {
			continue
		}
		seen[g] = true
		out = append(out, g)
		if g.X != nil {
			stack = append(stack, g.X)
		}
		if g.Y != nil {
			stack = append(stack, g.Y)
		}
	}
	sortByID(out)
	return out
}

func sortByID(fs []*Formula) {
	// IDs are distinct small integers: a counting pass is simplest.
	if len(fs) < 2 {
		return
	}
	maxID := 0
	for _, f := range fs {
		maxID = max(maxID, f.id)
	}
	slot := make([]*Formula, maxID+1)
	for _, f := range fs {
		slot[f.id] = f
	}
	k := 0
	for _, f := range slot {
		if f != nil {
			fs[k] = f
			k++
		}
	}
}

func addSat(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

// make returns the unique node for (op, sym, pred, x, y), creating it if
// needed. It does not simplify.
func (p *Pool) make(op Op, sym int, pred Predicate, x, y *Formula) *Formula {
	k := nodeKey{op: op, sym: sym, pred: pred, x: -1, y: -1}
	if x != nil {
		if x.pool != p {
			panic("ltl: operand from another pool")
		}
		k.x = x.id
	}
	if y != nil {
		if y.pool != p {
			panic("ltl: operand from another pool")
		}
		k.y = y.id
	}
	if f, ok := p.index[k]; ok {
		return f
	}
	f := &Formula{Op: op, Symbol: sym, Pred: pred, X: x, Y: y, id: len(p.nodes), tree: 1, pool: p}
	if x != nil {
		f.depth = x.depth
		f.tree = addSat(f.tree, x.tree)
	}
	if y != nil {
		f.depth = max(f.depth, y.depth)
		f.tree = addSat(f.tree, y.tree)
	}
	if op.IsTemporal() {
		f.depth++
	}
	p.nodes = append(p.nodes, f)
	p.index[k] = f
	return f
}

// Const returns the constant formula true or false.
func (p *Pool) Const(v bool) *Formula {
	if v {
		return p.make(OpTrue, 0, Predicate{}, nil, nil)
	}
	return p.make(OpFalse, 0, Predicate{}, nil, nil)
}

// True is the constant true.
func (p *Pool) True() *Formula { return p.Const(true) }

// False is the constant false.
func (p *Pool) False() *Formula { return p.Const(false) }

// Symbol returns the atom for symbol k of the alphabet (the paper's Q_σ).
// It panics if k is out of range: symbol indices come from the program, not
// from user text.
func (p *Pool) Symbol(k int) *Formula {
	if k < 0 || k >= len(p.alpha) {
		panic(fmt.Sprintf("ltl: symbol index %d out of range", k))
	}
	return p.make(OpSymbol, k, Predicate{}, nil, nil)
}

// Predicate returns the atom for a position predicate.
func (p *Pool) Predicate(pr Predicate) *Formula {
	if pr.Kind != brasp.Mod {
		pr.R, pr.M = 0, 0
	}
	return p.make(OpPredicate, 0, pr, nil, nil)
}

// Unary returns op x exactly as written, without simplification.
func (p *Pool) Unary(op Op, x *Formula) *Formula {
	if op.Arity() != 1 {
		panic("ltl: Unary with operator " + op.String())
	}
	return p.make(op, 0, Predicate{}, x, nil)
}

// Binary returns x op y exactly as written, without simplification.
func (p *Pool) Binary(op Op, x, y *Formula) *Formula {
	if op.Arity() != 2 {
		panic("ltl: Binary with operator " + op.String())
	}
	return p.make(op, 0, Predicate{}, x, y)
}
