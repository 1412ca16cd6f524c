package exact

import (
	"fmt"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/position"
)

// Summary codes, one byte per (right or left state, i-atom assignment).
const (
	none     byte = 0 // no position selected (yet)
	valFalse byte = 1 // the selected position's value is 0
	valTrue  byte = 2 // ... is 1
)

func code(v bool) byte {
	if v {
		return valTrue
	}
	return valFalse
}

// tableBlock is how many cells of a truth table are computed or copied
// between two charges to the budget.
const tableBlock = 1 << 12

// bimachine holds the truth tables of the vectors computed so far. A vector's
// value at position i of w = w_1…w_n is table[cell(ℓ_i, w_i, r_i)], where ℓ_i
// is the state of the left machine after reading w_1…w_{i-1} from the left
// and r_i the state of the right machine after reading w_n…w_{i+1} from the
// right; a state's transitions are its row of successors per letter.
type bimachine struct {
	sides[bool, []int]
	steps []step[bool]
}

// run performs step t: an attention operation refines a machine, a
// position-wise one computes its table cell by cell.
func (b *bimachine) run(t int) error {
	st := b.steps[t]
	if st.att != nil {
		return b.extend(st.att)
	}
	return b.positionwise(st.out, st.pw)
}

// minimize minimises both machines (sides.minimizeWith).
func (b *bimachine) minimize(live []int) error {
	return b.minimizeWith(live, &letterRows{sigma: b.width})
}

// chargeBlocks calls f on the consecutive ranges [lo, hi) of at most
// tableBlock of 0..n-1, charging each to the budget first: a table may have
// tens of millions of cells, and the budget's context is looked at between
// blocks.
func chargeBlocks(bud *budget.Budget, n int, f func(lo, hi int)) error {
	for lo := 0; lo < n; lo += tableBlock {
		hi := min(lo+tableBlock, n)
		if err := bud.Step(int64(1 + hi - lo)); err != nil {
			return err
		}
		f(lo, hi)
	}
	return nil
}

func (b *bimachine) cell(l, a, r int) int { return (l*b.width+a)*b.nR + r }

// compileExpr turns e into a closure over table indices (vector indices are
// table indices). References at i inside a score or value (idx non-nil) read
// the bits of alpha; every other reference reads its table.
func compileExpr(e brasp.Expr, idx map[int]int) cellFn[bool] {
	switch e := e.(type) {
	case *brasp.Literal:
		v := e.Value
		return func([][]bool, int, uint32) bool { return v }
	case *brasp.Ref:
		k := e.Vec
		if e.Var == brasp.VarI && idx != nil {
			bit := uint32(1) << idx[k]
			return func(_ [][]bool, _ int, a uint32) bool { return a&bit != 0 }
		}
		return func(t [][]bool, c int, _ uint32) bool { return t[k][c] }
	case *brasp.UnaryExpr:
		f := compileExpr(e.X, idx)
		return func(t [][]bool, c int, a uint32) bool { return !f(t, c, a) }
	case *brasp.BinaryExpr:
		f, g := compileExpr(e.X, idx), compileExpr(e.Y, idx)
		if e.Op == brasp.AND {
			return func(t [][]bool, c int, a uint32) bool { return f(t, c, a) && g(t, c, a) }
		}
		return func(t [][]bool, c int, a uint32) bool { return f(t, c, a) || g(t, c, a) }
	}
	panic("exact: unknown expression type")
}

// alphaAt is the assignment of the atoms at cell c.
func alphaAt(atoms []int, t [][]bool, c int) uint32 {
	var a uint32
	for k, x := range atoms {
		if t[x][c] {
			a |= 1 << k
		}
	}
	return a
}

// newBimachine sets up the initial machines (the left one counts positions
// modulo the MOD moduli and knows the first position, the right one knows
// the last) and the tables of the symbols and predicates, and compiles the
// operations into steps (see planSteps).
func newBimachine(bud *budget.Budget, p *brasp.Program) (*bimachine, []stepPlan, error) {
	sigma := len(p.Alphabet)
	modL, err := modulus(bud, p)
	if err != nil {
		return nil, nil, err
	}
	b := &bimachine{sides: sides[bool, []int]{width: sigma, nL: modL + 1, nR: 2, bud: bud}}
	// Left state 0: nothing read; state t ≥ 1: t ≡ positions read (mod modL).
	for l := 0; l <= modL; l++ {
		row := make([]int, sigma)
		for a := range row {
			row[a] = l%modL + 1
		}
		b.dL = append(b.dL, row)
	}
	// Right state 0: nothing read (the last position); 1: otherwise.
	for range 2 {
		row := make([]int, sigma)
		for a := range row {
			row[a] = 1
		}
		b.dR = append(b.dR, row)
	}
	plans, ntab, err := planSteps(bud, p)
	if err != nil {
		return nil, nil, err
	}
	b.steps = compileSteps(plans, compileExpr)
	b.tab = make([][]bool, ntab)
	for k, v := range p.Vectors {
		if !v.IsInitial() {
			continue
		}
		tab := make([]bool, b.nL*sigma*b.nR)
		for l := 0; l < b.nL; l++ {
			for a := 0; a < sigma; a++ {
				for r := 0; r < b.nR; r++ {
					var x bool
					switch {
					case v.Kind == brasp.SymbolVector:
						x = a == v.Symbol
					case v.Pred.Kind == brasp.First:
						x = l == 0
					case v.Pred.Kind == brasp.Last:
						x = r == 0
					default: // Mod: position l+1 (l ≡ positions read)
						x = (l+1)%v.Pred.M == v.Pred.R
					}
					tab[b.cell(l, a, r)] = x
				}
			}
		}
		b.tab[k] = tab
	}
	return b, plans, nil
}

// modulus is the least common multiple of the program's MOD moduli (1 when
// there is none): the period of the left machine's position counter.
func modulus(bud *budget.Budget, p *brasp.Program) (int, error) {
	modL := 1
	for _, v := range p.Vectors {
		if v.Kind == brasp.PredicateVector && v.Pred.Kind == brasp.Mod {
			l := lcm(modL, v.Pred.M)
			if err := bud.Check(maxModulus, int64(l), "the least common multiple of the MOD moduli"); err != nil {
				return 0, err
			}
			modL = l
		}
	}
	return modL, nil
}

// stepPlan is one operation of a program as both bimachine constructions
// (over letters, over propositions) run it: a position-wise computation of
// table out from expr, or a directed attention operation. Table indices
// are the program's vector indices, then hidden tables for the parts of
// unmasked attention.
type stepPlan struct {
	out  int
	expr brasp.Expr // position-wise: references are table reads at i
	att  *attnPlan
	uses []int // the tables the step reads
}

// attnPlan is a directed attention operation: forward ones (masks j<i,
// j<=i) refine the left machine, backward ones (j>i, j>=i) the right one.
// The score and value read the atoms (vectors at i, bit idx[k] of the
// atom assignment) and tables at j; the default reads tables at i.
type attnPlan struct {
	forward, strict, rightmost bool
	score, value, def          brasp.Expr
	idx                        map[int]int
	atoms                      []int
}

// planSteps lists the program's operations as steps. An unmasked operation
// becomes three directed ones and a position-wise choice: rightmost over
// all j is the rightmost j >= i if there is one, else the rightmost j < i;
// leftmost symmetrically. ntab is the number of tables, hidden ones
// included.
func planSteps(bud *budget.Budget, p *brasp.Program) (steps []stepPlan, ntab int, err error) {
	ntab = len(p.Vectors)
	hidden := func() int { ntab++; return ntab - 1 }
	refs := func(es ...brasp.Expr) []int {
		var ks []int
		for _, e := range es {
			for _, r := range brasp.Refs(e) {
				ks = append(ks, r.Vec)
			}
		}
		return ks
	}
	at := func(k int) brasp.Expr { return &brasp.Ref{Var: brasp.VarI, Vec: k} }
	for k, v := range p.Vectors {
		switch v.Kind {
		case brasp.PositionwiseVector:
			steps = append(steps, stepPlan{out: k, expr: v.Expr, uses: refs(v.Expr)})
		case brasp.AttentionVector:
			a := v.Att
			var atoms []int
			idx := map[int]int{}
			for _, e := range []brasp.Expr{a.Score, a.Value} {
				for _, r := range brasp.Refs(e) {
					if _, ok := idx[r.Vec]; r.Var == brasp.VarI && !ok {
						idx[r.Vec] = len(atoms)
						atoms = append(atoms, r.Vec)
					}
				}
			}
			if err := bud.Check(maxAtoms, int64(len(atoms)), fmt.Sprintf("attention operation %s, whose score and value read %d vectors at i,", v.Name, len(atoms))); err != nil {
				return nil, 0, err
			}
			uses := refs(a.Score, a.Value, a.Default)
			rm := a.Tiebreak == position.Rightmost
			mk := func(out int, forward, strict bool, value, def brasp.Expr) stepPlan {
				return stepPlan{out: out, uses: uses, att: &attnPlan{forward: forward, strict: strict, rightmost: rm,
					score: a.Score, value: value, def: def, idx: idx, atoms: atoms}}
			}
			switch a.Mask {
			case position.MaskFuture, position.MaskFutureOrSelf:
				steps = append(steps, mk(k, true, a.Mask == position.MaskFuture, a.Value, a.Default))
			case position.MaskPast, position.MaskPastOrSelf:
				steps = append(steps, mk(k, false, a.Mask == position.MaskPast, a.Value, a.Default))
			default:
				// near: the side the tie-break prefers, including i itself.
				found, near, far := hidden(), hidden(), hidden()
				// rightmost: near = j >= i (backward, non-strict), far = j < i;
				// leftmost: near = j <= i (forward, non-strict), far = j > i.
				steps = append(steps, mk(found, !rm, false, brasp.Bool(true), brasp.Bool(false)),
					mk(near, !rm, false, a.Value, brasp.Bool(false)), mk(far, rm, true, a.Value, a.Default))
				choice := brasp.Disjoin(brasp.Conjoin(at(found), at(near)), brasp.Conjoin(brasp.Not(at(found)), at(far)))
				steps = append(steps, stepPlan{out: k, expr: choice, uses: []int{found, near, far}})
			}
		}
	}
	return steps, ntab, nil
}

func lcm(a, b int) int {
	g, h := a, b
	for h != 0 {
		g, h = h, g%h
	}
	return a / g * b
}
