package softmax

import (
	"math"
	"math/big"
	"sort"

	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/position"
	"github.com/brasp-dev/brasp/transformer"
)

// headStats are the exact constants of one head over R_l.
type headStats struct {
	gap, minScore     *big.Rat
	a, b, c, d, vnorm float64
	scoreBound        float64
	values            []transformer.Vec
	rightmost         bool
}

// up and down round a bound outward by a relative 2⁻³⁰ (and an absolute
// 2⁻¹⁰⁰⁰ near 0), covering the float64 rounding of the chain.
func up(x float64) float64 {
	return x + math.Abs(x)*0x1p-30 + 0x1p-1000
}

func down(x float64) float64 {
	return x - math.Abs(x)*0x1p-30 - 0x1p-1000
}

func ratFloat(r *big.Rat) float64 {
	f, _ := r.Float64()
	return f
}

func norm1(v transformer.Vec) float64 {
	s := new(big.Rat)
	for _, x := range v {
		s.Add(s, new(big.Rat).Abs(x))
	}
	return up(ratFloat(s))
}

// opNorm is the ∞-operator norm of a matrix: its largest row sum of |entries|.
func opNorm(mat transformer.Matrix) float64 {
	best := 0.0
	for _, row := range mat {
		best = math.Max(best, norm1(row))
	}
	return best
}

func transpose(mat transformer.Matrix) transformer.Matrix {
	if len(mat) == 0 {
		return nil
	}
	out := make(transformer.Matrix, len(mat[0]))
	for c := range out {
		out[c] = make(transformer.Vec, len(mat))
		for r := range mat {
			out[c][r] = mat[r][c]
		}
	}
	return out
}

// headConstants computes one head's exact constants over R.
func headConstants(b *budget.Budget, hd *transformer.Head, R []transformer.Vec) (headStats, error) {
	st := headStats{rightmost: hd.Tiebreak == position.Rightmost}
	keys := make([]transformer.Vec, len(R))
	St := transpose(hd.Score)
	for k, y := range R {
		keys[k] = hd.Score.MulVec(y)
		st.a = math.Max(st.a, norm1(keys[k]))
		st.b = math.Max(st.b, norm1(St.MulVec(y)))
	}
	cs := new(big.Rat)
	for _, row := range hd.Score {
		for _, w := range row {
			cs.Add(cs, new(big.Rat).Abs(w))
		}
	}
	st.c = up(ratFloat(cs))
	distinct := map[string]*big.Rat{}
	for _, x := range R {
		for _, k := range keys {
			s := x.Dot(k)
			distinct[s.RatString()] = s
		}
		if err := b.Step(int64(len(R) * len(x))); err != nil {
			return st, err
		}
	}
	scores := make([]*big.Rat, 0, len(distinct))
	for _, s := range distinct {
		scores = append(scores, s)
	}
	sort.Slice(scores, func(i, j int) bool { return scores[i].Cmp(scores[j]) < 0 })
	st.minScore = scores[0]
	st.scoreBound = up(math.Max(math.Abs(ratFloat(scores[0])), math.Abs(ratFloat(scores[len(scores)-1]))))
	st.gap = big.NewRat(1, 1)
	for k := 1; k < len(scores); k++ {
		d := new(big.Rat).Sub(scores[k], scores[k-1])
		if k == 1 || d.Cmp(st.gap) < 0 {
			st.gap = d
		}
	}
	zero := make(transformer.Vec, len(hd.Value))
	for k := range zero {
		zero[k] = new(big.Rat)
	}
	seen := map[string]bool{zero.Key(): true}
	st.values = []transformer.Vec{zero}
	for _, y := range R {
		v := hd.Value.MulVec(y)
		if key := v.Key(); !seen[key] {
			seen[key] = true
			st.values = append(st.values, v)
		}
	}
	for _, u := range st.values {
		for _, v := range st.values {
			for k := range u {
				st.d = math.Max(st.d, up(math.Abs(ratFloat(new(big.Rat).Sub(u[k], v[k])))))
			}
		}
	}
	st.vnorm = opNorm(hd.Value)
	return st, nil
}

// outputMargin returns the least |score| of the output layer over R and
// the ‖·‖₁ of the output weights (the largest over a transducer's symbols).
func outputMargin(m *transformer.Model, R []transformer.Vec) (*big.Rat, float64) {
	var margin *big.Rat
	weight := 0.0
	consider := func(w transformer.Vec, bias *big.Rat) {
		weight = math.Max(weight, norm1(w))
		for _, x := range R {
			s := w.Dot(x)
			s.Add(s, bias)
			s.Abs(s)
			if margin == nil || s.Cmp(margin) < 0 {
				margin = s
			}
		}
	}
	if t := m.Transduction; t != nil {
		for g := range t.Symbols {
			consider(t.Weight[g], t.Bias[g])
		}
	} else if m.Output.Weight != nil {
		consider(m.Output.Weight, m.Output.Bias)
	}
	if margin == nil {
		margin = new(big.Rat)
	}
	return margin, weight
}
