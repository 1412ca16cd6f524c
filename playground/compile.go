package playground

import (
	"fmt"
	"math"
	"math/big"
	"net/http"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/transformer"
)

// CompileRequest is the body of POST /api/compile and POST /api/model.
type CompileRequest struct {
	Program string `json:"program"`
	// Word is the word to run the compiled model on (/api/compile only).
	Word string `json:"word"`
	// MultiHead selects the depth-preserving multi-head construction
	// (Thm C.4) instead of the sequential one (Thm 4.1).
	MultiHead bool `json:"multihead"`
	// LayerNorm selects the layer-norm construction of §4.3.
	LayerNorm bool `json:"layernorm"`
	// Format is "json" or "safetensors" (/api/model only).
	Format string `json:"format"`
}

// CompileResponse is the answer of POST /api/compile.
type CompileResponse struct {
	// Layers is the number of layers; AttentionLayers those with heads.
	Layers          int `json:"layers"`
	AttentionLayers int `json:"attentionLayers"`
	Heads           int `json:"heads"`
	Width           int `json:"width"`
	Params          int `json:"params"`
	// Labels name the residual coordinates.
	Labels []string `json:"labels"`
	// LayerInfo describes each layer.
	LayerInfo []LayerInfo `json:"layerInfo"`
	// ProgramAccept is the program's verdict on the word, ModelAccept the
	// forward pass's; Agree says whether they are equal. All three are
	// absent for the empty word.
	ProgramAccept *bool `json:"programAccept,omitempty"`
	ModelAccept   *bool `json:"modelAccept,omitempty"`
	Agree         *bool `json:"agree,omitempty"`
	// OutputScore is Weight·x_n + Bias, exact (±1/2 for compiled models).
	OutputScore string `json:"outputScore,omitempty"`
	// Note explains a missing attention pattern.
	Note string `json:"note,omitempty"`
}

// LayerInfo is one layer of a compiled model.
type LayerInfo struct {
	Heads []HeadInfo `json:"heads"`
	// FFNHidden is the hidden width of the layer's FFN (0 without one).
	FFNHidden int  `json:"ffnHidden"`
	LayerNorm bool `json:"layernorm"`
}

// HeadInfo is one attention head and the position it attends to at each
// position of the word.
type HeadInfo struct {
	Mask     string `json:"mask"`
	Tiebreak string `json:"tiebreak"`
	// QueryReads, KeyReads and ValueReads are the labels of the residual
	// coordinates the score reads at i and at j, and the value reads at j;
	// Writes those the value writes.
	QueryReads []string `json:"queryReads"`
	KeyReads   []string `json:"keyReads"`
	ValueReads []string `json:"valueReads"`
	Writes     []string `json:"writes"`
	// Attended[i-1] is the 1-based position the head attends to at
	// position i, 0 when every position is masked. Omitted for long words.
	Attended []int `json:"attended,omitempty"`
}

func compileOptions(req *CompileRequest) transformer.CompileOptions {
	return transformer.CompileOptions{MultiHead: req.MultiHead, LayerNorm: req.LayerNorm}
}

func compileProgram(req *CompileRequest) (*brasp.Program, *transformer.Model, *apiError) {
	p, e := parseProgram(req.Program)
	if e != nil {
		return nil, nil, e
	}
	if p.IsTransducer() {
		return nil, nil, badRequest("program", "compile: the program is a transducer; the compiler of Thm 4.1 builds acceptors (remove the output line with symbols)")
	}
	m, err := transformer.Compile(p, compileOptions(req))
	if err != nil {
		return nil, nil, badRequest("program", "compile: %v", err)
	}
	return p, m, nil
}

func (s *Server) compile(req *CompileRequest) (any, *apiError) {
	p, m, e := compileProgram(req)
	if e != nil {
		return nil, e
	}
	w, e := s.parseWord(p.Alphabet, req.Word)
	if e != nil {
		return nil, e
	}
	res := &CompileResponse{
		Layers:          len(m.Layers),
		AttentionLayers: m.AttentionLayers(),
		Heads:           m.NumHeads(),
		Width:           m.Width,
		Params:          m.NumParams(),
		Labels:          m.Labels,
	}
	var pattern [][][]int
	switch {
	case len(w) == 0:
		res.Note = "type a word to see the verdicts and the attention pattern"
	case len(w) > s.cfg.MaxPatternWord:
		res.Note = fmt.Sprintf("the attention pattern is shown for words of up to %d symbols", s.cfg.MaxPatternWord)
	case m.NumHeads()*len(w)*len(w)*m.Width > patternBudget:
		res.Note = "the model and the word are too large for the playground to show the attention pattern"
	default:
		var final []transformer.Vec
		pattern, final = AttentionPattern(m, w)
		// The pattern is recomputed here for display; show it only if it
		// leads to the model's own activations.
		if dense, err := m.ForwardDense(w); err != nil || !sameActivations(dense, final) {
			pattern = nil
			res.Note = "the attention pattern is not available for this model"
		}
	}
	for l := range m.Layers {
		layer := &m.Layers[l]
		li := LayerInfo{LayerNorm: layer.AttentionNorm != nil || layer.FFNNorm != nil}
		if layer.FFN != nil {
			li.FFNHidden = layer.FFN.Hidden()
		}
		for h := range layer.Heads {
			hd := &layer.Heads[h]
			hi := HeadInfo{Mask: hd.Mask.String(), Tiebreak: hd.Tiebreak.String()}
			hi.QueryReads, hi.KeyReads = matrixSupport(hd.Score, m.Labels)
			hi.Writes, hi.ValueReads = matrixSupport(hd.Value, m.Labels)
			if pattern != nil {
				hi.Attended = make([]int, len(w))
				for i, j := range pattern[l][h] {
					hi.Attended[i] = j + 1
				}
			}
			li.Heads = append(li.Heads, hi)
		}
		res.LayerInfo = append(res.LayerInfo, li)
	}
	if len(w) > 0 {
		pa := p.Accepts(w)
		a, err := m.Forward(w, transformer.FastOptions{})
		if err != nil {
			return nil, &apiError{Status: http.StatusUnprocessableEntity, Message: "forward pass: " + err.Error()}
		}
		score := m.OutputScore(a)
		ma := score.Sign() >= 0
		agree := pa == ma
		res.ProgramAccept, res.ModelAccept, res.Agree = &pa, &ma, &agree
		res.OutputScore = transformer.FormatRat(score)
	}
	return res, nil
}

// matrixSupport returns the labels of the non-zero rows and columns of m.
func matrixSupport(m transformer.Matrix, labels []string) (rows, cols []string) {
	colUsed := make([]bool, len(labels))
	for r, row := range m {
		used := false
		for c, x := range row {
			if x.Sign() != 0 {
				used = true
				colUsed[c] = true
			}
		}
		if used {
			rows = append(rows, label(labels, r))
		}
	}
	for c, u := range colUsed {
		if u {
			cols = append(cols, label(labels, c))
		}
	}
	return rows, cols
}

func label(labels []string, k int) string {
	if k < len(labels) && labels[k] != "" {
		return labels[k]
	}
	return fmt.Sprintf("x%d", k)
}

func sameActivations(a *transformer.Activations, final []transformer.Vec) bool {
	if a.Len() != len(final) {
		return false
	}
	for i, x := range final {
		y := a.At(i)
		for k := range x {
			if x[k].Cmp(y[k]) != 0 {
				return false
			}
		}
	}
	return true
}

// AttentionPattern runs m on w as the definition of §4.1 states it, in exact
// arithmetic, and returns, for every layer l, head h and 0-based position i,
// the 0-based position pattern[l][h][i] the head attends to (-1 when every
// position is masked), and the final activations. It is quadratic in len(w)
// and meant for short words; callers check the final activations against
// the transformer package's own forward pass.
func AttentionPattern(m *transformer.Model, w []int) (pattern [][][]int, final []transformer.Vec) {
	n, d := len(w), m.Width
	xs := make([]transformer.Vec, n)
	for i, s := range w {
		x := copyVec(m.Embedding[s])
		for k := range m.Position {
			t := &m.Position[k]
			v := t.Value(i+1, n)
			v.Mul(v, t.Scale)
			x[t.Coord].Add(x[t.Coord], v)
		}
		xs[i] = x
	}
	pattern = make([][][]int, len(m.Layers))
	for l := range m.Layers {
		layer := &m.Layers[l]
		cs := make([]transformer.Vec, n)
		for i := range cs {
			cs[i] = copyVec(xs[i])
		}
		pattern[l] = make([][]int, len(layer.Heads))
		for h := range layer.Heads {
			hd := &layer.Heads[h]
			keys := make([]transformer.Vec, n)
			vals := make([]transformer.Vec, n)
			for j := range n {
				keys[j] = matVec(hd.Score, xs[j], d)
				vals[j] = matVec(hd.Value, xs[j], d)
			}
			att := make([]int, n)
			for i := range n {
				best := -1
				var bestScore *big.Rat
				for j := range n {
					if !hd.Mask.Allows(i, j) {
						continue
					}
					s := dot(xs[i], keys[j])
					if best < 0 || s.Cmp(bestScore) > 0 || (s.Cmp(bestScore) == 0 && hd.Tiebreak == transformer.Rightmost) {
						best, bestScore = j, s
					}
				}
				att[i] = best
				if best >= 0 {
					addInto(cs[i], vals[best])
				}
			}
			pattern[l][h] = att
		}
		for i := range n {
			c := cs[i]
			if layer.AttentionNorm != nil {
				c = applyNorm(layer.AttentionNorm, c)
			}
			if layer.FFN != nil {
				c = applyFFN(layer.FFN, c)
			}
			if layer.FFNNorm != nil {
				c = applyNorm(layer.FFNNorm, c)
			}
			xs[i] = c
		}
	}
	return pattern, xs
}

func copyVec(v transformer.Vec) transformer.Vec {
	out := make(transformer.Vec, len(v))
	for k, x := range v {
		out[k] = new(big.Rat).Set(x)
	}
	return out
}

func matVec(m transformer.Matrix, x transformer.Vec, d int) transformer.Vec {
	out := make(transformer.Vec, len(m))
	t := new(big.Rat)
	for r, row := range m {
		s := new(big.Rat)
		for c, w := range row {
			if c < d && w.Sign() != 0 && x[c].Sign() != 0 {
				s.Add(s, t.Mul(w, x[c]))
			}
		}
		out[r] = s
	}
	return out
}

func dot(x, y transformer.Vec) *big.Rat {
	s, t := new(big.Rat), new(big.Rat)
	for k := range x {
		if k < len(y) && x[k].Sign() != 0 && y[k].Sign() != 0 {
			s.Add(s, t.Mul(x[k], y[k]))
		}
	}
	return s
}

func addInto(x, y transformer.Vec) {
	for k := range x {
		if k < len(y) && y[k].Sign() != 0 {
			x[k].Add(x[k], y[k])
		}
	}
}

func applyFFN(f *transformer.FFN, c transformer.Vec) transformer.Vec {
	h := matVec(f.W1, c, len(c))
	for k := range h {
		h[k].Add(h[k], f.B1[k])
		if h[k].Sign() < 0 {
			h[k].SetInt64(0)
		}
	}
	y := matVec(f.W2, h, len(h))
	for k := range y {
		y[k].Add(y[k], f.B2[k])
		y[k].Add(y[k], c[k])
	}
	return y
}

// applyNorm is layer normalisation with σ as transformer.LayerNorm
// documents it: the exact root when var+ε is a rational square, otherwise
// the float64 square root.
func applyNorm(ln *transformer.LayerNorm, x transformer.Vec) transformer.Vec {
	d := big.NewRat(int64(len(x)), 1)
	mean := new(big.Rat)
	for _, v := range x {
		mean.Add(mean, v)
	}
	mean.Quo(mean, d)
	variance, t := new(big.Rat), new(big.Rat)
	for _, v := range x {
		t.Sub(v, mean)
		variance.Add(variance, new(big.Rat).Mul(t, t))
	}
	variance.Quo(variance, d)
	variance.Add(variance, ln.Eps)
	sigma := new(big.Rat)
	if variance.Sign() != 0 {
		n, q := new(big.Int).Sqrt(variance.Num()), new(big.Int).Sqrt(variance.Denom())
		if new(big.Int).Mul(n, n).Cmp(variance.Num()) == 0 && new(big.Int).Mul(q, q).Cmp(variance.Denom()) == 0 {
			sigma.SetFrac(n, q)
		} else {
			f, _ := variance.Float64()
			sigma.SetFloat64(math.Sqrt(f))
		}
	}
	out := make(transformer.Vec, len(x))
	for k, v := range x {
		y := new(big.Rat)
		if sigma.Sign() != 0 {
			y.Sub(v, mean)
			y.Mul(y, ln.Gamma[k])
			y.Quo(y, sigma)
		}
		out[k] = y.Add(y, ln.Beta[k])
	}
	return out
}

// handleModel answers POST /api/model with the compiled model as a file.
func (s *Server) handleModel(w http.ResponseWriter, r *http.Request) {
	req := new(CompileRequest)
	if e := s.decode(w, r, req); e != nil {
		writeError(w, e)
		return
	}
	if req.Format == "" {
		req.Format = "json"
	}
	if req.Format != "json" && req.Format != "safetensors" {
		writeError(w, badRequest("format", "format: %q is not a model format (json or safetensors)", req.Format))
		return
	}
	v, e := s.compute(r, func() (any, *apiError) {
		_, m, e := compileProgram(req)
		if e != nil {
			return nil, e
		}
		if req.Format == "json" {
			return transformer.EncodeJSON(m), nil
		}
		data, err := transformer.EncodeSafetensors(m)
		if err != nil {
			return nil, badRequest("program", "safetensors: %v", err)
		}
		return data, nil
	})
	if e != nil {
		writeError(w, e)
		return
	}
	data := v.([]byte)
	if req.Format == "json" {
		w.Header().Set("Content-Type", "application/json")
	} else {
		w.Header().Set("Content-Type", "application/octet-stream")
	}
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", "model."+req.Format))
	w.Write(data)
}
