package transformer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"reflect"
	"slices"
	"strings"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/position"
)

// maxFileSize bounds the size of a model file the loaders accept.
const maxFileSize = 1 << 30

// The JSON layout of the package documentation. Numbers are kept as raw JSON so that they
// are read exactly, with the path of the field in every error.
type jsonModel struct {
	Format    string                  `json:"format"`
	Alphabet  []string                `json:"alphabet"`
	Width     int                     `json:"width"`
	Labels    []string                `json:"labels"`
	Embedding map[string]*jsonNumbers `json:"embedding"`
	Position  json.RawMessage         `json:"position"`
	Layers    []jsonLayer             `json:"layers"`
	Output    *jsonOutput             `json:"output"`
	// Transduction is an extension: the output layer of a transducer.
	Transduction *jsonTransduction `json:"transduction,omitempty"`
	// Propositions and EmbeddingBias are an extension: a model over
	// propositions (multi-hot embedding), whose embedding is keyed by
	// proposition.
	Propositions  []string    `json:"propositions,omitempty"`
	EmbeddingBias jsonNumbers `json:"embedding_bias"`
}

type jsonTransduction struct {
	Symbols []string    `json:"symbols"`
	Weight  jsonNumbers `json:"weight"`
	Bias    jsonNumbers `json:"bias"`
}

type jsonLayer struct {
	Attention []jsonHead     `json:"attention"`
	FFN       *jsonFFN       `json:"ffn"`
	LayerNorm *jsonLayerNorm `json:"layernorm"`
}

type jsonHead struct {
	Mask     string      `json:"mask"`
	Tiebreak string      `json:"tiebreak"`
	Score    jsonNumbers `json:"score"`
	Value    jsonNumbers `json:"value"`
}

type jsonFFN struct {
	W1 jsonNumbers `json:"w1"`
	B1 jsonNumbers `json:"b1"`
	W2 jsonNumbers `json:"w2"`
	B2 jsonNumbers `json:"b2"`
}

type jsonLayerNorm struct {
	Attention *jsonNorm `json:"attention"`
	FFN       *jsonNorm `json:"ffn"`
}

type jsonNorm struct {
	Gamma jsonNumbers     `json:"gamma"`
	Beta  jsonNumbers     `json:"beta"`
	Eps   json.RawMessage `json:"eps"`
}

type jsonOutput struct {
	Weight jsonNumbers     `json:"weight"`
	Bias   json.RawMessage `json:"bias"`
}

// ReadJSON decodes and validates a model in the JSON format of the package
// documentation.
func ReadJSON(r io.Reader) (*Model, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxFileSize+1))
	if err != nil {
		return nil, err
	}
	return DecodeJSON(data)
}

// DecodeJSON decodes and validates a model from JSON bytes.
func DecodeJSON(data []byte) (*Model, error) { return DecodeJSONWithin(nil, data) }

// DecodeJSONWithin is DecodeJSON within a budget: its context stops the
// loader, and the memory backstop refuses a model whose parameters do not
// fit (budget.Memory).
func DecodeJSONWithin(bud *budget.Budget, data []byte) (*Model, error) {
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("model file is larger than %d bytes", maxFileSize)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var jm jsonModel
	if err := dec.Decode(&jm); err != nil {
		return nil, jsonError(data, dec.InputOffset(), err)
	}
	if dec.More() {
		return nil, newJSONError(data, dec.InputOffset(), "unexpected data after the model object")
	}
	m, err := jm.model(bud)
	if err != nil {
		return nil, err
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// JSONError is a problem of a model's JSON text at a position: line and
// column (1-based, the column in bytes), in the words of the file, not of
// the Go types it is read into.
type JSONError struct {
	Line, Col int
	Msg       string
}

func (e *JSONError) Error() string { return fmt.Sprintf("%d:%d: model JSON: %s", e.Line, e.Col, e.Msg) }

func newJSONError(data []byte, offset int64, msg string) *JSONError {
	offset = min(max(offset, 0), int64(len(data)))
	before := data[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return &JSONError{Line: line, Col: col, Msg: msg}
}

// jsonError turns an error of encoding/json into a JSONError: at the
// syntax error's offset, or the mistyped value's, or where the decoder
// stopped (an unknown field, the end of the file).
func jsonError(data []byte, stopped int64, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return newJSONError(data, syn.Offset-1, syn.Error())
	case errors.As(err, &typ):
		field := ""
		if typ.Field != "" {
			field = "field " + typ.Field + ": "
		}
		return newJSONError(data, typ.Offset-1, fmt.Sprintf("%swant %s, found %s", field, jsonKind(typ.Type), jsonValue(typ.Value)))
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return newJSONError(data, int64(len(data)), "unexpected end of the file (the model object is not closed)")
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	return newJSONError(data, stopped, msg)
}

// jsonKind names what a Go type reads, in JSON's words.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Bool:
		return "true or false"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "another value"
}

// jsonValue names the kind of a JSON value as encoding/json reports it
// ("string", "number 1.5", "array", ...).
func jsonValue(v string) string {
	switch {
	case v == "array" || v == "object":
		return "an " + v
	case strings.HasPrefix(v, "number"):
		return "the " + v + " (out of range or not an integer)"
	}
	return "a " + v
}

// readInputs reads a model's alphabet or, when props is not nil, its
// propositions (a model over propositions has an empty alphabet), as both
// file formats write them; errors name the field.
func readInputs(syms, props []string) (alphabet.Alphabet, []string, error) {
	alpha, err := alphabet.New(syms...)
	if err != nil {
		return nil, nil, fmt.Errorf("alphabet: %v", err)
	}
	if props == nil {
		if len(alpha) == 0 {
			return nil, nil, fmt.Errorf("alphabet: missing or empty")
		}
		return alpha, nil, nil
	}
	if len(alpha) > 0 {
		return nil, nil, fmt.Errorf("alphabet: a model over propositions has no alphabet")
	}
	p, err := alphabet.New(props...)
	if err != nil {
		return nil, nil, fmt.Errorf("propositions: %v", err)
	}
	return nil, append([]string{}, p...), nil
}

func (jm *jsonModel) model(bud *budget.Budget) (*Model, error) {
	if jm.Format != FormatVersion {
		return nil, fmt.Errorf("format: %q, want %q", jm.Format, FormatVersion)
	}
	alpha, props, err := readInputs(jm.Alphabet, jm.Propositions)
	if err != nil {
		return nil, err
	}
	inputs, what := []string(alpha), "symbol"
	if props != nil {
		inputs, what = props, "proposition"
	}
	d := jm.Width
	if d < 1 || d > MaxWidth {
		return nil, fmt.Errorf("width: %d is out of range 1..%d", d, MaxWidth)
	}
	m := &Model{Alphabet: alpha, Width: d, Labels: jm.Labels}
	if len(jm.Labels) != d {
		return nil, fmt.Errorf("labels: %d labels for width %d", len(jm.Labels), d)
	}
	if jm.Propositions != nil {
		m.Alphabet = nil
		m.Props = append([]string{}, inputs...)
		if !jm.EmbeddingBias.set {
			return nil, fmt.Errorf("embedding_bias: missing (a model over propositions embeds the empty step as it)")
		}
		if m.EmbeddingBias, err = jm.EmbeddingBias.vec(bud, d, "embedding_bias"); err != nil {
			return nil, err
		}
	} else if jm.EmbeddingBias.set {
		return nil, fmt.Errorf("embedding_bias: only a model over propositions has one")
	}
	for s := range jm.Embedding {
		if !slices.Contains(inputs, s) {
			return nil, fmt.Errorf("embedding: %s %q is not in the %s", what, s, map[string]string{"symbol": "alphabet", "proposition": "propositions"}[what])
		}
	}
	for _, s := range inputs {
		raw, ok := jm.Embedding[s]
		if !ok || raw == nil {
			return nil, fmt.Errorf("embedding: no vector for %s %q", what, s)
		}
		v, err := raw.vec(bud, d, fmt.Sprintf("embedding[%q]", s))
		if err != nil {
			return nil, err
		}
		m.Embedding = append(m.Embedding, v)
	}
	if m.Position, err = positionFromJSON(bud, jm.Position); err != nil {
		return nil, err
	}
	if len(jm.Layers) > MaxLayers {
		return nil, fmt.Errorf("layers: %d layers, more than MaxLayers = %d", len(jm.Layers), MaxLayers)
	}
	for l, jl := range jm.Layers {
		layer, err := jl.layer(bud, d, fmt.Sprintf("layers[%d]", l))
		if err != nil {
			return nil, err
		}
		m.Layers = append(m.Layers, layer)
	}
	if jt := jm.Transduction; jt != nil {
		syms, err := alphabet.New(jt.Symbols...)
		if err != nil || len(syms) == 0 {
			return nil, fmt.Errorf("transduction.symbols: %v", orEmpty(err))
		}
		t := &Transduction{Symbols: syms}
		if t.Weight, err = jt.Weight.matrix(bud, len(syms), d, "transduction.weight"); err != nil {
			return nil, err
		}
		if t.Bias, err = jt.Bias.vec(bud, len(syms), "transduction.bias"); err != nil {
			return nil, err
		}
		m.Transduction = t
		if jm.Output == nil {
			return m, nil
		}
	}
	if jm.Output == nil {
		return nil, fmt.Errorf("output: missing")
	}
	if m.Output.Weight, err = jm.Output.Weight.vec(bud, d, "output.weight"); err != nil {
		return nil, err
	}
	if m.Output.Bias, err = ratFromJSON(jm.Output.Bias, "output.bias"); err != nil {
		return nil, err
	}
	return m, nil
}

func (jl *jsonLayer) layer(bud *budget.Budget, d int, path string) (Layer, error) {
	var l Layer
	if len(jl.Attention) > MaxHeads {
		return l, fmt.Errorf("%s.attention: %d heads, more than MaxHeads = %d", path, len(jl.Attention), MaxHeads)
	}
	for h, jh := range jl.Attention {
		p := fmt.Sprintf("%s.attention[%d]", path, h)
		mask, ok := position.MaskNamed(jh.Mask)
		if !ok {
			return l, fmt.Errorf("%s.mask: %q is not one of none, future, past, future-or-self, past-or-self", p, jh.Mask)
		}
		tb, ok := position.TiebreakNamed(jh.Tiebreak)
		if !ok {
			return l, fmt.Errorf("%s.tiebreak: %q is not leftmost or rightmost", p, jh.Tiebreak)
		}
		score, err := headMatrixFromJSON(bud, &jh.Score, d, p+".score")
		if err != nil {
			return l, err
		}
		value, err := headMatrixFromJSON(bud, &jh.Value, d, p+".value")
		if err != nil {
			return l, err
		}
		l.Heads = append(l.Heads, Head{Mask: mask, Tiebreak: tb, Score: score, Value: value})
	}
	if f := jl.FFN; f != nil {
		if err := f.B1.parse(bud); err != nil {
			return l, err
		}
		h := len(f.B1.nums)
		if h > MaxHidden {
			return l, fmt.Errorf("%s.ffn.b1: hidden width %d, more than MaxHidden = %d", path, h, MaxHidden)
		}
		var ffn FFN
		var err error
		if ffn.W1, err = f.W1.matrix(bud, h, d, path+".ffn.w1"); err != nil {
			return l, err
		}
		if ffn.B1, err = f.B1.vec(bud, h, path+".ffn.b1"); err != nil {
			return l, err
		}
		if ffn.W2, err = f.W2.matrix(bud, d, h, path+".ffn.w2"); err != nil {
			return l, err
		}
		if ffn.B2, err = f.B2.vec(bud, d, path+".ffn.b2"); err != nil {
			return l, err
		}
		l.FFN = &ffn
	}
	if jl.LayerNorm != nil {
		var err error
		if l.AttentionNorm, err = jl.LayerNorm.Attention.norm(bud, d, path+".layernorm.attention"); err != nil {
			return l, err
		}
		if l.FFNNorm, err = jl.LayerNorm.FFN.norm(bud, d, path+".layernorm.ffn"); err != nil {
			return l, err
		}
	}
	return l, nil
}

func (jn *jsonNorm) norm(bud *budget.Budget, d int, path string) (*LayerNorm, error) {
	if jn == nil {
		return nil, nil
	}
	var ln LayerNorm
	var err error
	if ln.Gamma, err = jn.Gamma.vec(bud, d, path+".gamma"); err != nil {
		return nil, err
	}
	if ln.Beta, err = jn.Beta.vec(bud, d, path+".beta"); err != nil {
		return nil, err
	}
	if ln.Eps, err = ratFromJSON(jn.Eps, path+".eps"); err != nil {
		return nil, err
	}
	if ln.Eps.Sign() < 0 {
		return nil, fmt.Errorf("%s.eps: %s is negative", path, ln.Eps.RatString())
	}
	return &ln, nil
}

func ratFromJSON(raw json.RawMessage, path string) (*big.Rat, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, fmt.Errorf("%s: missing number", path)
	}
	s := string(raw)
	if raw[0] == '"' {
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
	}
	r, err := ParseRat(strings.TrimSpace(s))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return r, nil
}
