package softmax

import (
	"fmt"
	"math"
	"math/big"
	"sort"

	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/position"
	"github.com/brasp-dev/brasp/transformer"
)

// maxVectorBytes bounds the reachable activation vectors the export holds
// per layer (their size in bytes, about 40 bytes per coordinate).
var maxVectorBytes = budget.Define("softmax-bytes", 1<<28, "bytes",
	"memory for the reachable activation vectors of the softmax export's certificate")

// MaxScaleExponent bounds log2 of the scale λ the export tries.
const MaxScaleExponent = 1000

// Model is a softmax-attention transformer: the hard model's parameters
// with, per head, the softmax parameters of the construction (see the
// package documentation), valid for words of length at most MaxLength.
type Model struct {
	Hard      *transformer.Model
	MaxLength int
	// Scale is λ.
	Scale float64
	// Heads[l][h] are the softmax parameters of head h of layer l.
	Heads [][]Head
	// Certificate proves agreement with Hard up to MaxLength.
	Certificate *Certificate
}

// Head holds one head's softmax parameters.
type Head struct {
	// PositionBias is b: position j's logit is λ·(score + b·j), j 1-based.
	PositionBias float64 `json:"position_bias"`
	// SinkLogit is s: the sink's logit is λ·s; its value is 0.
	SinkLogit float64 `json:"sink_logit"`
}

// Certificate is the chain of bounds of the package documentation.
type Certificate struct {
	MaxLength int          `json:"max_length"`
	Scale     float64      `json:"scale"`
	Layers    []LayerBound `json:"layers"`
	// OutputMargin is the least |score| of an output over reachable final
	// vectors; OutputError bounds how far the softmax model's output
	// scores move. OutputError < OutputMargin proves agreement.
	OutputMargin float64 `json:"output_margin"`
	OutputError  float64 `json:"output_error"`
	// OutputWeight is ‖w‖₁ of the output weights (the largest over a
	// transducer's symbols): OutputError = OutputWeight · e_L.
	OutputWeight float64 `json:"output_weight"`
}

// LayerBound is one layer of the certificate.
type LayerBound struct {
	// Vectors is the size of R_l, the reachable activations entering it.
	Vectors int `json:"vectors"`
	// InputError is e_l; OutputError is e_{l+1}.
	InputError  float64 `json:"input_error"`
	OutputError float64 `json:"output_error"`
	// FFNLipschitz is ‖W2‖∞‖W1‖∞ (0 without an FFN).
	FFNLipschitz float64     `json:"ffn_lipschitz"`
	Heads        []HeadBound `json:"heads"`
}

// HeadBound is one head of the certificate.
type HeadBound struct {
	// Gap is δ, Bias is β = δ/(2N), ScoreError is σ, Margin is γ = β − 2σ,
	// Leak is η = N·exp(−λγ), OutputError is ε.
	Gap         float64 `json:"gap"`
	Bias        float64 `json:"bias"`
	ScoreError  float64 `json:"score_error"`
	Margin      float64 `json:"margin"`
	Leak        float64 `json:"leak"`
	OutputError float64 `json:"output_error"`
	// ScoreBound is the largest |score| between reachable vectors (float32
	// error estimates use it).
	ScoreBound float64 `json:"score_bound"`
	// A, B, C, D and VNorm are the constants of the bound.
	A     float64 `json:"a"`
	B     float64 `json:"b"`
	C     float64 `json:"c"`
	D     float64 `json:"d"`
	VNorm float64 `json:"v_norm"`
}

// headStats are the exact constants of one head over R_l.
type headStats struct {
	gap, minScore     *big.Rat
	a, b, c, d, vnorm float64
	scoreBound        float64
	values            []transformer.Vec
	rightmost         bool
}

// Export builds the softmax model of m for words of length at most maxLen
// and its certificate, or says why it cannot (layer norm, a margin of 0,
// a limit of b).
func Export(b *budget.Budget, m *transformer.Model, maxLen int) (*Model, error) {
	if maxLen < 1 {
		return nil, fmt.Errorf("softmax: --max-length must be at least 1 (got %d)", maxLen)
	}
	for l, layer := range m.Layers {
		if layer.AttentionNorm != nil || layer.FFNNorm != nil {
			return nil, fmt.Errorf("softmax: layer %d has layer norm, which the export does not bound; compile without --layernorm", l)
		}
	}
	meter := b.Meter(maxVectorBytes, "reachable activation vectors of the softmax certificate")
	R, err := embeddings(b, meter, m)
	if err != nil {
		return nil, err
	}
	stats := make([][]headStats, len(m.Layers))
	lips := make([]float64, len(m.Layers))
	sizes := make([]int, len(m.Layers))
	for l := range m.Layers {
		layer := &m.Layers[l]
		sizes[l] = len(R)
		for h := range layer.Heads {
			st, err := headConstants(b, &layer.Heads[h], R)
			if err != nil {
				return nil, err
			}
			stats[l] = append(stats[l], st)
		}
		if layer.FFN != nil {
			lips[l] = up(opNorm(layer.FFN.W2) * opNorm(layer.FFN.W1))
		}
		if R, err = nextLayer(b, meter, layer, stats[l], R); err != nil {
			return nil, err
		}
	}
	margin, weights := outputMargin(m, R)
	if margin.Sign() == 0 {
		return nil, fmt.Errorf("softmax: some reachable final vector scores exactly 0 at the output, so no error bound can keep its verdict; nothing to certify")
	}
	N := float64(maxLen)
	marginF := down(ratFloat(margin))
	for k := 0; k <= MaxScaleExponent; k++ {
		lambda := math.Ldexp(1, k)
		cert, ok := chain(m, stats, lips, sizes, N, lambda, weights)
		if !ok {
			continue
		}
		cert.MaxLength, cert.OutputMargin = maxLen, marginF
		if cert.OutputError < marginF {
			return build(m, stats, maxLen, lambda, cert), nil
		}
	}
	return nil, fmt.Errorf("softmax: no scale up to 2^%d makes the error bound smaller than the output margin for words of length %d", MaxScaleExponent, maxLen)
}

// chain propagates the error bound through the layers at scale lambda; ok
// is false when some head's margin γ is not positive.
func chain(m *transformer.Model, stats [][]headStats, lips []float64, sizes []int, N, lambda, outWeight float64) (*Certificate, bool) {
	cert := &Certificate{Scale: lambda}
	e := 0.0
	for l := range m.Layers {
		lb := LayerBound{Vectors: sizes[l], InputError: e, FFNLipschitz: lips[l]}
		ec := e
		for _, st := range stats[l] {
			delta := down(ratFloat(st.gap))
			beta := down(delta / (2 * N))
			sigma := up(e*(st.a+st.b) + e*e*st.c)
			gamma := down(beta - 2*sigma)
			if !(gamma > 0) {
				return nil, false
			}
			leak := up(math.Exp(math.Log(N) - lambda*gamma))
			if leak < 0x1p-1000 {
				leak = 0x1p-1000
			}
			eps := up(st.vnorm*e + leak*(st.d+2*st.vnorm*e))
			ec = up(ec + eps)
			lb.Heads = append(lb.Heads, HeadBound{Gap: delta, Bias: beta, ScoreError: sigma, Margin: gamma, Leak: leak,
				OutputError: eps, ScoreBound: st.scoreBound, A: st.a, B: st.b, C: st.c, D: st.d, VNorm: st.vnorm})
		}
		if m.Layers[l].FFN != nil {
			ec = up(ec * (1 + lips[l]))
		}
		lb.OutputError = ec
		cert.Layers = append(cert.Layers, lb)
		e = ec
	}
	cert.OutputWeight = outWeight
	cert.OutputError = up(outWeight * e)
	return cert, true
}

func build(m *transformer.Model, stats [][]headStats, maxLen int, lambda float64, cert *Certificate) *Model {
	sm := &Model{Hard: m, MaxLength: maxLen, Scale: lambda, Certificate: cert}
	for l := range m.Layers {
		var hs []Head
		for h, st := range stats[l] {
			beta := cert.Layers[l].Heads[h].Bias
			if !st.rightmost {
				beta = -beta
			}
			sink := down(ratFloat(st.minScore) - ratFloat(st.gap))
			hs = append(hs, Head{PositionBias: beta, SinkLogit: sink})
		}
		sm.Heads = append(sm.Heads, hs)
	}
	return sm
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

// vecBytes estimates the memory of a vector of d rationals.
func vecBytes(d int) int64 { return int64(d) * 40 }

// embeddings returns R_0: every symbol's embedding plus every combination
// of position-term values.
func embeddings(b *budget.Budget, meter *budget.Meter, m *transformer.Model) ([]transformer.Vec, error) {
	period, prefix := 1, 0 // prefix: the longest table prefix
	for _, t := range m.Position {
		p := 0
		switch t.Kind {
		case transformer.PosSin, transformer.PosCos:
			if !t.Frequency.Denom().IsInt64() || t.Frequency.Denom().Int64() > transformer.MaxPositionPeriod {
				return nil, fmt.Errorf("softmax: a sinusoid's period is above %d", transformer.MaxPositionPeriod)
			}
			p = int(t.Frequency.Denom().Int64())
		case transformer.PosMod:
			p = t.M
		case transformer.PosTable:
			p = len(t.Period)
			prefix = max(prefix, len(t.Prefix))
		}
		if p > 1 {
			period = lcm(period, p)
			if period > transformer.MaxPositionPeriod {
				return nil, fmt.Errorf("softmax: the position terms' period is above %d", transformer.MaxPositionPeriod)
			}
		}
	}
	// Position i with residue r (i itself, pre, within the tables' prefix;
	// pre = 0 after it), and the flags first (i = 1), last (i = n), mid (n
	// odd, i = (n+1)/2): every consistent combination is realised by some
	// (i, n); all combinations are a superset.
	seen := map[string]bool{}
	var R []transformer.Vec
	for pre := 0; pre <= prefix; pre++ {
		for r := 0; r < period; r++ {
			if pre > 0 && r != pre%period {
				continue
			}
			for flags := 0; flags < 8; flags++ {
				first, last, mid := flags&1 != 0, flags&2 != 0, flags&4 != 0
				if first && (r != 1%period || pre != min(1, prefix)) {
					continue
				}
				theta := make(transformer.Vec, m.Width)
				for k := range theta {
					theta[k] = new(big.Rat)
				}
				for _, t := range m.Position {
					var v *big.Rat
					switch t.Kind {
					case transformer.PosSin, transformer.PosCos:
						v = transformer.Sinusoid(t.Frequency, r, t.Kind == transformer.PosCos)
					case transformer.PosTable:
						i := pre
						if i == 0 {
							// A position after every prefix with residue r.
							i = prefix + 1 + ((r-prefix-1)%period+period)%period
						}
						v = new(big.Rat).Set(t.TableValue(i))
					default:
						var holds bool
						switch t.Kind {
						case transformer.PosFirst:
							holds = first
						case transformer.PosLast:
							holds = last
						case transformer.PosMid:
							holds = mid
						case transformer.PosMod:
							holds = r%t.M == t.R
						}
						v = new(big.Rat)
						if holds != t.Negated {
							v.SetInt64(1)
						}
					}
					theta[t.Coord].Add(theta[t.Coord], v.Mul(v, t.Scale))
				}
				for _, e := range m.Embedding {
					x := make(transformer.Vec, m.Width)
					for k := range x {
						x[k] = new(big.Rat).Add(e[k], theta[k])
					}
					if key := x.Key(); !seen[key] {
						seen[key] = true
						if err := meter.Add(vecBytes(m.Width)); err != nil {
							return nil, err
						}
						R = append(R, x)
					}
				}
			}
			if err := b.Step(int64(m.Width * len(m.Embedding) * 8)); err != nil {
				return nil, err
			}
		}
	}
	return R, nil
}

func lcm(a, b int) int {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return a / x * b
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

// nextLayer returns R_{l+1}: FFN(x + Σ_h v_h) for x ∈ R and v_h among head
// h's values (0 included).
func nextLayer(b *budget.Budget, meter *budget.Meter, layer *transformer.Layer, stats []headStats, R []transformer.Vec) ([]transformer.Vec, error) {
	seen := map[string]bool{}
	var next []transformer.Vec
	d := len(R[0])
	choice := make([]int, len(stats))
	for _, x := range R {
		for k := range choice {
			choice[k] = 0
		}
		for {
			c := make(transformer.Vec, d)
			for k := range c {
				c[k] = new(big.Rat).Set(x[k])
			}
			for h, st := range stats {
				v := st.values[choice[h]]
				for k := range c {
					if v[k].Sign() != 0 {
						c[k].Add(c[k], v[k])
					}
				}
			}
			y := c
			if f := layer.FFN; f != nil {
				hid := f.W1.MulVec(c)
				for k := range hid {
					hid[k].Add(hid[k], f.B1[k])
					if hid[k].Sign() < 0 {
						hid[k].SetInt64(0)
					}
				}
				out := f.W2.MulVec(hid)
				for k := range out {
					out[k].Add(out[k], f.B2[k])
					out[k].Add(out[k], c[k])
				}
				y = out
			}
			if key := y.Key(); !seen[key] {
				seen[key] = true
				if err := meter.Add(vecBytes(d)); err != nil {
					return nil, err
				}
				next = append(next, y)
			}
			if err := b.Step(int64(d * d)); err != nil {
				return nil, err
			}
			h := 0
			for h < len(choice) {
				choice[h]++
				if choice[h] < len(stats[h].values) {
					break
				}
				choice[h] = 0
				h++
			}
			if h == len(choice) {
				break
			}
		}
	}
	return next, nil
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
