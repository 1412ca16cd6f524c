package softmax

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"github.com/brasp-dev/brasp/transformer"
)

// FormatVersion is the "format" of a softmax model file.
const FormatVersion = "brasp-softmax/1"

// file is the JSON layout of a softmax model: the hard model in the format
// of package transformer, the construction's parameters and the
// certificate.
type file struct {
	Format      string          `json:"format"`
	MaxLength   int             `json:"max_length"`
	Scale       float64         `json:"scale"`
	Heads       [][]Head        `json:"heads"`
	Certificate *Certificate    `json:"certificate"`
	Model       json.RawMessage `json:"model"`
}

// Encode writes m as JSON: {"format": "brasp-softmax/1", "max_length": N,
// "scale": λ, "heads": [[{"position_bias": b, "sink_logit": s}]],
// "certificate": {...}, "model": the hard model}. Floats are written in
// their shortest exact form.
func Encode(m *Model) ([]byte, error) {
	f := file{Format: FormatVersion, MaxLength: m.MaxLength, Scale: m.Scale, Heads: m.Heads,
		Certificate: m.Certificate, Model: transformer.EncodeJSON(m.Hard)}
	if f.Heads == nil {
		f.Heads = [][]Head{}
	}
	for l := range f.Heads {
		if f.Heads[l] == nil {
			f.Heads[l] = []Head{}
		}
	}
	return json.MarshalIndent(f, "", " ")
}

// Decode reads a softmax model written by Encode and checks that its heads
// match the hard model's.
func Decode(data []byte) (*Model, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f file
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("softmax model: %v", err)
	}
	if f.Format != FormatVersion {
		return nil, fmt.Errorf("softmax model: format %q, want %q", f.Format, FormatVersion)
	}
	hard, err := transformer.DecodeJSON(f.Model)
	if err != nil {
		return nil, fmt.Errorf("softmax model: model: %v", err)
	}
	if f.MaxLength < 1 {
		return nil, fmt.Errorf("softmax model: max_length %d is not positive", f.MaxLength)
	}
	if !(f.Scale > 0) || math.IsInf(f.Scale, 0) {
		return nil, fmt.Errorf("softmax model: scale %v is not a positive number", f.Scale)
	}
	if len(f.Heads) != len(hard.Layers) {
		return nil, fmt.Errorf("softmax model: heads for %d layers, the model has %d", len(f.Heads), len(hard.Layers))
	}
	for l := range f.Heads {
		if len(f.Heads[l]) != len(hard.Layers[l].Heads) {
			return nil, fmt.Errorf("softmax model: layer %d: %d heads, the model has %d", l, len(f.Heads[l]), len(hard.Layers[l].Heads))
		}
		for h, hd := range f.Heads[l] {
			if math.IsNaN(hd.PositionBias) || math.IsInf(hd.PositionBias, 0) || math.IsNaN(hd.SinkLogit) || math.IsInf(hd.SinkLogit, 0) {
				return nil, fmt.Errorf("softmax model: layer %d head %d: bias and sink must be finite", l, h)
			}
		}
	}
	return &Model{Hard: hard, MaxLength: f.MaxLength, Scale: f.Scale, Heads: f.Heads, Certificate: f.Certificate}, nil
}

// Forward runs the softmax model on w in float64 (O(n²·d) per head) and
// returns every position's final activation.
func (m *Model) Forward(w []int) ([][]float64, error) {
	hm := m.Hard
	n, d := len(w), hm.Width
	if n == 0 {
		return nil, transformer.ErrEmptyWord
	}
	if hm.Props != nil {
		return nil, fmt.Errorf("the model reads traces of proposition sets: run the model OverSteps returns")
	}
	xs := make([][]float64, n)
	for i, s := range w {
		if s < 0 || s >= len(hm.Alphabet) {
			return nil, fmt.Errorf("position %d: symbol index %d is not in the alphabet", i+1, s)
		}
		xs[i] = floats(hm.Embedding[s])
		for _, t := range hm.Position {
			v := t.Value(i+1, n)
			v.Mul(v, t.Scale)
			xs[i][t.Coord] += ratFloat(v)
		}
	}
	for l := range hm.Layers {
		layer := &hm.Layers[l]
		cs := make([][]float64, n)
		for i := range cs {
			cs[i] = append([]float64(nil), xs[i]...)
		}
		for h := range layer.Heads {
			hd := &layer.Heads[h]
			sh := m.Heads[l][h]
			S, V := floatMatrix(hd.Score), floatMatrix(hd.Value)
			keys := make([][]float64, n)
			vals := make([][]float64, n)
			for j := range n {
				keys[j], vals[j] = mul(S, xs[j]), mul(V, xs[j])
			}
			logits := make([]float64, n)
			for i := range n {
				best := m.Scale * sh.SinkLogit
				for j := range n {
					if hd.Mask.Allows(i, j) {
						logits[j] = m.Scale * (dotF(xs[i], keys[j]) + sh.PositionBias*float64(j+1))
						best = math.Max(best, logits[j])
					}
				}
				total := math.Exp(m.Scale*sh.SinkLogit - best)
				out := make([]float64, d)
				for j := range n {
					if hd.Mask.Allows(i, j) {
						wgt := math.Exp(logits[j] - best)
						total += wgt
						for k, v := range vals[j] {
							out[k] += wgt * v
						}
					}
				}
				for k := range out {
					cs[i][k] += out[k] / total
				}
			}
		}
		var w1, w2 [][]float64
		if f := layer.FFN; f != nil {
			w1, w2 = floatMatrix(f.W1), floatMatrix(f.W2)
		}
		for i := range n {
			y := cs[i]
			if f := layer.FFN; f != nil {
				hid := mul(w1, y)
				for k := range hid {
					hid[k] = math.Max(0, hid[k]+ratFloat(f.B1[k]))
				}
				out := mul(w2, hid)
				for k := range out {
					out[k] += ratFloat(f.B2[k]) + y[k]
				}
				y = out
			}
			xs[i] = y
		}
	}
	return xs, nil
}

// OverSteps returns, for a model over propositions, a softmax model over
// symbols that runs the given trace (each step a bit set over indices of
// Hard.Props) as the returned word: its hard model is Hard.OverSteps's
// (one symbol per distinct step, embedded by its multi-hot embedding) and
// every softmax parameter is m's. The certificate covers it, since every
// step's embedding is among those the export enumerated.
func (m *Model) OverSteps(steps [][]uint64) (*Model, []int, error) {
	hard, w, err := m.Hard.OverSteps(steps)
	if err != nil {
		return nil, nil, err
	}
	sm := *m
	sm.Hard = hard
	return &sm, w, nil
}

// Accepts runs the softmax acceptor on w.
func (m *Model) Accepts(w []int) (bool, error) {
	xs, err := m.Forward(w)
	if err != nil {
		return false, err
	}
	o := m.Hard.Output
	if o.Weight == nil {
		return false, fmt.Errorf("the model is a transducer, not an acceptor")
	}
	return dotF(floats(o.Weight), xs[len(xs)-1])+ratFloat(o.Bias) >= 0, nil
}

// Transduce runs the softmax transducer on w.
func (m *Model) Transduce(w []int) ([]int, error) {
	t := m.Hard.Transduction
	if t == nil {
		return nil, fmt.Errorf("the model is an acceptor, not a transducer")
	}
	xs, err := m.Forward(w)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = -1
		for g := range t.Symbols {
			if dotF(floats(t.Weight[g]), x)+ratFloat(t.Bias[g]) >= 0 {
				if out[i] >= 0 {
					return nil, fmt.Errorf("position %d: two output symbols score ≥ 0", i+1)
				}
				out[i] = g
			}
		}
		if out[i] < 0 {
			return nil, fmt.Errorf("position %d: no output symbol scores ≥ 0", i+1)
		}
	}
	return out, nil
}

func floats(v transformer.Vec) []float64 {
	out := make([]float64, len(v))
	for k, x := range v {
		out[k] = ratFloat(x)
	}
	return out
}

func floatMatrix(m transformer.Matrix) [][]float64 {
	out := make([][]float64, len(m))
	for r, row := range m {
		out[r] = floats(row)
	}
	return out
}

func mul(m [][]float64, x []float64) []float64 {
	out := make([]float64, len(m))
	for r, row := range m {
		s := 0.0
		for c, w := range row {
			if w != 0 {
				s += w * x[c]
			}
		}
		out[r] = s
	}
	return out
}

func dotF(x, y []float64) float64 {
	s := 0.0
	for k := range x {
		s += x[k] * y[k]
	}
	return s
}
