package decompile

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/transformer"
)

// evalSOP evaluates s at a point.
func evalSOP(s sop, p []bool) bool {
	v := false
	for _, c := range s.cubes {
		all := true
		for _, l := range c {
			if p[l.v] == l.neg {
				all = false
				break
			}
		}
		if all {
			v = true
			break
		}
	}
	return v != s.negated
}

// TestSynthesizeRandom: on random partial functions (a random subset of
// the assignments of up to 10 variables, the rest don't-cares) the
// synthesised formula agrees with the function on every point of the
// domain, both in the Quine–McCluskey range and above it.
func TestSynthesizeRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for k := range 400 {
		nv := 1 + k%10
		seen := map[int]bool{}
		var points [][]bool
		var out []bool
		// The function depends on a few of the variables only.
		dep := []int{rng.IntN(nv), rng.IntN(nv), rng.IntN(nv)}
		table := rng.Uint32()
		for range 1 + rng.IntN(1<<min(nv, 7)) {
			m := rng.IntN(1 << nv)
			if seen[m] {
				continue
			}
			seen[m] = true
			p := make([]bool, nv)
			for b := range nv {
				p[b] = m>>b&1 == 1
			}
			idx := 0
			for b, v := range dep {
				if p[v] {
					idx |= 1 << b
				}
			}
			points = append(points, p)
			out = append(out, table>>idx&1 == 1)
		}
		s, ok := synthesize(points, out)
		if !ok {
			t.Fatalf("case %d: synthesis failed", k)
		}
		for i, p := range points {
			if evalSOP(s, p) != out[i] {
				t.Fatalf("case %d: formula %v disagrees at %v", k, s, p)
			}
		}
	}
}

// TestSynthesizeMinimal: the prime implicants make majority-of-three the
// three two-literal cubes, and don't-cares shrink a function to one
// literal.
func TestSynthesizeMinimal(t *testing.T) {
	var points [][]bool
	var out []bool
	for m := range 8 {
		p := []bool{m&1 == 1, m&2 == 2, m&4 == 4}
		n := 0
		for _, b := range p {
			if b {
				n++
			}
		}
		points = append(points, p)
		out = append(out, n >= 2)
	}
	s, _ := synthesize(points, out)
	if len(s.cubes) != 3 || s.size() != 6 {
		t.Errorf("majority: got %v, want 3 cubes of 2 literals", s)
	}
	// x0 ∧ x1 on a domain where x1 is always 1: just x0.
	points = [][]bool{{false, true}, {true, true}}
	out = []bool{false, true}
	s, _ = synthesize(points, out)
	if s.size() != 1 {
		t.Errorf("don't-cares: got %v, want a single literal", s)
	}
	// A function of no input is a constant.
	s, _ = synthesize(points, []bool{true, true})
	if len(s.cubes) != 0 || !s.negated {
		t.Errorf("constant: got %v", s)
	}
}

// TestMergeIdentical: a model with two identical heads writing two
// coordinates, both read by the output, decompiles to a single attention
// operation (identical vectors merged, the copy dropped).
func TestMergeIdentical(t *testing.T) {
	m := prevIsA()
	m.Width = 4
	m.Labels = append(m.Labels, "prev_a2")
	for k := range m.Embedding {
		m.Embedding[k] = append(m.Embedding[k], r(0, 1))
	}
	hd := m.Layers[0].Heads[0]
	grow := func(x transformer.Matrix) transformer.Matrix {
		y := zeroMatrix(4)
		for i := range x {
			copy(y[i], x[i])
		}
		return y
	}
	h1 := transformer.Head{Mask: hd.Mask, Tiebreak: hd.Tiebreak, Score: grow(hd.Score), Value: grow(hd.Value)}
	h2 := transformer.Head{Mask: hd.Mask, Tiebreak: hd.Tiebreak, Score: grow(hd.Score), Value: zeroMatrix(4)}
	h2.Value[3][0] = r(1, 1)
	m.Layers[0].Heads = []transformer.Head{h1, h2}
	m.Output = transformer.Output{Weight: transformer.Vec{r(0, 1), r(0, 1), r(1, 1), r(1, 1)}, Bias: r(-2, 1)}
	p, err := Decompile(nil, m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	att := 0
	for _, v := range p.Vectors {
		if v.Kind == brasp.AttentionVector {
			att++
		}
	}
	if att != 1 {
		t.Errorf("want one attention operation, got %d:\n%s", att, brasp.Format(p))
	}
	agree(t, "two identical heads", m, p, 6, 0, nil)
}

// TestSynthesizeDeterministic: the same partial function gives the same
// formula every time, however Go walks the maps of the prime search, so
// that decompiling a model prints the same program on every run.
func TestSynthesizeDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for k := range 100 {
		nv := 3 + k%4
		var points [][]bool
		var out []bool
		for m := range 1 << nv {
			if rng.IntN(4) == 0 {
				continue // a don't-care
			}
			p := make([]bool, nv)
			for b := range nv {
				p[b] = m>>b&1 == 1
			}
			points = append(points, p)
			out = append(out, rng.IntN(2) == 0)
		}
		if len(points) == 0 {
			continue
		}
		first, ok := synthesize(points, out)
		if !ok {
			t.Fatalf("case %d: synthesis failed", k)
		}
		want := fmt.Sprint(first)
		for range 20 {
			s, _ := synthesize(points, out)
			if got := fmt.Sprint(s); got != want {
				t.Fatalf("case %d: formula %s, then %s", k, want, got)
			}
		}
	}
}
