package softmax

import (
	"fmt"
	"math"

	"github.com/brasp-dev/brasp/budget"
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
