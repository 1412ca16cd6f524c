package playground

import (
	"fmt"

	"github.com/brasp-dev/brasp/artifact"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
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
	// position i, 0 when every position is masked, as the model's dense
	// forward pass computes it (transformer.Model.AttentionPattern).
	// Omitted for long words (Config.MaxPatternWord) and large models.
	Attended []int `json:"attended,omitempty"`
}

func compileOptions(req *CompileRequest) compile.Options {
	return compile.Options{MultiHead: req.MultiHead, LayerNorm: req.LayerNorm}
}

// compileProgram loads the program of req and compiles it.
func compileProgram(b *budget.Budget, maxVectors int, req *CompileRequest) (*artifact.Program, *transformer.Model, *apiError) {
	prog, e := loadProgram(b, req.Program)
	if e != nil {
		return nil, nil, e
	}
	p := prog.Prog
	if p.IsTransducer() {
		return nil, nil, badRequest("program", "compile: the program is a transducer; the compiler of Thm 4.1 builds acceptors (remove the output line with symbols)")
	}
	if n := len(p.Vectors); n > maxVectors {
		return nil, nil, badRequest("program", "compile: the program has %d vectors, more than the playground's limit of %d for compiling (a model's parameters grow with the cube of the program); brasp convert --to transformer compiles it on the command line", n, maxVectors)
	}
	m, err := artifact.Convert(b, prog, artifact.KindTransformer, artifact.Options{Compile: compileOptions(req)})
	if err != nil {
		return nil, nil, failed("program", "compile", err)
	}
	return prog, m.(*artifact.Transformer).M, nil
}

func (a *API) compile(b *budget.Budget, req *CompileRequest) (any, *apiError) {
	prog, m, e := compileProgram(b, a.cfg.MaxCompileVectors, req)
	if e != nil {
		return nil, e
	}
	p := prog.Prog
	w, e := a.parseWord(p.Alphabet, req.Word)
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
	case len(w) > a.cfg.MaxPatternWord:
		res.Note = fmt.Sprintf("the attention pattern is shown for words of up to %d symbols", a.cfg.MaxPatternWord)
	case m.NumHeads()*len(w)*len(w)*m.Width > patternBudget:
		res.Note = "the model and the word are too large for the playground to show the attention pattern"
	default:
		// The positions the model's own dense forward pass attended to.
		var err error
		if pattern, _, err = m.AttentionPattern(b, w); err != nil {
			res.Note = "the attention pattern is not available for this model: " + err.Error()
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
		x, err := m.Forward(b, w, transformer.FastOptions{})
		if err != nil {
			return nil, failed("", "forward pass", err)
		}
		score := m.OutputScore(x)
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

// model answers POST /api/model with the compiled model as a file.
func (a *API) model(b *budget.Budget, req *CompileRequest) (any, *apiError) {
	if req.Format == "" {
		req.Format = "json"
	}
	if req.Format != "json" && req.Format != "safetensors" {
		return nil, badRequest("format", "format: %q is not a model format (json or safetensors)", req.Format)
	}
	_, m, e := compileProgram(b, a.cfg.MaxCompileVectors, req)
	if e != nil {
		return nil, e
	}
	r := &Reply{Status: statusOK, Filename: "model." + req.Format, ContentType: "application/octet-stream"}
	if req.Format == "json" {
		r.ContentType = "application/json"
	}
	data, err := artifact.NewTransformer(m).Encode(r.Filename)
	if err != nil {
		return nil, failed("program", req.Format, err)
	}
	r.Body = data
	return r, nil
}
