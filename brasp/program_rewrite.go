package brasp

import (
	"fmt"
	"strings"
)

// rewriter builds a new program from an old one, vector by vector. Kept
// vectors keep their names; new vectors get fresh names that clash with no
// name of the old program, so that every old name stays available.
type rewriter struct {
	src   *Program
	dst   *Program
	names map[string]bool
	remap []int // old vector index → new vector index (-1 if dropped)
}

func newRewriter(p *Program) *rewriter {
	r := &rewriter{
		src:   p,
		dst:   &Program{File: p.File, Alphabet: p.Alphabet, Props: p.Props},
		names: make(map[string]bool, 2*len(p.Vectors)),
		remap: make([]int, len(p.Vectors)),
	}
	for k, v := range p.Vectors {
		r.names[v.Name] = true
		r.remap[k] = -1
	}
	return r
}

// fresh returns base if no vector is named so and base cannot be mistaken
// for a reserved word or an initial vector; otherwise base_1, base_2, ...
func (r *rewriter) fresh(base string) string {
	if strings.HasPrefix(base, "Q_") {
		base = "V" + base // Q_... names are reserved for symbols
	}
	ok := func(s string) bool { return !r.names[s] && !reserved[s] && !isPredicateName(s) }
	name := base
	for n := 1; !ok(name); n++ {
		name = fmt.Sprintf("%s_%d", base, n)
	}
	r.names[name] = true
	return name
}

// add appends a new vector and returns its index in the new program.
func (r *rewriter) add(v *Vector) int {
	r.dst.Vectors = append(r.dst.Vectors, v)
	return len(r.dst.Vectors) - 1
}

// keep appends v as the new definition of old vector k.
func (r *rewriter) keep(k int, v *Vector) {
	r.remap[k] = r.add(v)
}

// ref returns a reference to new vector k at position x.
func (r *rewriter) ref(k int, x Var) *Ref {
	return &Ref{Name: r.dst.Vectors[k].Name, Var: x, Vec: k}
}

// copyExpr copies an expression of the old program into the new one,
// following the renumbering of vectors.
func (r *rewriter) copyExpr(e Expr) Expr {
	return MapRefs(e, func(x *Ref) Expr { return r.ref(r.remap[x.Vec], x.Var) })
}

// copyVector copies old vector k unchanged (up to renumbering).
func (r *rewriter) copyVector(k int) {
	v := r.src.Vectors[k]
	nv := &Vector{Name: v.Name, Kind: v.Kind, Symbol: v.Symbol, Prop: v.Prop, Pred: v.Pred}
	switch v.Kind {
	case PositionwiseVector:
		nv.Expr = r.copyExpr(v.Expr)
	case AttentionVector:
		a := v.Att
		nv.Att = &Attention{Tiebreak: a.Tiebreak, Mask: a.Mask,
			Score: r.copyExpr(a.Score), Value: r.copyExpr(a.Value), Default: r.copyExpr(a.Default)}
	}
	r.keep(k, nv)
}

// finish sets the output of the new program from the old one.
func (r *rewriter) finish() *Program {
	o := r.src.Output
	out := Output{Explicit: o.Explicit, Accept: -1, Symbols: o.Symbols}
	if o.Symbols != nil {
		out.Vectors = make([]int, len(o.Vectors))
		for k, v := range o.Vectors {
			out.Vectors[k] = r.remap[v]
		}
	} else if o.Accept >= 0 {
		out.Accept = r.remap[o.Accept]
	}
	r.dst.Output = out
	if out.Symbols == nil && out.Accept != r.dst.defaultOutput() {
		r.dst.Output.Explicit = true
	}
	return r.dst
}
