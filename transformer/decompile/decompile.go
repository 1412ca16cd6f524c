package decompile

import (
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"slices"
	"sort"
	"strings"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/position"
	"github.com/brasp-dev/brasp/transformer"
)

// The limits of the decompiler's enumeration, raisable with --limit
// NAME=N; the exact arithmetic also stops at transformer.RationalBits.
var (
	maxClasses = budget.Define("decompile-classes", 4096, "vectors",
		"reachable activation vectors of one layer in the decompiler (Lemma 4.3)")
	maxCombos = budget.Define("decompile-combos", 1<<16, "combinations",
		"(own vector, attended vectors) combinations the decompiler examines per layer")
	maxScores = budget.Define("decompile-scores", 512, "scores",
		"distinct attention scores of one head in the decompiler")
	maxPeriod = budget.Define("decompile-period", 1024, "positions",
		"period of a position embedding the decompiler turns into MOD predicates")
	maxWork = budget.Define("decompile-work", 1<<28, "operations",
		"exact multiplications and truth-table cells of one decompilation")
)

// Options configures Decompile. The zero value is the depth-preserving
// translation.
type Options struct {
	// Smaller selects the proof's smaller translation: the argmax of each
	// head is found bit by bit over the order-preserving encoding of its
	// scores (⌈log₂|F|⌉ attention operations per head). Otherwise the
	// shallower one is used: one attention operation per score value, all
	// reading the previous layer, so the program's attention depth equals
	// the model's number of attention layers (§5.4).
	Smaller bool
}

// ErrInfiniteImage is wrapped by the error for a position embedding whose
// image is not finite: Lemma 4.3 (finitely many activation values) then
// fails, and no B-RASP program can simulate the model.
var ErrInfiniteImage = errors.New("position embedding with infinite image")

// Info describes the finite sets the decompilation enumerated (Lemma 4.3).
type Info struct {
	// Classes[l] is the number of reachable activation vectors after layer
	// l (Classes[0]: after the embedding).
	Classes []int
	// Scores[l][h] is the number of distinct attention scores of head h of
	// layer l+1 on reachable vectors.
	Scores [][]int
	// Combos[l] is the number of (own vector, attended vectors) combinations
	// of layer l+1 that can occur.
	Combos []int
}

// Decompile translates a transformer into a B-RASP program that accepts
// exactly the words the model accepts, or for a transducer outputs exactly
// what it outputs (Thm 4.2, with the extensions of §4.3, §5.2, §5.3 and
// App. C), within the budget. See the package documentation.
func Decompile(b *budget.Budget, m *transformer.Model, opts Options) (*brasp.Program, error) {
	p, _, err := DecompileInfo(b, m, opts)
	return p, err
}

// DecompileInfo is Decompile that also reports the sizes of the enumerated
// value sets.
func DecompileInfo(b *budget.Budget, m *transformer.Model, opts Options) (*brasp.Program, *Info, error) {
	if m == nil {
		return nil, nil, fmt.Errorf("decompile: no model")
	}
	for k := range m.Position {
		switch m.Position[k].Kind {
		case transformer.PosSin, transformer.PosCos, transformer.PosFirst, transformer.PosLast, transformer.PosMid, transformer.PosMod, transformer.PosTable:
		default:
			return nil, nil, fmt.Errorf("decompile: position term %d: %w: kind %v is neither a rational sinusoid nor a finite-image position predicate, so Lemma 4.3 (finitely many activation values) does not hold and no B-RASP program can simulate the model", k, ErrInfiniteImage, m.Position[k].Kind)
		}
	}
	if err := m.Validate(); err != nil {
		return nil, nil, fmt.Errorf("decompile: invalid model: %v", err)
	}
	d := &decompiler{m: m, opts: opts, b: b, g: newIR(m.Alphabet), info: &Info{},
		ar: &transformer.Arith{MaxBits: b.Max(transformer.RationalBits)}, maxWork: b.Max(maxWork)}
	p, err := d.run()
	if err != nil {
		return nil, nil, err
	}
	return p, d.info, nil
}

// feature is one Boolean vector of the program's encoding of a layer's
// activation: bit bit of the order-preserving index of coordinate coord's
// value (its only bit, "coordinate = the larger value", when the
// coordinate takes two values).
type feature struct {
	coords     []int // the coordinates with a bit equal to this feature
	coord, bit int
	name       string
	col        []bool // per reachable vector
	node       int
}

// level is the reachable state after the embedding or a layer.
type level struct {
	vecs  []transformer.Vec
	feats []feature
}

type decompiler struct {
	m    *transformer.Model
	opts Options
	b    *budget.Budget
	g    *ir
	info *Info
	ar   *transformer.Arith // the model's arithmetic, counting its work
	// maxWork is the decompile-work limit on ar.Work.
	maxWork int64
	live    [][]bool // liveCoords
	frozen  [][]bool // frozenCoords, or nil
	err     error    // an internal inconsistency met while synthesising
}

// synth synthesises a formula; a function the inputs do not determine is
// an internal error (the encoding separates every reachable vector), which
// is recorded rather than turned into a wrong program.
func (d *decompiler) synth(points [][]bool, out []bool) sop {
	if len(points) > 0 && d.spend(4*len(points)*len(points[0])) {
		if d.err == nil {
			d.err = d.workError("synthesising the Boolean functions of the reachable values")
		}
		return constSOP(false)
	}
	s, ok := synthesize(points, out)
	if !ok && d.err == nil {
		d.err = fmt.Errorf("decompile: internal error: a Boolean function is not determined by its inputs")
	}
	return s
}

// work reports the first limit the arithmetic exceeded, and the budget's
// context and work.
func (d *decompiler) work() error {
	if err := d.ar.Err(); err != nil {
		return err
	}
	if d.ar.Work > d.maxWork {
		return d.workError("evaluating the model on its reachable values")
	}
	return d.b.Step(1)
}

func (d *decompiler) workError(what string) error {
	return &budget.Error{Limit: maxWork, Value: d.maxWork, Need: d.ar.Work, What: "decompile: " + what}
}

// spend records n operations of work outside the arithmetic and reports
// whether the work limit is exceeded.
func (d *decompiler) spend(n int) bool {
	d.ar.Work += int64(n)
	return d.ar.Work > d.maxWork
}

// classes interns vectors.
type classes struct {
	vecs  []transformer.Vec
	index map[string]int
	b     *budget.Budget
	layer int
}

// intern interns the vector x of level l: projected on its live
// coordinates, or by its frozen key (keeping x itself as the representative
// of its class).
func (d *decompiler) intern(c *classes, x transformer.Vec, l int) (int, error) {
	if d.frozen != nil {
		return c.internKey(frozenKey(x, d.frozen[l]), x)
	}
	x = project(x, d.live[l])
	return c.internKey(x.Key(), x)
}

func (c *classes) internKey(k string, v transformer.Vec) (int, error) {
	if id, ok := c.index[k]; ok {
		return id, nil
	}
	what := fmt.Sprintf("decompile: the set of reachable activation vectors after layer %d", c.layer)
	if c.layer == 0 {
		what = "decompile: the set of reachable embedding vectors"
	}
	if err := c.b.Check(maxClasses, int64(len(c.vecs)+1), what); err != nil {
		return 0, err
	}
	c.index[k] = len(c.vecs)
	c.vecs = append(c.vecs, v)
	return len(c.vecs) - 1, nil
}

func (d *decompiler) run() (*brasp.Program, error) {
	if fr, ok := frozenCoords(d.m); ok {
		d.frozen = fr
	} else {
		d.live = liveCoords(d.m)
	}
	lv, err := d.embedding()
	if err != nil {
		return nil, err
	}
	if d.err != nil {
		return nil, d.err
	}
	for l := range d.m.Layers {
		if lv, err = d.layer(l, lv); err != nil {
			return nil, err
		}
		if d.err != nil {
			return nil, d.err
		}
	}
	// The output layer: the acceptor's output, or one output vector per
	// symbol of a transducer.
	points := make([][]bool, len(lv.vecs))
	for a := range lv.vecs {
		points[a] = featureRow(lv.feats, a)
	}
	atLast := func(v int) brasp.Expr { return ref(lv.feats[v].node, brasp.VarI) }
	if t := d.m.Transduction; t != nil {
		outs := make([]int, len(t.Symbols))
		for g := range t.Symbols {
			out := make([]bool, len(lv.vecs))
			for a, x := range lv.vecs {
				s := d.ar.Dot(t.Weight[g], x)
				s.Add(s, t.Bias[g])
				out[a] = s.Sign() >= 0
			}
			outs[g] = d.g.positionwise(outputName(t.Symbols[g], g), d.expr(d.synth(points, out), atLast))
		}
		if d.err != nil {
			return nil, d.err
		}
		return d.g.transducer(t.Symbols, outs)
	}
	out := make([]bool, len(lv.vecs))
	for a, x := range lv.vecs {
		s := d.ar.Dot(d.m.Output.Weight, x)
		s.Add(s, d.m.Output.Bias)
		out[a] = s.Sign() >= 0
	}
	y := d.g.positionwise("Y", d.expr(d.synth(points, out), atLast))
	if d.err != nil {
		return nil, d.err
	}
	return d.g.program(y)
}

// outputName names the output vector of output symbol γ (index g): Y_γ as
// in the paper when γ makes a B-RASP name, Y_g otherwise.
func outputName(sym string, g int) string {
	if s := sanitize(sym); s == sym {
		return "Y_" + s
	}
	return fmt.Sprintf("Y_%d", g)
}

// readBy reports whether the feature is a function of the coordinates in
// coords (it equals a bit of one of them).
func (f *feature) readBy(coords []bool) bool {
	for _, c := range f.coords {
		if coords[c] {
			return true
		}
	}
	return false
}

func featureRow(fs []feature, a int) []bool {
	row := make([]bool, len(fs))
	for k := range fs {
		row[k] = fs[k].col[a]
	}
	return row
}

// expr turns a sum of products into an expression, with varExpr giving
// each variable's expression.
func (d *decompiler) expr(s sop, varExpr func(v int) brasp.Expr) brasp.Expr {
	var terms []brasp.Expr
	for _, c := range s.cubes {
		var ls []brasp.Expr
		for _, l := range c {
			e := varExpr(l.v)
			if l.neg {
				e = brasp.Not(e)
			}
			ls = append(ls, e)
		}
		terms = append(terms, brasp.And(ls...))
	}
	e := brasp.Or(terms...)
	if s.negated {
		e = brasp.Not(e)
	}
	return brasp.Fold(e)
}

// posKey is what the position embedding of position i depends on: pos is
// a position with the key's residue and prefix class (itself within the
// longest table prefix, the first position after it with that residue
// otherwise), which the tables and PERIODIC predicates are read at.
type posKey struct {
	residue, pos     int
	first, last, mid bool
}

// embedding enumerates the reachable embedding vectors (symbol embedding
// plus position embedding) and defines the layer-0 features from the
// symbol vectors Q_σ and the position predicates.
func (d *decompiler) embedding() (*level, error) {
	m := d.m
	period, prefix := 1, 0 // prefix: the longest table prefix
	var periods []int      // distinct periods > 1, for MOD predicates
	var tables []int       // the table terms, for PERIODIC predicates
	usesFirst, usesLast, usesMid := false, false, false
	for k := range m.Position {
		t := &m.Position[k]
		p := 0
		switch t.Kind {
		case transformer.PosTable:
			if len(t.Prefix) > position.MaxPeriodicTable || len(t.Period) > position.MaxPeriodicTable {
				return nil, fmt.Errorf("decompile: position term %d: the table has a prefix of %d and a period of %d entries; PERIODIC predicates have at most MaxPeriodicTable = %d", k, len(t.Prefix), len(t.Period), position.MaxPeriodicTable)
			}
			if err := d.b.Check(maxPeriod, int64(len(t.Prefix)), fmt.Sprintf("decompile: the prefix of position term %d's table", k)); err != nil {
				return nil, err
			}
			p = len(t.Period)
			prefix = max(prefix, len(t.Prefix))
			tables = append(tables, k)
		case transformer.PosSin, transformer.PosCos:
			what := fmt.Sprintf("decompile: the period of position term %d (the denominator of its frequency: the embedding has that many values, Lemma 4.3)", k)
			if t.Frequency == nil || !t.Frequency.Denom().IsInt64() {
				return nil, &budget.Error{Limit: maxPeriod, Value: d.b.Max(maxPeriod), What: what}
			}
			if err := d.b.Check(maxPeriod, t.Frequency.Denom().Int64(), what); err != nil {
				return nil, err
			}
			p = int(t.Frequency.Denom().Int64())
		case transformer.PosMod:
			p = t.M
		case transformer.PosFirst:
			usesFirst = true
		case transformer.PosLast:
			usesLast = true
		case transformer.PosMid:
			usesMid = true
		}
		if p > 1 {
			if !containsInt(periods, p) && t.Kind != transformer.PosTable {
				periods = append(periods, p)
			}
			g := gcd(period, p)
			if err := d.b.Check(maxPeriod, int64(period/g)*int64(p), "decompile: the period of the position embedding (the lcm of its terms' periods)"); err != nil {
				return nil, err
			}
			period = period / g * p
		}
	}
	sort.Ints(periods)
	// Positions 1..prefix each have a key of their own (pre = i), later
	// ones one per residue (pre = 0).
	var keys []posKey
	for pre := 0; pre <= prefix; pre++ {
		for r := range period {
			if pre > 0 && r != pre%period {
				continue
			}
			pos := pre
			if pre == 0 {
				pos = prefix + 1 + ((r-prefix-1)%period+period)%period
			}
			for _, first := range boolsIf(usesFirst) {
				if first && pos != 1 {
					continue
				}
				for _, last := range boolsIf(usesLast) {
					for _, mid := range boolsIf(usesMid) {
						keys = append(keys, posKey{r, pos, first, last, mid})
					}
				}
			}
		}
	}
	// Input variables: Q_σ, then first, last, Mid, then MOD_r_p.
	type inVar struct {
		expr brasp.Expr
		val  func(sym int, k posKey) bool
	}
	var vars []inVar
	for s := range m.Alphabet {
		vars = append(vars, inVar{ref(s, brasp.VarI), func(sym int, _ posKey) bool { return sym == s }})
	}
	g := d.g
	if usesFirst {
		vars = append(vars, inVar{ref(g.pred(brasp.Predicate{Kind: brasp.First}), brasp.VarI), func(_ int, k posKey) bool { return k.first }})
	}
	if usesLast {
		vars = append(vars, inVar{ref(g.pred(brasp.Predicate{Kind: brasp.Last}), brasp.VarI), func(_ int, k posKey) bool { return k.last }})
	}
	if usesMid {
		vars = append(vars, inVar{ref(g.pred(brasp.Predicate{Kind: brasp.Mid}), brasp.VarI), func(_ int, k posKey) bool { return k.mid }})
	}
	// MOD and PERIODIC predicates are declared lazily, only those a
	// formula uses.
	modPred := map[int]brasp.Predicate{}
	for _, p := range periods {
		for r := range p {
			modPred[len(vars)] = brasp.Predicate{Kind: brasp.Mod, R: r, M: p}
			vars = append(vars, inVar{nil, func(_ int, k posKey) bool { return k.residue%p == r }})
		}
	}
	seenTable := map[position.Periodic]bool{}
	for _, k := range tables {
		for _, pt := range tablePredicates(&m.Position[k]) {
			if seenTable[pt] {
				continue
			}
			seenTable[pt] = true
			modPred[len(vars)] = brasp.Predicate{Kind: brasp.Periodic, Table: pt}
			vars = append(vars, inVar{nil, func(_ int, k posKey) bool { return pt.Holds(k.pos) }})
		}
	}
	cl := &classes{index: map[string]int{}, b: d.b}
	var points [][]bool
	var cls []int
	for sym := range m.Alphabet {
		for _, k := range keys {
			x := m.Embedding[sym].Clone()
			for t := range m.Position {
				term := &m.Position[t]
				v := termValue(term, k)
				v.Mul(v, term.Scale)
				x[term.Coord].Add(x[term.Coord], v)
			}
			c, err := d.intern(cl, x, 0)
			if err != nil {
				return nil, err
			}
			row := make([]bool, len(vars))
			for v := range vars {
				row[v] = vars[v].val(sym, k)
			}
			points = append(points, row)
			cls = append(cls, c)
		}
	}
	lv := &level{vecs: cl.vecs}
	d.info.Classes = append(d.info.Classes, len(lv.vecs))
	varExpr := func(v int) brasp.Expr {
		if p, ok := modPred[v]; ok {
			return ref(g.pred(p), brasp.VarI)
		}
		return vars[v].expr
	}
	d.defineFeatures(lv, 0, points, cls, varExpr)
	return lv, nil
}

// tablePredicates returns, for a table term, one PERIODIC predicate per
// distinct value but the first (which holds where none of the others do):
// "the table has value v at i", in normal form. Together they determine
// the term's value at every position.
func tablePredicates(t *transformer.PositionTerm) []position.Periodic {
	var values []*big.Rat
	for i := 1; i <= len(t.Prefix)+len(t.Period); i++ {
		v := t.TableValue(i)
		found := false
		for _, w := range values {
			found = found || w.Cmp(v) == 0
		}
		if !found {
			values = append(values, v)
		}
	}
	sort.Slice(values, func(a, b int) bool { return values[a].Cmp(values[b]) < 0 })
	var ps []position.Periodic
	for _, v := range values[min(1, len(values)):] {
		bit := func(x *big.Rat) byte {
			if x.Cmp(v) == 0 {
				return '1'
			}
			return '0'
		}
		pre, per := make([]byte, len(t.Prefix)), make([]byte, len(t.Period))
		for i, x := range t.Prefix {
			pre[i] = bit(x)
		}
		for i, x := range t.Period {
			per[i] = bit(x)
		}
		ps = append(ps, position.Periodic{Prefix: string(pre), Period: string(per)}.Normal())
	}
	return ps
}

func boolsIf(b bool) []bool {
	if b {
		return []bool{false, true}
	}
	return []bool{false}
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// termValue is a position term's value (before its scale) at positions
// with key k; residue k.residue stands for every i with that residue.
func termValue(t *transformer.PositionTerm, k posKey) *big.Rat {
	var b bool
	switch t.Kind {
	case transformer.PosSin, transformer.PosCos:
		p := int(t.Frequency.Denom().Int64())
		return transformer.Sinusoid(t.Frequency, k.residue%p, t.Kind == transformer.PosCos)
	case transformer.PosTable:
		return new(big.Rat).Set(t.TableValue(k.pos))
	case transformer.PosFirst:
		b = k.first
	case transformer.PosLast:
		b = k.last
	case transformer.PosMid:
		b = k.mid
	case transformer.PosMod:
		b = k.residue%t.M == t.R
	}
	if b != t.Negated {
		return big.NewRat(1, 1)
	}
	return new(big.Rat)
}

// defineFeatures computes the features of lv (per coordinate, the bits of
// the order-preserving index of its value; identical columns merged) and
// defines each as a position-wise operation synthesised over the domain
// points (point p is in class cls[p]).
func (d *decompiler) defineFeatures(lv *level, layer int, points [][]bool, cls []int, varExpr func(int) brasp.Expr) {
	m := d.m
	seen := map[string]int{}
	// The columns to encode: every coordinate, except frozen ones, whose
	// values in a class's representative are arbitrary; the class depends on
	// them only through their sum and sum of squares, encoded instead.
	type column struct {
		coord int // -1 for the frozen sums
		label string
		val   func(a int) *big.Rat
	}
	var cols []column
	for c := 0; c < m.Width; c++ {
		if d.frozen != nil && d.frozen[layer][c] {
			continue
		}
		cols = append(cols, column{c, m.Labels[c], func(a int) *big.Rat { return lv.vecs[a][c] }})
	}
	if d.frozen != nil {
		s1 := make([]*big.Rat, len(lv.vecs))
		s2 := make([]*big.Rat, len(lv.vecs))
		for a, x := range lv.vecs {
			s1[a], s2[a] = new(big.Rat), new(big.Rat)
			for c, v := range x {
				if d.frozen[layer][c] {
					s1[a].Add(s1[a], v)
					s2[a].Add(s2[a], new(big.Rat).Mul(v, v))
				}
			}
		}
		cols = append(cols,
			column{-1, fmt.Sprintf("L%d_frozen_sum", layer), func(a int) *big.Rat { return s1[a] }},
			column{-1, fmt.Sprintf("L%d_frozen_sumsq", layer), func(a int) *big.Rat { return s2[a] }})
	}
	for _, col := range cols {
		c := col.coord
		distinct, ranks := rankValues(len(lv.vecs), col.val)
		if len(distinct) < 2 {
			continue
		}
		nb := bits.Len(uint(len(distinct) - 1))
		base := sanitize(col.label)
		if base == "" {
			base = fmt.Sprintf("x%d", c)
		}
		for b := range nb {
			bitCol := make([]bool, len(lv.vecs))
			key := make([]byte, len(bitCol))
			for a := range lv.vecs {
				bitCol[a] = ranks[a]>>b&1 == 1
				if bitCol[a] {
					key[a] = 1
				}
			}
			if k, ok := seen[string(key)]; ok {
				if c >= 0 {
					lv.feats[k].coords = append(lv.feats[k].coords, c)
				}
				continue
			}
			seen[string(key)] = len(lv.feats)
			name := base
			if nb > 1 {
				name = fmt.Sprintf("%s_b%d", base, b)
			} else if distinct[0].Sign() != 0 || distinct[1].Cmp(big.NewRat(1, 1)) != 0 {
				name = fmt.Sprintf("%s_is_%s", base, ratName(distinct[1]))
			}
			f := feature{coord: c, bit: b, name: name, col: bitCol, node: -1}
			if c >= 0 {
				f.coords = []int{c}
			}
			lv.feats = append(lv.feats, f)
		}
	}
	out := make([]bool, len(points))
	for k := range lv.feats {
		f := &lv.feats[k]
		for p := range points {
			out[p] = f.col[cls[p]]
		}
		f.node = d.g.positionwise(f.name, d.expr(d.synth(points, out), varExpr))
	}
}

// rankValues returns the distinct values of val(0..n−1) in increasing
// order and the rank of each val(a) among them. The values of compiled
// models are short dyadic rationals, exactly float64s, which are sorted as
// such; exact rational comparison (which allocates) is the fallback.
func rankValues(n int, val func(a int) *big.Rat) (distinct []*big.Rat, ranks []int) {
	ranks = make([]int, n)
	fs := make([]float64, n)
	exact := true
	for a := range n {
		if fs[a], exact = exactFloat(val(a)); !exact {
			break
		}
	}
	if exact {
		sorted := slices.Clone(fs)
		slices.Sort(sorted)
		sorted = slices.Compact(sorted)
		byValue := make([]*big.Rat, len(sorted))
		for a := range n {
			r, _ := slices.BinarySearch(sorted, fs[a])
			ranks[a] = r
			if byValue[r] == nil {
				byValue[r] = val(a)
			}
		}
		return byValue, ranks
	}
	vals := make([]*big.Rat, n)
	for a := range n {
		vals[a] = val(a)
	}
	sort.Slice(vals, func(a, b int) bool { return vals[a].Cmp(vals[b]) < 0 })
	for _, v := range vals {
		if len(distinct) == 0 || distinct[len(distinct)-1].Cmp(v) != 0 {
			distinct = append(distinct, v)
		}
	}
	for a := range n {
		v := val(a)
		ranks[a] = sort.Search(len(distinct), func(k int) bool { return distinct[k].Cmp(v) >= 0 })
	}
	return distinct, ranks
}

// exactFloat returns x as a float64 and whether that is exact (without
// allocating for integers).
func exactFloat(x *big.Rat) (float64, bool) {
	if x.IsInt() && x.Num().IsInt64() {
		if v := x.Num().Int64(); v > -1<<53 && v < 1<<53 {
			return float64(v), true
		}
	}
	return x.Float64()
}

// ratName spells a rational inside a name: 1/2 → 1_2, -3 → m3.
func ratName(r *big.Rat) string {
	s := strings.NewReplacer("-", "m", "/", "_").Replace(r.RatString())
	if len(s) > 12 {
		s = "v"
	}
	return s
}

// headInfo is the enumerated data of one head on one layer's reachable
// vectors. The score reads the query vector only through the coordinates
// qCoords and the key vector through kCoords (which also hold everything the
// value reads), so reachable vectors are grouped by their projections on
// these coordinates: vectors in the same key group are interchangeable for
// the head.
type headInfo struct {
	hd               *transformer.Head
	qCoords, kCoords []bool
	qGroup, kGroup   []int // per class
	qRep, kRep       []int // a representative class per group
	values           []*big.Rat
	rank             [][]int           // rank[qg][kg]: index of the score in values
	val              []transformer.Vec // per key group: Value·x
	// lazily emitted program operations
	emitted bool
	maxNode []int // shallower: Max_v per value (-1: constant 1); smaller: Max_b per bit
	sEq     []brasp.Expr
	argmax  brasp.Expr
	attNode map[int]int // feature → attended-feature node
}

// groupBy groups the vectors by their projection on coords.
func groupBy(vecs []transformer.Vec, coords []bool) (group, rep []int) {
	index := map[string]int{}
	group = make([]int, len(vecs))
	for a, x := range vecs {
		var b strings.Builder
		for c, on := range coords {
			if on {
				b.WriteString(x[c].RatString())
				b.WriteByte(',')
			}
		}
		g, ok := index[b.String()]
		if !ok {
			g = len(rep)
			index[b.String()] = g
			rep = append(rep, a)
		}
		group[a] = g
	}
	return group, rep
}

// newHead enumerates the scores and values of a head on lv.
func (d *decompiler) newHead(l, h int, hd *transformer.Head, lv *level) (*headInfo, error) {
	w := d.m.Width
	hi := &headInfo{hd: hd, attNode: map[int]int{}, qCoords: make([]bool, w), kCoords: make([]bool, w)}
	for r := range w {
		for c := range w {
			if hd.Score[r][c].Sign() != 0 {
				hi.qCoords[r], hi.kCoords[c] = true, true
			}
			if hd.Value[r][c].Sign() != 0 {
				hi.kCoords[c] = true
			}
		}
	}
	hi.qGroup, hi.qRep = groupBy(lv.vecs, hi.qCoords)
	hi.kGroup, hi.kRep = groupBy(lv.vecs, hi.kCoords)
	keys := make([]transformer.Vec, len(hi.kRep))
	hi.val = make([]transformer.Vec, len(hi.kRep))
	for g, b := range hi.kRep {
		keys[g] = d.ar.MatVec(hd.Score, lv.vecs[b])
		hi.val[g] = d.ar.MatVec(hd.Value, lv.vecs[b])
	}
	if err := d.work(); err != nil {
		return nil, err
	}
	score := make([][]*big.Rat, len(hi.qRep))
	var all []*big.Rat
	for q, a := range hi.qRep {
		score[q] = make([]*big.Rat, len(keys))
		for g := range keys {
			score[q][g] = d.ar.Dot(lv.vecs[a], keys[g])
			all = append(all, score[q][g])
		}
		if err := d.work(); err != nil {
			return nil, err
		}
	}
	sort.Slice(all, func(x, y int) bool { return all[x].Cmp(all[y]) < 0 })
	for _, v := range all {
		if len(hi.values) == 0 || hi.values[len(hi.values)-1].Cmp(v) != 0 {
			hi.values = append(hi.values, v)
			if err := d.b.Check(maxScores, int64(len(hi.values)), fmt.Sprintf("decompile: the set of distinct scores of head %d of layer %d", h+1, l+1)); err != nil {
				return nil, err
			}
		}
	}
	hi.rank = make([][]int, len(score))
	for q := range score {
		hi.rank[q] = make([]int, len(keys))
		for g, v := range score[q] {
			hi.rank[q][g] = sort.Search(len(hi.values), func(k int) bool { return hi.values[k].Cmp(v) >= 0 })
		}
	}
	return hi, nil
}

// layer enumerates layer l's reachable outputs and defines its features.
func (d *decompiler) layer(l int, lv *level) (*level, error) {
	layer := &d.m.Layers[l]
	K := len(lv.vecs)
	H := len(layer.Heads)
	heads := make([]*headInfo, H)
	var scoreCounts []int
	for h := range layer.Heads {
		hi, err := d.newHead(l, h, &layer.Heads[h], lv)
		if err != nil {
			return nil, err
		}
		heads[h] = hi
		scoreCounts = append(scoreCounts, len(hi.values))
	}
	d.info.Scores = append(d.info.Scores, scoreCounts)
	// Combinations (a, g_1..g_H): own class and attended key group of each
	// head (-1 when nothing is unmasked).
	next := &classes{index: map[string]int{}, b: d.b, layer: l + 1}
	cache := map[string]int{}
	var combos [][]int
	var cls []int
	choice := make([]int, H)
	attended := make([]transformer.Vec, 0, H)
	var rec func(a, h int) error
	rec = func(a, h int) error {
		if h == H {
			if err := d.b.Check(maxCombos, int64(len(combos)+1), fmt.Sprintf("decompile: the set of (vector, attended vectors) combinations of layer %d", l+1)); err != nil {
				return err
			}
			attended = attended[:0]
			for h2, g := range choice {
				if g >= 0 {
					attended = append(attended, heads[h2].val[g])
				}
			}
			c := transformer.Residual(lv.vecs[a], attended...)
			key := c.Key()
			id, ok := cache[key]
			if !ok {
				y := d.ar.FinishLayer(layer, c)
				if err := d.work(); err != nil {
					return err
				}
				var err error
				if id, err = d.intern(next, y, l+1); err != nil {
					return err
				}
				cache[key] = id
			}
			combos = append(combos, append([]int{a}, choice...))
			cls = append(cls, id)
			return nil
		}
		for _, g := range possible(heads[h], a) {
			choice[h] = g
			if err := rec(a, h+1); err != nil {
				return err
			}
		}
		return nil
	}
	for a := range K {
		if err := rec(a, 0); err != nil {
			return nil, err
		}
	}
	d.info.Combos = append(d.info.Combos, len(combos))
	d.info.Classes = append(d.info.Classes, len(next.vecs))
	// Domain points: own features, then per head: "some position is
	// unmasked" and the attended vector's features (those its key group
	// determines; the others are left false and never used).
	F := len(lv.feats)
	if err := d.b.Check(maxWork, int64(len(combos))*int64(F*(H+1)+H), fmt.Sprintf("decompile: the truth table of layer %d", l+1)); err != nil {
		return nil, err
	}
	points := make([][]bool, len(combos))
	for p, co := range combos {
		row := make([]bool, 0, F+H*(F+1))
		row = append(row, featureRow(lv.feats, co[0])...)
		for h, hi := range heads {
			g := co[h+1]
			row = append(row, g >= 0)
			for k := range lv.feats {
				f := &lv.feats[k]
				row = append(row, g >= 0 && f.readBy(hi.kCoords) && f.col[hi.kRep[g]])
			}
		}
		points[p] = row
	}
	varExpr := func(v int) brasp.Expr {
		if v < F {
			return ref(lv.feats[v].node, brasp.VarI)
		}
		v -= F
		h, k := v/(F+1), v%(F+1)
		if k == 0 {
			return d.anyExpr(heads[h].hd.Mask)
		}
		return ref(d.attended(l, h, heads[h], lv, k-1), brasp.VarI)
	}
	nl := &level{vecs: next.vecs}
	d.defineFeatures(nl, l+1, points, cls, varExpr)
	return nl, nil
}

// possible lists the key groups a head can attend to from a position of
// class a (-1: no unmasked position). With a mask that lets i see itself,
// the attended score is at least i's own score, and a tie with i itself is
// won by i when the tie-break prefers the side i is on.
func possible(hi *headInfo, a int) []int {
	var out []int
	switch hi.hd.Mask {
	case position.MaskFuture, position.MaskPast:
		out = append(out, -1)
		for g := range hi.kRep {
			out = append(out, g)
		}
		return out
	}
	q := hi.qGroup[a]
	self := hi.rank[q][hi.kGroup[a]]
	selfWins := (hi.hd.Mask == position.MaskFutureOrSelf && hi.hd.Tiebreak == position.Rightmost) ||
		(hi.hd.Mask == position.MaskPastOrSelf && hi.hd.Tiebreak == position.Leftmost)
	for g := range hi.kRep {
		r := hi.rank[q][g]
		if r < self || (r == self && selfWins && g != hi.kGroup[a]) {
			continue
		}
		out = append(out, g)
	}
	return out
}

// anyExpr is "some position is unmasked" for a mask.
func (d *decompiler) anyExpr(m position.Mask) brasp.Expr {
	switch m {
	case position.MaskFuture:
		return brasp.Not(ref(d.g.pred(brasp.Predicate{Kind: brasp.First}), brasp.VarI))
	case position.MaskPast:
		return brasp.Not(ref(d.g.pred(brasp.Predicate{Kind: brasp.Last}), brasp.VarI))
	}
	return brasp.Bool(true)
}

// attended returns the node holding feature k of the vector head h of
// layer l attends to (0 when nothing is unmasked), emitting the head's
// argmax machinery on first use.
func (d *decompiler) attended(l, h int, hi *headInfo, lv *level, k int) int {
	if n, ok := hi.attNode[k]; ok {
		return n
	}
	g := d.g
	mask := hi.hd.Mask
	tb := hi.hd.Tiebreak
	prefix := fmt.Sprintf("L%dH%d", l+1, h+1)
	fj := ref(lv.feats[k].node, brasp.VarJ)
	fname := prefix + "_" + lv.feats[k].name
	if dst := d.valueLabel(hi.hd, lv.feats[k].coord); dst != "" {
		fname = dst
	}
	if !hi.emitted {
		d.emitHead(prefix, hi, lv)
	}
	if d.err != nil {
		return 0 // the decompilation has failed; the caller reports d.err
	}
	var n int
	if !d.opts.Smaller {
		var terms []brasp.Expr
		for v := range hi.values {
			name := fmt.Sprintf("%s_s%d", fname, v)
			if len(hi.values) == 1 {
				name = fname
			}
			r := g.attend(name, tb, mask, hi.sEq[v], fj, brasp.Bool(false))
			if hi.maxNode[v] < 0 {
				terms = append(terms, ref(r, brasp.VarI))
			} else {
				terms = append(terms, brasp.And(ref(hi.maxNode[v], brasp.VarI), ref(r, brasp.VarI)))
			}
		}
		n = g.internal(fname, brasp.Or(terms...))
	} else {
		n = g.attend(fname, tb, mask, hi.argmax, fj, brasp.Bool(false))
	}
	hi.attNode[k] = n
	return n
}

// valueLabel names the attended copy of coordinate c after the coordinate
// the head's value writes it to, when there is exactly one and it is
// labelled ("" otherwise).
func (d *decompiler) valueLabel(hd *transformer.Head, c int) string {
	if c < 0 {
		return ""
	}
	dst := -1
	for r := range hd.Value {
		if hd.Value[r][c].Sign() != 0 {
			if dst >= 0 {
				return ""
			}
			dst = r
		}
	}
	if dst < 0 {
		return ""
	}
	return sanitize(d.m.Labels[dst])
}

// emitHead defines the score predicates of a head and its Max operations.
func (d *decompiler) emitHead(prefix string, hi *headInfo, lv *level) {
	hi.emitted = true
	g := d.g
	mask := hi.hd.Mask
	F := len(lv.feats)
	nq, nk := len(hi.qRep), len(hi.kRep)
	if err := d.b.Check(maxWork, int64(nq)*int64(nk)*int64(2*F), "decompile: the truth table of a head's scores"); err != nil {
		if d.err == nil {
			d.err = err
		}
		return
	}
	points := make([][]bool, 0, nq*nk)
	for _, a := range hi.qRep {
		for _, b := range hi.kRep {
			row := make([]bool, 2*F)
			for k := range lv.feats {
				f := &lv.feats[k]
				row[k] = f.readBy(hi.qCoords) && f.col[a]
				row[F+k] = f.readBy(hi.kCoords) && f.col[b]
			}
			points = append(points, row)
		}
	}
	varExpr := func(v int) brasp.Expr {
		if v < F {
			return ref(lv.feats[v].node, brasp.VarI)
		}
		return ref(lv.feats[v-F].node, brasp.VarJ)
	}
	pairFn := func(f func(r int) bool) brasp.Expr {
		out := make([]bool, 0, nq*nk)
		for q := range nq {
			for g := range nk {
				out = append(out, f(hi.rank[q][g]))
			}
		}
		return d.expr(d.synth(points, out), varExpr)
	}
	V := len(hi.values)
	if !d.opts.Smaller {
		hi.sEq = make([]brasp.Expr, V)
		hi.maxNode = make([]int, V)
		for v := range V {
			hi.sEq[v] = pairFn(func(r int) bool { return r == v })
			hi.maxNode[v] = -1
			if v < V-1 {
				gt := pairFn(func(r int) bool { return r > v })
				hi.maxNode[v] = g.attend(fmt.Sprintf("%s_max%d", prefix, v), position.Rightmost, mask, gt, brasp.Bool(false), brasp.Bool(true))
			}
		}
		return
	}
	B := bits.Len(uint(V - 1))
	sBit := make([]brasp.Expr, B)
	for b := range B {
		sBit[b] = pairFn(func(r int) bool { return r>>b&1 == 1 })
	}
	hi.maxNode = make([]int, B)
	argmax := brasp.Expr(brasp.Bool(true))
	for b := B - 1; b >= 0; b-- {
		hi.maxNode[b] = g.attend(fmt.Sprintf("%s_maxbit%d", prefix, b), position.Leftmost, mask,
			brasp.And(argmax, sBit[b]), brasp.Bool(true), brasp.Bool(false))
		argmax = brasp.And(argmax, iff(sBit[b], ref(hi.maxNode[b], brasp.VarI)))
	}
	hi.argmax = argmax
}
