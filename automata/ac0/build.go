package ac0

import (
	"fmt"
	"strconv"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/position"
)

// reader reads a Boolean quantity at position i or j.
type reader func(v brasp.Var) brasp.Expr

// construction assembles the B-RASP[MOD] program (see the package
// documentation for the vectors and why they are correct).
type construction struct {
	b      *budget.Budget
	m      *automata.DFA
	im     *images
	block  *automata.DFA
	states []int          // block state → state of m
	kr     *brasp.Program // the block DFA's Krohn–Rhodes program (nil: one block state)
	meter  *budget.Meter

	pb   *brasp.Builder
	s    int
	prev []map[int]brasp.Expr // prev[p][e]: G<p>_e(i), H<p>_e at i−1 (p ≥ 1)
	h    [][]reader           // h[p-1][e]: H<p>_e, i ≡ p (mod s) and its block so far has image e
}

// positionwise adds name(i) := e with e's fan-in bounded.
func (c *construction) positionwise(name string, e brasp.Expr) (int, error) {
	e, err := c.bounded(e)
	if err != nil {
		return 0, err
	}
	return c.pb.Positionwise(name, e), nil
}

// attend adds name(i) := tb [m, score] value : def with the fan-in of each
// expression bounded.
func (c *construction) attend(name string, tb position.Tiebreak, m position.Mask, score, value, def brasp.Expr) (int, error) {
	var err error
	for _, e := range []*brasp.Expr{&score, &value, &def} {
		if *e, err = c.bounded(*e); err != nil {
			return 0, err
		}
	}
	return c.pb.Attend(name, tb, m, score, value, def), nil
}

// charge accounts for an expression of about nodes nodes.
func (c *construction) charge(nodes int) error {
	if err := c.b.Step(int64(nodes)); err != nil {
		return err
	}
	return c.meter.Add(int64(48 * nodes))
}

// mod reads MOD_r_s at v (true when s = 1).
func (c *construction) mod(r int, v brasp.Var) brasp.Expr {
	if c.s == 1 {
		return brasp.Bool(true)
	}
	k := c.pb.Predicate(brasp.Predicate{Kind: brasp.Mod, R: ((r % c.s) + c.s) % c.s, M: c.s})
	return c.ref(k, v)
}

func (c *construction) ref(k int, v brasp.Var) brasp.Expr {
	if v == brasp.VarJ {
		return c.pb.J(k)
	}
	return c.pb.I(k)
}

// symbolIn reads "the symbol is in letter class cl" at v.
func (c *construction) symbolIn(cl int, v brasp.Var) brasp.Expr {
	var qs []brasp.Expr
	for _, a := range c.im.classes[cl] {
		qs = append(qs, c.ref(c.pb.SymbolVec(a), v))
	}
	return brasp.Or(qs...)
}

// images builds H<p>_<e>(i), "i ≡ p (mod s) and the symbols of i's block
// up to i (the last p symbols) have image e", for p = 1..s:
//
//	H1_e(i)     := MOD_1_s(i) ∧ ⋁ over η(a) = e of Q_a(i)
//	G<p>_e(i)   := rightmost [j<i, 1] H<p>_e(j) : 0             (H<p>_e at i−1)
//	H<p+1>_f(i) := MOD_(p+1)_s(i) ∧ ⋁ over f = e·η(a) of G<p>_e(i) ∧ Q_a(i)
//
// A level with a single element e has H<p>_e = MOD_p_s and needs no G.
func (c *construction) images() error {
	c.h = make([][]reader, c.s)
	for p, lv := range c.im.levels {
		c.h[p] = make([]reader, len(lv.elems))
		residue := p + 1
		if len(lv.elems) == 1 {
			c.h[p][0] = func(v brasp.Var) brasp.Expr { return c.mod(residue, v) }
			continue
		}
		for f, splits := range lv.splits {
			var x brasp.Expr
			if p == 0 {
				x = c.symbolIn(splits[0].class, brasp.VarI)
			} else {
				byRest := map[int][]int{}
				var order []int
				for _, sp := range splits {
					if _, ok := byRest[sp.rest]; !ok {
						order = append(order, sp.rest)
					}
					byRest[sp.rest] = append(byRest[sp.rest], sp.class)
				}
				var terms []brasp.Expr
				for _, e := range order {
					prev, err := c.previous(p, e)
					if err != nil {
						return err
					}
					if classes := byRest[e]; len(classes) < len(c.im.classes) {
						var syms []brasp.Expr
						for _, cl := range classes {
							syms = append(syms, c.symbolIn(cl, brasp.VarI))
						}
						prev = brasp.And(prev, brasp.Or(syms...))
					}
					terms = append(terms, prev)
				}
				x = brasp.Or(terms...)
			}
			if err := c.charge(3*len(splits) + 2); err != nil {
				return err
			}
			k, err := c.positionwise("H"+strconv.Itoa(p+1)+"_"+strconv.Itoa(f), brasp.And(c.mod(residue, brasp.VarI), x))
			if err != nil {
				return err
			}
			c.h[p][f] = func(v brasp.Var) brasp.Expr { return c.ref(k, v) }
		}
	}
	return nil
}

// previous returns G<p>_e(i) := rightmost [j<i, 1] H<p>_e(j) : 0, the value
// of H<p>_e at i−1 (p is the 0-based level of e).
func (c *construction) previous(p, e int) (brasp.Expr, error) {
	if x, ok := c.prev[p][e]; ok {
		return x, nil
	}
	if err := c.charge(4); err != nil {
		return nil, err
	}
	k, err := c.attend("G"+strconv.Itoa(p)+"_"+strconv.Itoa(e), position.Rightmost, position.MaskFuture,
		brasp.Bool(true), c.h[p-1][e](brasp.VarJ), brasp.Bool(false))
	if err != nil {
		return nil, err
	}
	x := c.pb.I(k)
	c.prev[p][e] = x
	return x, nil
}

// translate copies an expression of the block program, reading each of its
// vectors through read.
func translate(e brasp.Expr, read []reader) brasp.Expr {
	return brasp.MapRefs(e, func(r *brasp.Ref) brasp.Expr { return read[r.Vec](r.Var) })
}

// blockProgram embeds the block DFA's program at the block ends: its
// symbol Q_t becomes H<s>_t, its position-wise operations are copied, and
// each attention operation's score gains the conjunct MOD_0_s(j), so that
// it reads exactly the block ends before i. It returns the readers of the
// block states before each block end (A_x of the cascade program).
func (c *construction) blockProgram() ([]reader, error) {
	n := c.block.NumStates()
	stateAt := make([]reader, n)
	if c.kr == nil {
		stateAt[0] = func(brasp.Var) brasp.Expr { return brasp.Bool(true) }
		return stateAt, nil
	}
	read := make([]reader, len(c.kr.Vectors))
	for k, v := range c.kr.Vectors {
		if k == c.kr.Output.Accept {
			continue // the block DFA's acceptance is not used
		}
		name := "B" + v.Name
		switch v.Kind {
		case brasp.SymbolVector:
			read[k] = c.h[c.s-1][v.Symbol]
			continue
		case brasp.PositionwiseVector:
			if err := c.charge(exprSize(v.Expr)); err != nil {
				return nil, err
			}
			x, err := c.positionwise(name, translate(v.Expr, read))
			if err != nil {
				return nil, err
			}
			read[k] = func(v brasp.Var) brasp.Expr { return c.ref(x, v) }
		case brasp.AttentionVector:
			a := v.Att
			if a.Mask != position.MaskFuture && a.Mask != position.MaskFutureOrSelf {
				return nil, fmt.Errorf("internal error: the block program's %s is not future-masked", v.Name)
			}
			if err := c.charge(exprSize(a.Score) + exprSize(a.Value) + exprSize(a.Default) + 2); err != nil {
				return nil, err
			}
			x, err := c.attend(name, a.Tiebreak, a.Mask,
				brasp.And(c.mod(0, brasp.VarJ), translate(a.Score, read)),
				translate(a.Value, read), translate(a.Default, read))
			if err != nil {
				return nil, err
			}
			read[k] = func(v brasp.Var) brasp.Expr { return c.ref(x, v) }
		default:
			return nil, fmt.Errorf("internal error: the block program has position predicate %s", v.Name)
		}
	}
	for x := range n {
		k := c.kr.Lookup("A_" + c.block.States[x])
		if k < 0 || read[k] == nil {
			return nil, fmt.Errorf("internal error: the block program has no vector for block state %s", c.block.States[x])
		}
		stateAt[x] = read[k]
	}
	return stateAt, nil
}

func exprSize(e brasp.Expr) int {
	n := 0
	brasp.Walk(e, func(brasp.Expr) { n++ })
	return n
}

// stateName names the block state x after its state in m.
func (c *construction) stateName(x int) string {
	q := c.states[x]
	if name := c.m.States[q]; alphabet.IsBare(name) {
		return name
	}
	return strconv.Itoa(q)
}

// build assembles the whole program.
func (c *construction) build() (*brasp.Program, error) {
	c.pb = brasp.NewBuilder(c.m.Alphabet)
	c.s = c.im.s
	c.prev = make([]map[int]brasp.Expr, c.s)
	for p := range c.prev {
		c.prev[p] = map[int]brasp.Expr{}
	}
	if err := c.images(); err != nil {
		return nil, err
	}
	before, err := c.blockProgram()
	if err != nil {
		return nil, err
	}
	ts := c.im.levels[c.s-1]
	n := c.block.NumStates()
	// S_x(i): after the block ending at i the DFA is in state x.
	after := make([]reader, n)
	into := make([]map[int][]int, n) // into[x][y]: the block letters taking y to x
	for x := range into {
		into[x] = map[int][]int{}
	}
	for y := range n {
		for t := range ts.elems {
			x := c.block.Delta[y][t]
			into[x][y] = append(into[x][y], t)
		}
	}
	for x := range n {
		var terms []brasp.Expr
		for y := range n {
			letters := into[x][y]
			if len(letters) == 0 {
				continue
			}
			term := before[y](brasp.VarI)
			if len(letters) < len(ts.elems) {
				var ts []brasp.Expr
				for _, t := range letters {
					ts = append(ts, c.h[c.s-1][t](brasp.VarI))
				}
				term = brasp.And(term, brasp.Or(ts...))
			}
			terms = append(terms, term)
		}
		if err := c.charge(4 * len(terms)); err != nil {
			return nil, err
		}
		k, err := c.positionwise("S_"+c.stateName(x), brasp.Or(terms...))
		if err != nil {
			return nil, err
		}
		after[x] = func(v brasp.Var) brasp.Expr { return c.ref(k, v) }
	}
	// Accept at the last position i ≡ r (mod s): r = 0 reads S_x(i); r > 0
	// reads the state after the last complete block (P_x) and the image of
	// the r symbols after it (H<r>).
	var accept []brasp.Expr
	var final []brasp.Expr
	for x := range n {
		if c.m.Accept[c.states[x]] {
			final = append(final, after[x](brasp.VarI))
		}
	}
	accept = append(accept, brasp.And(c.mod(0, brasp.VarI), brasp.Or(final...)))
	if c.s > 1 {
		prev := make([]brasp.Expr, n)
		for x := range n {
			k, err := c.attend("P_"+c.stateName(x), position.Rightmost, position.MaskFuture,
				c.mod(0, brasp.VarJ), after[x](brasp.VarJ), brasp.Bool(x == 0))
			if err != nil {
				return nil, err
			}
			prev[x] = c.pb.I(k)
		}
		for r := 1; r < c.s; r++ {
			lv := c.im.levels[r-1]
			var terms []brasp.Expr
			for x := range n {
				q := c.states[x]
				var imgs []brasp.Expr
				for e, t := range lv.elems {
					if c.m.Accept[t[q]] {
						imgs = append(imgs, c.h[r-1][e](brasp.VarI))
					}
				}
				if len(imgs) == 0 {
					continue
				}
				if len(imgs) == len(lv.elems) {
					terms = append(terms, prev[x])
				} else {
					terms = append(terms, brasp.And(prev[x], brasp.Or(imgs...)))
				}
			}
			if err := c.charge(4*len(terms) + 2); err != nil {
				return nil, err
			}
			accept = append(accept, brasp.And(c.mod(r, brasp.VarI), brasp.Or(terms...)))
		}
	}
	y, err := c.positionwise("Y", brasp.Or(accept...))
	if err != nil {
		return nil, err
	}
	c.pb.SetAccept(y)
	p, err := c.pb.Program()
	if err != nil {
		return nil, fmt.Errorf("internal error: %w", err)
	}
	return brasp.Simplify(p), nil
}
