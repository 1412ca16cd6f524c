package compile

import (
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/position"
	"github.com/brasp-dev/brasp/transformer"
)

// DefaultMaxFFNInputs is the default limit on the number of residual
// coordinates one compiled Boolean function may read.
const DefaultMaxFFNInputs = 20

// ErrFFNInputs is wrapped by the error Compile returns when a Boolean
// function it would tabulate reads more than Options.MaxFFNInputs
// coordinates: the full-DNF FFN of Thm 4.1's proof is exponential in them.
var ErrFFNInputs = errors.New("the FFN input limit (MaxFFNInputs) was exceeded")

// ffnLimitError describes one function over the limit and wraps ErrFFNInputs.
type ffnLimitError struct{ msg string }

func (e *ffnLimitError) Error() string { return e.msg }
func (e *ffnLimitError) Unwrap() error { return ErrFFNInputs }

// Options selects the construction used by Compile.
type Options struct {
	// MultiHead selects the depth-preserving construction of Thm C.4: one
	// layer per attention depth of the output, one head per live attention
	// operation of that depth, FFNs fused; dead operations are dropped.
	// Otherwise Compile follows the sequential construction of Thm 4.1: one
	// layer per position-wise operation and two per attention operation.
	MultiHead bool
	// LayerNorm encodes every truth value as a pair of coordinates, (1,0)
	// for true and (0,1) for false (§4.3), and adds layer norms after every
	// residual; the encoding keeps the mean and variance of every activation
	// constant, so the norms are set to compute the identity.
	LayerNorm bool
	// MaxFFNInputs bounds the number of coordinates a Boolean function
	// computed by an FFN may read: the compiler tabulates it (2^MaxFFNInputs
	// rows) and its DNF may have as many hidden units (DefaultMaxFFNInputs
	// if 0).
	MaxFFNInputs int
}

// Variants lists the four constructions Compile offers: sequential or
// multi-head, each without and with layer norm.
var Variants = []Options{
	{},
	{MultiHead: true},
	{LayerNorm: true},
	{MultiHead: true, LayerNorm: true},
}

// String names the construction: "sequential" or "multihead", with
// "+layernorm" when LayerNorm is set (MaxFFNInputs is not part of the name).
func (o Options) String() string {
	s := "sequential"
	if o.MultiHead {
		s = "multihead"
	}
	if o.LayerNorm {
		s += "+layernorm"
	}
	return s
}

// Compile translates an acceptor B-RASP program into a transformer that
// accepts exactly the same words (Thm 4.1, or Thm C.4 with
// opts.MultiHead). Position predicates become position embeddings: first,
// last and Mid as finite-image predicate terms, MOD_r_m as a rational
// sinusoid of frequency 1/m from which an FFN computes the predicate exactly
// (the construction of Cor. 5.4). A transducer compiles to a model with a
// Transduction output layer reading its output vectors Y_γ (±1/2 each).
//
// Each attention operation P(i) := tb [M, S] V : D becomes one head with
// mask M and tie-break tb whose score is Σ_g α_g(i)·β_g(j) = S(i,j) ∈ {0,1}
// (S in DNF split into its i part and j part, Thm 4.1), and whose value
// copies the vectors S and V read at j plus the default flag. The FFN after
// the head computes P(i) = (attended ∧ S(i,j_i)) ? V(i,j_i) : D(i), which
// is correct because the head attends to a position with S = 1 whenever one
// is unmasked. This makes value functions linear in x_j without first
// rewriting V with Prop. B.1.
//
// The model is built within the budget: its scalar parameters, counted on
// the abstract layers before any matrix is allocated, must fit within
// compile-params (a dense d×d score and value matrix per head make a long
// chain of attention operations quadratic in its length).
func Compile(b *budget.Budget, p *brasp.Program, opts Options) (*transformer.Model, error) {
	if opts.MaxFFNInputs <= 0 {
		opts.MaxFFNInputs = DefaultMaxFFNInputs
	}
	// Eventually periodic table predicates become MOD predicates and
	// attention (brasp.LowerPeriodic), so their positions are read from
	// rational sinusoids like MOD_r_m's.
	p, err := brasp.LowerPeriodic(p)
	if err != nil {
		return nil, fmt.Errorf("compile: %w", err)
	}
	c := &compiler{p: p, opts: opts, avail: map[int]slot{}}
	if err := c.run(); err != nil {
		return nil, fmt.Errorf("compile: %w", err)
	}
	if err := b.Check(maxParams, c.params(), fmt.Sprintf("compile: the model (width %d, %d layers)", len(c.labels), len(c.layers))); err != nil {
		return nil, err
	}
	return c.model(), nil
}

// maxParams bounds the size of a compiled model.
var maxParams = budget.Define("compile-params", 1<<23, "parameters",
	"scalar parameters of a compiled transformer (each an exact rational of at least 64 bytes), checked before the model is allocated")

// params is the number of scalar parameters model will allocate
// (transformer.Model.NumParams of the result), from the abstract layers.
func (c *compiler) params() int64 {
	d := int64(len(c.labels))
	n := int64(len(c.p.Alphabet))*d + int64(len(c.posTerms))
	if c.p.IsTransducer() {
		n += int64(len(c.p.Output.Symbols)) * (d + 1)
	} else {
		n += d + 1
	}
	for _, al := range c.layers {
		n += int64(len(al.heads)) * 2 * d * d
		if len(al.units) > 0 || len(al.bias) > 0 {
			h := int64(len(al.units))
			n += 2*h*d + h + d
		}
		if c.opts.LayerNorm {
			n += 2*d + 1
			if !al.noAttentionNorm {
				n += 2*d + 1
			}
		}
	}
	return n
}

// slot is the residual coordinate(s) holding one truth value: pos holds
// the value; with layer norm, neg holds its complement (else -1).
type slot struct{ pos, neg int }

// boolFn is a Boolean function of the residual stream at one position; get
// reads a coordinate that holds 0 or 1. Implementations evaluate every
// subexpression (no short-circuit), so that one call with a recording get
// finds the function's support.
type boolFn func(get func(coord int) bool) bool

// target is one Boolean function an FFN writes into a fresh slot.
type target struct {
	dst  slot
	fn   boolFn
	name string
}

// unit is one hidden ReLU unit: ReLU(Σ in + bias), added with weight
// outW to each out coordinate.
type unit struct {
	in        map[int]int64
	bias      int64
	out       map[int]*big.Rat
	weights   map[int]*big.Rat // non-integer input weights (MOD units)
	exactBias *big.Rat         // non-integer bias (MOD units), overrides bias
}

type absHead struct {
	mask     position.Mask
	tiebreak position.Tiebreak
	score    [][2]int     // (query coord, key coord) entries equal to 1
	value    []valueEntry // value[dst][src] = coef
}

type valueEntry struct {
	dst, src int
	coef     int64
}

type absLayer struct {
	noAttentionNorm bool // the layer's input is not yet in pair encoding
	heads           []absHead
	units           []unit
	bias            map[int]*big.Rat // constant FFN outputs (B2)
}

// headInfo is what the FFN after a head needs to evaluate its result.
type headInfo struct {
	flag   slot
	copies map[int]slot // vector index → slot holding its value at j_i
}

type compiler struct {
	p     *brasp.Program
	opts  Options
	avail map[int]slot // vectors held in a slot and available to the current stage

	labels    []string
	symbolOf  map[int]int  // coord → symbol whose embedding sets it
	initTrue  map[int]bool // slots whose initial value is 1 for every symbol
	posTerms  []transformer.PositionTerm
	posCoords map[int]bool // coords written only by position terms
	one       slot
	embedding map[int][]bool // stage-0 functions folded into the word embedding: coord → value per symbol
	layers    []absLayer
	cur       map[int]*headInfo // heads of the layer whose FFN is being built
	pending   map[int]slot      // slots the FFN being built will fill
}

func (c *compiler) newCoord(label string) int {
	c.labels = append(c.labels, label)
	return len(c.labels) - 1
}

func (c *compiler) newSlot(label string) slot {
	s := slot{pos: c.newCoord(label), neg: -1}
	if c.opts.LayerNorm {
		s.neg = c.newCoord("!" + label)
	}
	return s
}

func (c *compiler) run() error {
	p := c.p
	c.symbolOf = map[int]int{}
	c.initTrue = map[int]bool{}
	c.posCoords = map[int]bool{}
	c.embedding = map[int][]bool{}
	c.one = c.newSlot("one")
	c.initTrue[c.one.pos] = true
	for k, v := range p.Vectors {
		if v.Kind == brasp.SymbolVector {
			s := c.newSlot(v.Name)
			c.symbolOf[s.pos] = v.Symbol
			c.avail[k] = s
		}
	}
	var modTargets []modTarget
	live := p.Live()
	for k, v := range p.Vectors {
		if v.Kind != brasp.PredicateVector || (c.opts.MultiHead && !live[k]) {
			continue
		}
		s := c.newSlot(v.Name)
		switch v.Pred.Kind {
		case brasp.First, brasp.Last, brasp.Mid:
			kind := map[brasp.PredKind]transformer.PositionKind{brasp.First: transformer.PosFirst, brasp.Last: transformer.PosLast, brasp.Mid: transformer.PosMid}[v.Pred.Kind]
			c.posTerms = append(c.posTerms, transformer.PositionTerm{Kind: kind, Coord: s.pos, Scale: big.NewRat(1, 1)})
			c.posCoords[s.pos] = true
			if s.neg >= 0 {
				c.posTerms = append(c.posTerms, transformer.PositionTerm{Kind: kind, Negated: true, Coord: s.neg, Scale: big.NewRat(1, 1)})
				c.posCoords[s.neg] = true
			}
		case brasp.Mod:
			if v.Pred.M == 1 {
				c.initTrue[s.pos] = true // i ≡ 0 (mod 1) always holds
			} else {
				modTargets = append(modTargets, modTarget{dst: s, r: v.Pred.R, m: v.Pred.M, name: v.Name})
			}
		default:
			return fmt.Errorf("%s: unknown position predicate", v.Name)
		}
		c.avail[k] = s
	}
	if len(modTargets) > 0 {
		if err := c.modLayer(modTargets); err != nil {
			return err
		}
	}
	var err error
	if c.opts.MultiHead {
		err = c.multiHead()
	} else {
		err = c.sequential()
	}
	if err != nil {
		return err
	}
	for _, k := range outputVectors(p) {
		if _, ok := c.avail[k]; !ok {
			return fmt.Errorf("internal error: output vector %s was not computed", p.Vectors[k].Name)
		}
	}
	return nil
}

// sequential is the construction of Thm 4.1.
func (c *compiler) sequential() error {
	for k, v := range c.p.Vectors {
		switch v.Kind {
		case brasp.PositionwiseVector:
			s := c.newSlot(v.Name)
			if err := c.emitLayer(nil, []target{{s, c.exprFn(v.Expr, nil), v.Name}}); err != nil {
				return err
			}
			c.avail[k] = s
		case brasp.AttentionVector:
			head, info, prep, err := c.prepareHead(k)
			if err != nil {
				return err
			}
			if err := c.emitLayer(nil, prep); err != nil {
				return err
			}
			s := c.newSlot(v.Name)
			c.cur = map[int]*headInfo{k: info}
			err = c.emitLayer([]absHead{head}, []target{{s, c.vecFn(k), v.Name}})
			c.cur = nil
			if err != nil {
				return err
			}
			c.avail[k] = s
		}
	}
	return nil
}

// multiHead is the depth-preserving construction of Thm C.4.
func (c *compiler) multiHead() error {
	p := c.p
	live := p.Live()
	depth := p.Depths()
	L := p.AttentionDepth()
	// Vectors that must sit in a slot: attention results, what attention
	// reads at j (the head copies it), and the output.
	keep := map[int]bool{}
	for _, k := range outputVectors(p) {
		keep[k] = true
	}
	for k, v := range p.Vectors {
		if !live[k] || v.Kind != brasp.AttentionVector {
			continue
		}
		keep[k] = true
		for _, e := range []brasp.Expr{v.Att.Score, v.Att.Value} {
			for _, r := range brasp.Refs(e) {
				if r.Var == brasp.VarJ {
					keep[r.Vec] = true
				}
			}
		}
	}
	// stage builds the targets computed after attention layer l (l = 0:
	// before the first attention layer): kept vectors of depth l, and the
	// queries and keys of the heads of layer l+1.
	var nextHeads []absHead
	var nextInfo map[int]*headInfo
	for l := 0; l <= L; l++ {
		heads, info := nextHeads, nextInfo
		c.cur = info
		var targets []target
		var done []int
		var slots []slot
		for k, v := range p.Vectors {
			if !live[k] || !keep[k] || depth[k] != l || v.IsInitial() {
				continue
			}
			if _, ok := c.avail[k]; ok {
				continue
			}
			s := c.newSlot(v.Name)
			targets = append(targets, target{s, c.vecFn(k), v.Name})
			done = append(done, k)
			slots = append(slots, s)
		}
		c.pending = map[int]slot{}
		for x, k := range done {
			c.pending[k] = slots[x]
		}
		nextHeads, nextInfo = nil, map[int]*headInfo{}
		if l < L {
			for k, v := range p.Vectors {
				if live[k] && v.Kind == brasp.AttentionVector && depth[k] == l+1 {
					head, hi, prep, err := c.prepareHead(k)
					if err != nil {
						return err
					}
					nextHeads = append(nextHeads, head)
					nextInfo[k] = hi
					targets = append(targets, prep...)
				}
			}
		}
		if l == 0 && c.foldIntoEmbedding(targets) {
			// Thm C.4's depth-0 case: g ∘ emb is an embedding.
		} else if len(heads) > 0 || len(targets) > 0 {
			if err := c.emitLayer(heads, targets); err != nil {
				return err
			}
		}
		for x, k := range done {
			c.avail[k] = slots[x]
		}
		c.cur = nil
	}
	return nil
}

// foldIntoEmbedding puts stage-0 targets that read only symbol slots into
// the word embedding, and reports whether it could.
func (c *compiler) foldIntoEmbedding(targets []target) bool {
	for _, t := range targets {
		for _, coord := range support(t.fn) {
			if _, ok := c.symbolOf[coord]; !ok && coord != c.one.pos {
				return false
			}
		}
	}
	for _, t := range targets {
		vals := make([]bool, len(c.p.Alphabet))
		for sym := range vals {
			vals[sym] = t.fn(func(coord int) bool {
				if coord == c.one.pos {
					return true
				}
				s, ok := c.symbolOf[coord]
				return ok && s == sym
			})
		}
		c.embedding[t.dst.pos] = vals
		if t.dst.neg >= 0 {
			neg := make([]bool, len(vals))
			for k, v := range vals {
				neg[k] = !v
			}
			c.embedding[t.dst.neg] = neg
		}
	}
	return true
}

// vecFn returns vector k as a Boolean function of the residual stream at the
// current stage: a slot read, an inlined position-wise expression, or (for
// an attention operation whose head is in the current layer) the result of
// the head.
func (c *compiler) vecFn(k int) boolFn {
	if s, ok := c.avail[k]; ok {
		return func(get func(int) bool) bool { return get(s.pos) }
	}
	v := c.p.Vectors[k]
	switch v.Kind {
	case brasp.PositionwiseVector:
		return c.exprFn(v.Expr, nil)
	case brasp.AttentionVector:
		info := c.cur[k]
		if info == nil {
			panic(fmt.Sprintf("transformer: compiler reads %s before its head", v.Name))
		}
		a := v.Att
		atJ := func(vec int) boolFn {
			s := info.copies[vec]
			return func(get func(int) bool) bool { return get(s.pos) }
		}
		flag, score, value, def := info.flag, c.exprFn(a.Score, atJ), c.exprFn(a.Value, atJ), c.exprFn(a.Default, nil)
		return func(get func(int) bool) bool {
			attended := !get(flag.pos)
			s, val, d := score(get), value(get), def(get)
			if attended && s {
				return val
			}
			return d
		}
	}
	panic(fmt.Sprintf("transformer: vector %s has no slot", v.Name))
}

// exprFn compiles e; references at i read vecFn, references at j read atJ.
func (c *compiler) exprFn(e brasp.Expr, atJ func(vec int) boolFn) boolFn {
	switch e := e.(type) {
	case *brasp.Literal:
		v := e.Value
		return func(func(int) bool) bool { return v }
	case *brasp.Ref:
		if e.Var == brasp.VarJ {
			return atJ(e.Vec)
		}
		return c.vecFn(e.Vec)
	case *brasp.UnaryExpr:
		x := c.exprFn(e.X, atJ)
		return func(get func(int) bool) bool { return !x(get) }
	case *brasp.BinaryExpr:
		x, y := c.exprFn(e.X, atJ), c.exprFn(e.Y, atJ)
		if e.Op == brasp.AND {
			return func(get func(int) bool) bool { a, b := x(get), y(get); return a && b }
		}
		return func(get func(int) bool) bool { a, b := x(get), y(get); return a || b }
	}
	panic("transformer: unknown expression type")
}

// supportByUse returns the coordinates fn reads, most-read first (ties in
// first-read order): inputs shared by several subformulas (such as the
// query-side vectors of several heads' scores) come first, which keeps the
// Shannon expansion of emitLayer small.
func supportByUse(fn boolFn) []int {
	count := map[int]int{}
	var order []int
	fn(func(coord int) bool {
		if count[coord] == 0 {
			order = append(order, coord)
		}
		count[coord]++
		return false
	})
	sort.SliceStable(order, func(a, b int) bool { return count[order[a]] > count[order[b]] })
	return order
}

// support returns the coordinates fn reads, in first-read order.
func support(fn boolFn) []int {
	seen := map[int]bool{}
	var out []int
	fn(func(coord int) bool {
		if !seen[coord] {
			seen[coord] = true
			out = append(out, coord)
		}
		return false
	})
	return out
}

// prepareHead builds the head of attention operation k and the targets
// (queries α_g and keys β_g) the preceding FFN must compute.
func (c *compiler) prepareHead(k int) (absHead, *headInfo, []target, error) {
	v := c.p.Vectors[k]
	a := v.Att
	head := absHead{mask: a.Mask, tiebreak: a.Tiebreak}
	switch a.Mask {
	case position.MaskNone:
		head.mask = position.MaskNone
	case position.MaskFuture:
		head.mask = position.MaskFuture
	case position.MaskPast:
		head.mask = position.MaskPast
	case position.MaskFutureOrSelf:
		head.mask = position.MaskFutureOrSelf
	case position.MaskPastOrSelf:
		head.mask = position.MaskPastOrSelf
	}
	head.tiebreak = position.Leftmost
	if a.Tiebreak == position.Rightmost {
		head.tiebreak = position.Rightmost
	}
	info := &headInfo{copies: map[int]slot{}}
	// The i part and the j part of the score.
	var iVecs []int
	seenI := map[int]bool{}
	for _, r := range brasp.Refs(a.Score) {
		if r.Var == brasp.VarI && !seenI[r.Vec] {
			seenI[r.Vec] = true
			iVecs = append(iVecs, r.Vec)
		}
	}
	if len(iVecs) > c.opts.MaxFFNInputs {
		return head, nil, nil, &ffnLimitError{fmt.Sprintf("%s: the score reads %d vectors at i, more than MaxFFNInputs = %d", v.Name, len(iVecs), c.opts.MaxFFNInputs)}
	}
	var targets []target
	type group struct {
		assignments []uint64
		beta        boolFn
	}
	var groups []*group
	byTable := map[string]*group{}
	jFn := func(vec int) boolFn { return c.vecFn(vec) } // β is computed at position j itself
	for asg := uint64(0); asg < 1<<len(iVecs); asg++ {
		fixed := map[int]bool{}
		for x, vec := range iVecs {
			fixed[vec] = asg>>x&1 == 1
		}
		beta := c.exprFnFixed(a.Score, fixed, jFn)
		table, sup, err := c.truthTable(beta, v.Name+".key")
		if err != nil {
			return head, nil, nil, err
		}
		if !strings.Contains(table, "1") {
			continue // S(a, j) is false for every j: no term
		}
		key := fmt.Sprint(sup) + table
		g := byTable[key]
		if g == nil {
			g = &group{beta: beta}
			byTable[key] = g
			groups = append(groups, g)
		}
		g.assignments = append(g.assignments, asg)
	}
	for x, g := range groups {
		suffix := ""
		if len(groups) > 1 {
			suffix = fmt.Sprintf("[%d]", x)
		}
		q := c.one
		if len(g.assignments) < 1<<len(iVecs) {
			q = c.newSlot(v.Name + ".query" + suffix)
			var ins []boolFn
			for _, vec := range iVecs {
				ins = append(ins, c.vecFn(vec))
			}
			asgs := g.assignments
			targets = append(targets, target{q, func(get func(int) bool) bool {
				var cur uint64
				for x, f := range ins {
					if f(get) {
						cur |= 1 << x
					}
				}
				for _, a := range asgs {
					if a == cur {
						return true
					}
				}
				return false
			}, v.Name + ".query" + suffix})
		}
		key := c.one
		if table, _, _ := c.truthTable(g.beta, ""); strings.Contains(table, "0") {
			key = c.newSlot(v.Name + ".key" + suffix)
			targets = append(targets, target{key, g.beta, v.Name + ".key" + suffix})
		}
		head.score = append(head.score, [2]int{q.pos, key.pos})
	}
	// The value: the default flag and copies of what S and V read at j.
	info.flag = c.newSlot(v.Name + ".default_flag")
	c.initTrue[info.flag.pos] = true
	head.value = append(head.value, valueEntry{info.flag.pos, c.one.pos, -1})
	if info.flag.neg >= 0 {
		head.value = append(head.value, valueEntry{info.flag.neg, c.one.pos, 1})
	}
	for _, e := range []brasp.Expr{a.Score, a.Value} {
		for _, r := range brasp.Refs(e) {
			if r.Var != brasp.VarJ {
				continue
			}
			if _, ok := info.copies[r.Vec]; ok {
				continue
			}
			src, ok := c.avail[r.Vec]
			if !ok {
				src, ok = c.pending[r.Vec]
			}
			if !ok {
				return head, nil, nil, fmt.Errorf("internal error: %s reads %s at j before it has a slot", v.Name, r.Name)
			}
			dst := c.newSlot(v.Name + ".value." + r.Name)
			info.copies[r.Vec] = dst
			head.value = append(head.value, valueEntry{dst.pos, src.pos, 1})
			if dst.neg >= 0 {
				head.value = append(head.value, valueEntry{dst.neg, src.pos, -1})
			}
		}
	}
	return head, info, targets, nil
}

// exprFnFixed compiles e with the vectors in fixed (read at i) replaced by
// constants and references at j read through atJ.
func (c *compiler) exprFnFixed(e brasp.Expr, fixed map[int]bool, atJ func(int) boolFn) boolFn {
	e = brasp.MapRefs(e, func(r *brasp.Ref) brasp.Expr {
		if r.Var == brasp.VarI {
			return brasp.Bool(fixed[r.Vec])
		}
		return r
	})
	return c.exprFn(e, atJ)
}

// truthTable returns fn's truth table over its support, as a string of
// 0s and 1s indexed by assignment, and the support.
func (c *compiler) truthTable(fn boolFn, name string) (string, []int, error) {
	sup := support(fn)
	table, err := c.truthTableOver(fn, sup, name)
	return table, sup, err
}

// truthTableOver is truthTable with the inputs in the given order.
func (c *compiler) truthTableOver(fn boolFn, sup []int, name string) (string, error) {
	if len(sup) > c.opts.MaxFFNInputs {
		return "", &ffnLimitError{fmt.Sprintf("%s reads %d coordinates, more than MaxFFNInputs = %d (its truth table has 2^%d rows)", name, len(sup), c.opts.MaxFFNInputs, len(sup))}
	}
	idx := map[int]int{}
	for x, coord := range sup {
		idx[coord] = x
	}
	b := make([]byte, 1<<len(sup))
	for asg := range b {
		if fn(func(coord int) bool { return asg>>idx[coord]&1 == 1 }) {
			b[asg] = '1'
		} else {
			b[asg] = '0'
		}
	}
	return string(b), nil
}

// emitLayer appends a layer with the given heads whose FFN computes the
// targets (Lemma 4.1's FFN construction). Each target's truth table is
// split by Shannon expansion on its inputs in order, skipping inputs the
// remaining function does not depend on and stopping where it is constant;
// every 1-leaf (or, when fewer, every
// 0-leaf, subtracted from a constant 1) is a conjunction of literals and
// becomes one hidden unit ReLU(Σ_{x=1} x − Σ_{x=0} x − (#ones − 1)). The
// leaves are disjoint, so the units' sum is the function: this is the full
// DNF of Lemma 4.1 with the terms that differ only in irrelevant inputs
// merged.
func (c *compiler) emitLayer(heads []absHead, targets []target) error {
	layer := absLayer{heads: heads, bias: map[int]*big.Rat{}}
	for _, t := range targets {
		// Expand in two input orders and keep the smaller network.
		var leaves map[byte][][]int8
		var sup []int
		for _, order := range [][]int{support(t.fn), supportByUse(t.fn)} {
			table, err := c.truthTableOver(t.fn, order, t.name)
			if err != nil {
				return err
			}
			l := map[byte][][]int8{}
			splitTable(table, make([]int8, len(order)), 0, l)
			if leaves == nil || min(len(l['0']), len(l['1'])) < min(len(leaves['0']), len(leaves['1'])) {
				leaves, sup = l, order
			}
		}
		want, sign := byte('1'), int64(1)
		if len(leaves['0']) < len(leaves['1']) {
			want, sign = '0', -1
			layer.addBias(t.dst, 1)
		}
		for _, lits := range leaves[want] {
			u := unit{in: map[int]int64{}, out: map[int]*big.Rat{}}
			pos := int64(0)
			for x, v := range lits {
				switch v {
				case 1:
					u.in[sup[x]] = 1
					pos++
				case -1:
					u.in[sup[x]] = -1
				}
			}
			u.bias = 1 - pos
			u.out[t.dst.pos] = big.NewRat(sign, 1)
			if t.dst.neg >= 0 {
				u.out[t.dst.neg] = big.NewRat(-sign, 1)
			}
			layer.units = append(layer.units, u)
		}
	}
	c.layers = append(c.layers, layer)
	return nil
}

// splitTable records the leaves of the Shannon expansion of table (entry a
// is the value under assignment a, input x being bit x of a relative to
// depth x): lits[x] is 1 or -1 for inputs fixed on the path, 0 otherwise.
func splitTable(table string, lits []int8, x int, leaves map[byte][][]int8) {
	if strings.Count(table, table[:1]) == len(table) {
		leaves[table[0]] = append(leaves[table[0]], append([]int8(nil), lits...))
		return
	}
	var zero, one strings.Builder
	for a := 0; a < len(table); a += 2 {
		zero.WriteByte(table[a])
		one.WriteByte(table[a+1])
	}
	if zero.String() == one.String() { // the function does not depend on input x here
		splitTable(zero.String(), lits, x+1, leaves)
		return
	}
	lits[x] = -1
	splitTable(zero.String(), lits, x+1, leaves)
	lits[x] = 1
	splitTable(one.String(), lits, x+1, leaves)
	lits[x] = 0
}

func (l *absLayer) addBias(s slot, v int64) {
	add := func(coord int, x int64) {
		if l.bias[coord] == nil {
			l.bias[coord] = new(big.Rat)
		}
		l.bias[coord].Add(l.bias[coord], big.NewRat(x, 1))
	}
	add(s.pos, v)
	if s.neg >= 0 {
		add(s.neg, -v)
	}
}

// outputVectors returns the vectors a program outputs: its accept vector,
// or a transducer's Y_γ.
func outputVectors(p *brasp.Program) []int {
	if p.IsTransducer() {
		return p.Output.Vectors
	}
	return []int{p.Output.Accept}
}
