package compile

import (
	"fmt"
	"math/big"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/position"
	"github.com/brasp-dev/brasp/transformer"
)

// maxFFNInputs bounds the residual coordinates one compiled Boolean function
// may read: the compiler tabulates the function (2^n rows) and the full-DNF
// FFN of Thm 4.1's proof may have as many hidden units, so both time and
// memory are exponential in n. Past it Compile stops with a *budget.Error
// naming the function.
var maxFFNInputs = budget.Define("compile-ffn-inputs", 20, "coordinates",
	"residual coordinates one compiled Boolean function (FFN) reads: its truth table has 2^N rows")

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
	// PositionTables makes every PERIODIC_<prefix>_<period> predicate a
	// table position term (a finite-image position embedding, Thm 5.3):
	// its coordinate holds the table's 0/1 value at each position.
	// Otherwise the predicates are lowered to MOD_r_m predicates and
	// attention (brasp.LowerPeriodic), read from rational sinusoids as in
	// Cor. 5.4, so the model's position terms stay sinusoids.
	PositionTables bool
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
// "+layernorm" when LayerNorm is set.
func (o Options) String() string {
	s := "sequential"
	if o.MultiHead {
		s = "multihead"
	}
	if o.LayerNorm {
		s += "+layernorm"
	}
	if o.PositionTables {
		s += "+tables"
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
// chain of attention operations quadratic in its length), and every
// Boolean function an FFN computes must read at most compile-ffn-inputs
// coordinates.
func Compile(b *budget.Budget, p *brasp.Program, opts Options) (*transformer.Model, error) {
	// Eventually periodic table predicates become table position terms,
	// or else MOD predicates and attention (brasp.LowerPeriodic), so their
	// positions are read from rational sinusoids like MOD_r_m's.
	if !opts.PositionTables {
		var err error
		if p, err = brasp.LowerPeriodic(p); err != nil {
			return nil, fmt.Errorf("compile: %w", err)
		}
	}
	c := &compiler{p: p, opts: opts, avail: map[int]slot{}, b: b, maxFFN: b.Max(maxFFNInputs)}
	if err := c.run(); err != nil {
		return nil, fmt.Errorf("compile: %w", err)
	}
	if err := b.Err(); err != nil {
		return nil, err
	}
	if err := b.Check(maxParams, c.params(), fmt.Sprintf("compile: the model (width %d, %d layers)", len(c.labels), len(c.layers))); err != nil {
		return nil, err
	}
	return c.model()
}

// maxParams bounds the size of a compiled model.
var maxParams = budget.Define("compile-params", 1<<23, "parameters",
	"scalar parameters of a compiled transformer (each an exact rational of at least 64 bytes), checked before the model is allocated")

// params is the number of scalar parameters model will allocate
// (transformer.Model.NumParams of the result), from the abstract layers.
func (c *compiler) params() int64 {
	d := int64(len(c.labels))
	n := int64(len(c.p.Alphabet))*d + int64(len(c.posTerms))
	if c.p.Props != nil {
		n += int64(len(c.p.Props)+1) * d
	}
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
	p      *brasp.Program
	opts   Options
	b      *budget.Budget // its work (truth tables) and context
	maxFFN int64          // compile-ffn-inputs
	avail  map[int]slot   // vectors held in a slot and available to the current stage

	labels    []string
	symbolOf  map[int]int  // coord → symbol whose embedding sets it
	propOf    map[int]int  // coord → proposition whose multi-hot entry sets it
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
	c.propOf = map[int]int{}
	c.initTrue = map[int]bool{}
	c.posCoords = map[int]bool{}
	c.embedding = map[int][]bool{}
	c.one = c.newSlot("one")
	c.initTrue[c.one.pos] = true
	for k, v := range p.Vectors {
		switch v.Kind {
		case brasp.SymbolVector:
			s := c.newSlot(v.Name)
			c.symbolOf[s.pos] = v.Symbol
			c.avail[k] = s
		case brasp.PropositionVector:
			s := c.newSlot(v.Name)
			c.propOf[s.pos] = v.Prop
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
		case brasp.Periodic:
			c.posTerms = append(c.posTerms, tableTerm(v.Pred.Table, s.pos, false))
			c.posCoords[s.pos] = true
			if s.neg >= 0 {
				c.posTerms = append(c.posTerms, tableTerm(v.Pred.Table, s.neg, true))
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
	if c.p.Props != nil {
		return false // a multi-hot embedding is affine in the propositions: no functions of them
	}
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

// outputVectors returns the vectors a program outputs: its accept vector,
// or a transducer's Y_γ.
func outputVectors(p *brasp.Program) []int {
	if p.IsTransducer() {
		return p.Output.Vectors
	}
	return []int{p.Output.Accept}
}
