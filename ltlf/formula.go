package ltlf

import (
	"fmt"
	"slices"
)

// Op is a formula's operator.
type Op uint8

// The operators. Next is Spot's X[!] (strong: there is a next step),
// WeakNext is Spot's X (weak: no next step, or it holds there).
const (
	True          Op = iota
	False            // false, 0
	Prop             // an atomic proposition (A is its index in Props)
	Not              // !φ
	And              // φ & ψ
	Or               // φ | ψ
	Implies          // φ -> ψ
	Equiv            // φ <-> ψ
	Xor              // φ xor ψ
	Next             // X[!] φ: strong next
	WeakNext         // X φ: weak next
	Finally          // F φ
	Globally         // G φ
	Until            // φ U ψ
	Release          // φ R ψ (weak release)
	WeakUntil        // φ W ψ
	StrongRelease    // φ M ψ
	Yesterday        // Y φ: strong yesterday
	WeakYesterday    // Z φ: weak yesterday (true at the first step)
	Once             // O φ
	Historically     // H φ
	Since            // φ S ψ
	numOps
)

var opNames = [numOps]string{"true", "false", "prop", "!", "&", "|", "->", "<->", "xor", "X[!]", "X", "F", "G",
	"U", "R", "W", "M", "Y", "Z", "O", "H", "S"}

func (o Op) String() string {
	if o < numOps {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", uint8(o))
}

// Arity is the number of operands: 0 for constants and propositions.
func (o Op) Arity() int {
	switch o {
	case True, False, Prop:
		return 0
	case Not, Next, WeakNext, Finally, Globally, Yesterday, WeakYesterday, Once, Historically:
		return 1
	}
	return 2
}

// Temporal reports whether o is a temporal (future or past) operator.
func (o Op) Temporal() bool { return o >= Next && o < numOps }

// Past reports whether o is a past operator.
func (o Op) Past() bool { return o >= Yesterday && o <= Since }

// Node is one node of a formula: an operator and its operands, indices of
// earlier nodes of the same Formula (for Prop, A is the proposition index).
type Node struct {
	Op   Op
	A, B int32
}

// Formula is an LTLf formula over named atomic propositions: a hash-consed
// DAG whose nodes come after their operands, so every pass over Nodes in
// order sees operands first.
type Formula struct {
	// Props are the atomic propositions, in declaration order (or order of
	// first occurrence when the source declares none). A trace gives a truth
	// value to each.
	Props []string
	// Nodes are the DAG's nodes, operands before the nodes that use them.
	Nodes []Node
	// Root is the index in Nodes of the whole formula.
	Root int32
	// EmptyTrace selects the semantics over all finite traces, the empty
	// one included (LTLf2DFA's convention; see EvalEmpty), instead of the
	// non-empty traces only. A `semantics empty_trace` line sets it.
	EmptyTrace bool

	index map[Node]int32
}

// NewFormula returns an empty formula over the given propositions; build its
// nodes with Mk and set Root.
func NewFormula(props []string) *Formula {
	return &Formula{Props: append([]string(nil), props...), index: map[Node]int32{}}
}

// Mk returns the node (op, a, b), adding it unless an equal node exists.
// Operands of arity-0 and arity-1 operators that are not used must be 0.
func (f *Formula) Mk(op Op, a, b int32) int32 {
	n := Node{op, a, b}
	if f.index == nil {
		f.index = make(map[Node]int32, len(f.Nodes))
		for i, m := range f.Nodes {
			f.index[m] = int32(i)
		}
	}
	if i, ok := f.index[n]; ok {
		return i
	}
	i := int32(len(f.Nodes))
	f.Nodes = append(f.Nodes, n)
	f.index[n] = i
	return i
}

// HasPast reports whether the formula uses a past operator.
func (f *Formula) HasPast() bool {
	for _, n := range f.Nodes {
		if n.Op.Past() {
			return true
		}
	}
	return false
}

// Size is the number of distinct subformulas (DAG nodes reachable from the
// root).
func (f *Formula) Size() int {
	seen := make([]bool, len(f.Nodes))
	var walk func(int32)
	count := 0
	walk = func(i int32) {
		if seen[i] {
			return
		}
		seen[i] = true
		count++
		n := f.Nodes[i]
		switch n.Op.Arity() {
		case 1:
			walk(n.A)
		case 2:
			walk(n.A)
			walk(n.B)
		}
	}
	walk(f.Root)
	return count
}

// support lists the propositions that subformula i reads, in increasing
// order of their indices.
func (f *Formula) support(i int32) []int32 {
	var out []int32
	for k, r := range f.reachableFrom(i) {
		if n := f.Nodes[k]; r && n.Op == Prop {
			out = append(out, n.A)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// WithProps returns f over the propositions props, which must include
// every proposition of f (in any order): a copy whose proposition nodes are
// renumbered.
func (f *Formula) WithProps(props []string) (*Formula, error) {
	index := make(map[string]int32, len(props))
	for i, p := range props {
		index[p] = int32(i)
	}
	g := NewFormula(props)
	g.EmptyTrace = f.EmptyTrace
	remap := make([]int32, len(f.Nodes))
	for i, n := range f.Nodes {
		switch n.Op.Arity() {
		case 0:
			if n.Op == Prop {
				j, ok := index[f.Props[n.A]]
				if !ok {
					return nil, fmt.Errorf("proposition %s missing", QuoteProp(f.Props[n.A]))
				}
				n.A = j
			}
		case 1:
			n.A = remap[n.A]
		case 2:
			n.A, n.B = remap[n.A], remap[n.B]
		}
		remap[i] = g.Mk(n.Op, n.A, n.B)
	}
	g.Root = remap[f.Root]
	return g, nil
}
