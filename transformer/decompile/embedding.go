package decompile

import (
	"fmt"
	"math/big"
	"sort"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/position"
	"github.com/brasp-dev/brasp/transformer"
)

// posKey is what the position embedding of position i depends on: pos is
// a position with the key's residue and prefix class (itself within the
// longest table prefix, the first position after it with that residue
// otherwise), which the tables and PERIODIC predicates are read at.
type posKey struct {
	residue, pos     int
	first, last, mid bool
}

// positions is what the position embedding of a position depends on: the
// position keys, and the position predicates (first, last, Mid, MOD_r_p,
// PERIODIC) that tell them apart.
type positions struct {
	keys []posKey
	vars []posVar
}

// posVar is a position predicate and its value at every key.
type posVar struct {
	pred brasp.Predicate
	val  func(k posKey) bool
}

// expr reads position predicate v at i, declaring it on first use.
func (d *decompiler) posExpr(v posVar) brasp.Expr { return ref(d.g.pred(v.pred), brasp.VarI) }

// positions enumerates the position keys of the model's position
// embedding and the predicates that determine them.
func (d *decompiler) positions() (*positions, error) {
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
	ps := &positions{}
	// Positions 1..prefix each have a key of their own (pre = i), later
	// ones one per residue (pre = 0).
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
						ps.keys = append(ps.keys, posKey{r, pos, first, last, mid})
					}
				}
			}
		}
	}
	// The predicates: first, last, Mid, then MOD_r_p, then PERIODIC.
	if usesFirst {
		ps.vars = append(ps.vars, posVar{brasp.Predicate{Kind: brasp.First}, func(k posKey) bool { return k.first }})
	}
	if usesLast {
		ps.vars = append(ps.vars, posVar{brasp.Predicate{Kind: brasp.Last}, func(k posKey) bool { return k.last }})
	}
	if usesMid {
		ps.vars = append(ps.vars, posVar{brasp.Predicate{Kind: brasp.Mid}, func(k posKey) bool { return k.mid }})
	}
	for _, p := range periods {
		for r := range p {
			ps.vars = append(ps.vars, posVar{brasp.Predicate{Kind: brasp.Mod, R: r, M: p}, func(k posKey) bool { return k.residue%p == r }})
		}
	}
	seenTable := map[position.Periodic]bool{}
	for _, k := range tables {
		for _, pt := range tablePredicates(&m.Position[k]) {
			if seenTable[pt] {
				continue
			}
			seenTable[pt] = true
			ps.vars = append(ps.vars, posVar{brasp.Predicate{Kind: brasp.Periodic, Table: pt}, func(k posKey) bool { return pt.Holds(k.pos) }})
		}
	}
	return ps, nil
}

// positionValue adds the position embedding at key k to x (in place).
func (d *decompiler) positionValue(x transformer.Vec, k posKey) {
	for t := range d.m.Position {
		term := &d.m.Position[t]
		v := termValue(term, k)
		v.Mul(v, term.Scale)
		x[term.Coord].Add(x[term.Coord], v)
	}
}

// embedding enumerates the reachable embedding vectors (symbol embedding
// plus position embedding) and defines the layer-0 features from the
// symbol vectors Q_σ and the position predicates.
func (d *decompiler) embedding() (*level, error) {
	m := d.m
	ps, err := d.positions()
	if err != nil {
		return nil, err
	}
	// Input variables: Q_σ, then the position predicates (declared
	// lazily, only those a formula uses).
	S := len(m.Alphabet)
	cl := &classes{index: map[string]int{}, b: d.b}
	var points [][]bool
	var cls []int
	for sym := range m.Alphabet {
		for _, k := range ps.keys {
			x := m.Embedding[sym].Clone()
			d.positionValue(x, k)
			c, err := d.intern(cl, x, 0)
			if err != nil {
				return nil, err
			}
			row := make([]bool, S+len(ps.vars))
			row[sym] = true
			for v := range ps.vars {
				row[S+v] = ps.vars[v].val(k)
			}
			points = append(points, row)
			cls = append(cls, c)
		}
	}
	lv := &level{vecs: cl.vecs}
	d.info.Classes = append(d.info.Classes, len(lv.vecs))
	varExpr := func(v int) brasp.Expr {
		if v < S {
			return ref(v, brasp.VarI)
		}
		return d.posExpr(ps.vars[v-S])
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
