package transformer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/position"
)

// maxFileSize bounds the size of a model file the loaders accept.
const maxFileSize = 1 << 30

// The JSON layout of the package documentation. Numbers are kept as raw JSON so that they
// are read exactly, with the path of the field in every error.
type jsonModel struct {
	Format    string                       `json:"format"`
	Alphabet  []string                     `json:"alphabet"`
	Width     int                          `json:"width"`
	Labels    []string                     `json:"labels"`
	Embedding map[string][]json.RawMessage `json:"embedding"`
	Position  json.RawMessage              `json:"position"`
	Layers    []jsonLayer                  `json:"layers"`
	Output    *jsonOutput                  `json:"output"`
	// Transduction is an extension: the output layer of a transducer.
	Transduction *jsonTransduction `json:"transduction,omitempty"`
	// Propositions and EmbeddingBias are an extension: a model over
	// propositions (multi-hot embedding), whose embedding is keyed by
	// proposition.
	Propositions  []string          `json:"propositions,omitempty"`
	EmbeddingBias []json.RawMessage `json:"embedding_bias,omitempty"`
}

type jsonTransduction struct {
	Symbols []string            `json:"symbols"`
	Weight  [][]json.RawMessage `json:"weight"`
	Bias    []json.RawMessage   `json:"bias"`
}

type jsonLayer struct {
	Attention []jsonHead     `json:"attention"`
	FFN       *jsonFFN       `json:"ffn"`
	LayerNorm *jsonLayerNorm `json:"layernorm"`
}

type jsonHead struct {
	Mask     string          `json:"mask"`
	Tiebreak string          `json:"tiebreak"`
	Score    json.RawMessage `json:"score"`
	Value    json.RawMessage `json:"value"`
}

type jsonFFN struct {
	W1 [][]json.RawMessage `json:"w1"`
	B1 []json.RawMessage   `json:"b1"`
	W2 [][]json.RawMessage `json:"w2"`
	B2 []json.RawMessage   `json:"b2"`
}

type jsonLayerNorm struct {
	Attention *jsonNorm `json:"attention"`
	FFN       *jsonNorm `json:"ffn"`
}

type jsonNorm struct {
	Gamma []json.RawMessage `json:"gamma"`
	Beta  []json.RawMessage `json:"beta"`
	Eps   json.RawMessage   `json:"eps"`
}

type jsonOutput struct {
	Weight []json.RawMessage `json:"weight"`
	Bias   json.RawMessage   `json:"bias"`
}

type jsonTerm struct {
	Kind      string            `json:"kind"`
	Frequency json.RawMessage   `json:"frequency,omitempty"`
	R         *int              `json:"r,omitempty"`
	M         *int              `json:"m,omitempty"`
	Negated   bool              `json:"negated,omitempty"`
	Prefix    []json.RawMessage `json:"prefix,omitempty"`
	Period    []json.RawMessage `json:"period,omitempty"`
	Coord     *int              `json:"coord"`
	Scale     json.RawMessage   `json:"scale,omitempty"`
}

// jsonSinusoidal is the short form of a rational sinusoidal
// embedding: frequency k writes sin to coords[2k] and cos to coords[2k+1].
type jsonSinusoidal struct {
	Kind        string            `json:"kind"`
	Frequencies []json.RawMessage `json:"frequencies"`
	Coords      []int             `json:"coords"`
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
func DecodeJSON(data []byte) (*Model, error) {
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("model file is larger than %d bytes", maxFileSize)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var jm jsonModel
	if err := dec.Decode(&jm); err != nil {
		return nil, fmt.Errorf("model JSON: %v", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("model JSON: unexpected data after the model object")
	}
	m, err := jm.model()
	if err != nil {
		return nil, err
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

func (jm *jsonModel) model() (*Model, error) {
	if jm.Format != FormatVersion {
		return nil, fmt.Errorf("format: %q, want %q", jm.Format, FormatVersion)
	}
	alpha, err := alphabet.New(jm.Alphabet...)
	if err != nil {
		return nil, fmt.Errorf("alphabet: %v", err)
	}
	inputs, what := []string(alpha), "symbol"
	if jm.Propositions != nil {
		if len(alpha) > 0 {
			return nil, fmt.Errorf("alphabet: a model over propositions has no alphabet")
		}
		props, err := alphabet.New(jm.Propositions...)
		if err != nil {
			return nil, fmt.Errorf("propositions: %v", err)
		}
		inputs, what = props, "proposition"
	} else if len(alpha) == 0 {
		return nil, fmt.Errorf("alphabet: missing or empty")
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
		if jm.EmbeddingBias == nil {
			return nil, fmt.Errorf("embedding_bias: missing (a model over propositions embeds the empty step as it)")
		}
		if m.EmbeddingBias, err = vecFromJSON(jm.EmbeddingBias, d, "embedding_bias"); err != nil {
			return nil, err
		}
	} else if jm.EmbeddingBias != nil {
		return nil, fmt.Errorf("embedding_bias: only a model over propositions has one")
	}
	for s := range jm.Embedding {
		if !slices.Contains(inputs, s) {
			return nil, fmt.Errorf("embedding: %s %q is not in the %s", what, s, map[string]string{"symbol": "alphabet", "proposition": "propositions"}[what])
		}
	}
	for _, s := range inputs {
		raw, ok := jm.Embedding[s]
		if !ok {
			return nil, fmt.Errorf("embedding: no vector for %s %q", what, s)
		}
		v, err := vecFromJSON(raw, d, fmt.Sprintf("embedding[%q]", s))
		if err != nil {
			return nil, err
		}
		m.Embedding = append(m.Embedding, v)
	}
	if m.Position, err = positionFromJSON(jm.Position); err != nil {
		return nil, err
	}
	if len(jm.Layers) > MaxLayers {
		return nil, fmt.Errorf("layers: %d layers, more than MaxLayers = %d", len(jm.Layers), MaxLayers)
	}
	for l, jl := range jm.Layers {
		layer, err := jl.layer(d, fmt.Sprintf("layers[%d]", l))
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
		if t.Weight, err = matrixFromJSON(jt.Weight, len(syms), d, "transduction.weight"); err != nil {
			return nil, err
		}
		if t.Bias, err = vecFromJSON(jt.Bias, len(syms), "transduction.bias"); err != nil {
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
	if m.Output.Weight, err = vecFromJSON(jm.Output.Weight, d, "output.weight"); err != nil {
		return nil, err
	}
	if m.Output.Bias, err = ratFromJSON(jm.Output.Bias, "output.bias"); err != nil {
		return nil, err
	}
	return m, nil
}

func (jl *jsonLayer) layer(d int, path string) (Layer, error) {
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
		score, err := headMatrixFromJSON(jh.Score, d, p+".score")
		if err != nil {
			return l, err
		}
		value, err := headMatrixFromJSON(jh.Value, d, p+".value")
		if err != nil {
			return l, err
		}
		l.Heads = append(l.Heads, Head{Mask: mask, Tiebreak: tb, Score: score, Value: value})
	}
	if f := jl.FFN; f != nil {
		h := len(f.B1)
		if h > MaxHidden {
			return l, fmt.Errorf("%s.ffn.b1: hidden width %d, more than MaxHidden = %d", path, h, MaxHidden)
		}
		var ffn FFN
		var err error
		if ffn.W1, err = matrixFromJSON(f.W1, h, d, path+".ffn.w1"); err != nil {
			return l, err
		}
		if ffn.B1, err = vecFromJSON(f.B1, h, path+".ffn.b1"); err != nil {
			return l, err
		}
		if ffn.W2, err = matrixFromJSON(f.W2, d, h, path+".ffn.w2"); err != nil {
			return l, err
		}
		if ffn.B2, err = vecFromJSON(f.B2, d, path+".ffn.b2"); err != nil {
			return l, err
		}
		l.FFN = &ffn
	}
	if jl.LayerNorm != nil {
		var err error
		if l.AttentionNorm, err = jl.LayerNorm.Attention.norm(d, path+".layernorm.attention"); err != nil {
			return l, err
		}
		if l.FFNNorm, err = jl.LayerNorm.FFN.norm(d, path+".layernorm.ffn"); err != nil {
			return l, err
		}
	}
	return l, nil
}

func (jn *jsonNorm) norm(d int, path string) (*LayerNorm, error) {
	if jn == nil {
		return nil, nil
	}
	var ln LayerNorm
	var err error
	if ln.Gamma, err = vecFromJSON(jn.Gamma, d, path+".gamma"); err != nil {
		return nil, err
	}
	if ln.Beta, err = vecFromJSON(jn.Beta, d, path+".beta"); err != nil {
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

func positionFromJSON(raw json.RawMessage) ([]PositionTerm, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] == '{' {
		var js jsonSinusoidal
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&js); err != nil {
			return nil, fmt.Errorf("position: %v", err)
		}
		if js.Kind != "sinusoidal" {
			return nil, fmt.Errorf("position.kind: %q, want \"sinusoidal\" (or give a list of terms)", js.Kind)
		}
		if len(js.Coords) != 2*len(js.Frequencies) {
			return nil, fmt.Errorf("position.coords: %d coordinates for %d frequencies, want 2 per frequency", len(js.Coords), len(js.Frequencies))
		}
		var terms []PositionTerm
		for k, jf := range js.Frequencies {
			f, err := ratFromJSON(jf, fmt.Sprintf("position.frequencies[%d]", k))
			if err != nil {
				return nil, err
			}
			terms = append(terms,
				PositionTerm{Kind: PosSin, Frequency: f, Coord: js.Coords[2*k], Scale: newRat(1, 1)},
				PositionTerm{Kind: PosCos, Frequency: f, Coord: js.Coords[2*k+1], Scale: newRat(1, 1)})
		}
		return terms, nil
	}
	var jts []jsonTerm
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&jts); err != nil {
		return nil, fmt.Errorf("position: %v", err)
	}
	var terms []PositionTerm
	for k, jt := range jts {
		p := fmt.Sprintf("position[%d]", k)
		kind, ok := parsePositionKind(jt.Kind)
		if !ok {
			return nil, fmt.Errorf("%s.kind: %q is not one of %s", p, jt.Kind, strings.Join(positionKindNames[:], ", "))
		}
		t := PositionTerm{Kind: kind, Negated: jt.Negated, Scale: newRat(1, 1)}
		if jt.Coord == nil {
			return nil, fmt.Errorf("%s.coord: missing", p)
		}
		t.Coord = *jt.Coord
		if len(jt.Scale) > 0 {
			s, err := ratFromJSON(jt.Scale, p+".scale")
			if err != nil {
				return nil, err
			}
			t.Scale = s
		}
		switch kind {
		case PosSin, PosCos:
			f, err := ratFromJSON(jt.Frequency, p+".frequency")
			if err != nil {
				return nil, err
			}
			t.Frequency = f
		case PosMod:
			if jt.R == nil || jt.M == nil {
				return nil, fmt.Errorf("%s: a mod term needs r and m", p)
			}
			t.R, t.M = *jt.R, *jt.M
		case PosTable:
			if jt.Period == nil {
				return nil, fmt.Errorf("%s.period: missing (a table term needs \"period\", and may have \"prefix\")", p)
			}
			if len(jt.Prefix) > MaxPositionPeriod || len(jt.Period) > MaxPositionPeriod {
				return nil, fmt.Errorf("%s: the table has a prefix of %d and a period of %d entries, above MaxPositionPeriod = %d", p, len(jt.Prefix), len(jt.Period), MaxPositionPeriod)
			}
			var err error
			if t.Prefix, err = ratsFromJSON(jt.Prefix, p+".prefix"); err != nil {
				return nil, err
			}
			if t.Period, err = ratsFromJSON(jt.Period, p+".period"); err != nil {
				return nil, err
			}
		}
		if kind != PosTable && (jt.Prefix != nil || jt.Period != nil) {
			return nil, fmt.Errorf("%s: only table terms have a prefix and a period", p)
		}
		if kind != PosSin && kind != PosCos && len(jt.Frequency) > 0 {
			return nil, fmt.Errorf("%s.frequency: only sin and cos terms have one", p)
		}
		if kind != PosMod && (jt.R != nil || jt.M != nil) {
			return nil, fmt.Errorf("%s: only mod terms have r and m", p)
		}
		if err := t.check(MaxWidth); err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		terms = append(terms, t)
	}
	return terms, nil
}

// ratsFromJSON reads a list of numbers of any length.
func ratsFromJSON(raw []json.RawMessage, path string) ([]*big.Rat, error) {
	if raw == nil {
		return nil, nil
	}
	v := make([]*big.Rat, len(raw))
	for k, x := range raw {
		r, err := ratFromJSON(x, fmt.Sprintf("%s[%d]", path, k))
		if err != nil {
			return nil, err
		}
		v[k] = r
	}
	return v, nil
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

func vecFromJSON(raw []json.RawMessage, n int, path string) (Vec, error) {
	if len(raw) != n {
		return nil, fmt.Errorf("%s: has %d entries, want %d", path, len(raw), n)
	}
	v := make(Vec, n)
	for k, x := range raw {
		r, err := ratFromJSON(x, fmt.Sprintf("%s[%d]", path, k))
		if err != nil {
			return nil, err
		}
		v[k] = r
	}
	return v, nil
}

func matrixFromJSON(raw [][]json.RawMessage, rows, cols int, path string) (Matrix, error) {
	if len(raw) != rows {
		return nil, fmt.Errorf("%s: has %d rows, want %d", path, len(raw), rows)
	}
	m := make(Matrix, rows)
	for r, row := range raw {
		v, err := vecFromJSON(row, cols, fmt.Sprintf("%s[%d]", path, r))
		if err != nil {
			return nil, err
		}
		m[r] = v
	}
	return m, nil
}

// EncodeJSON writes m in the JSON format, one matrix row per line. Numbers
// are exact: integers and dyadic rationals as JSON numbers, other rationals
// as "p/q" strings. Heads are written as dense matrices, which every reader
// of the format understands; EncodeJSONSparse writes them sparsely.
func EncodeJSON(m *Model) []byte { return encodeJSON(m, false) }

// EncodeJSONSparse is EncodeJSON, but writes each head matrix in the sparse
// encoding {"sparse": [[row, col, value], ...]} whenever that lists fewer
// numbers than the dense one (a compiled head reads and writes a few
// coordinates of the residual stream, so its d×d matrices are mostly zero).
func EncodeJSONSparse(m *Model) []byte { return encodeJSON(m, true) }

func encodeJSON(m *Model, sparse bool) []byte {
	var b bytes.Buffer
	str := func(s string) string { q, _ := json.Marshal(s); return string(q) }
	strs := func(ss []string) string {
		parts := make([]string, len(ss))
		for k, s := range ss {
			parts[k] = str(s)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	inputs, inputsKey := []string(m.Alphabet), "alphabet"
	if m.Props != nil {
		inputs, inputsKey = m.Props, "propositions"
	}
	fmt.Fprintf(&b, "{\n  \"format\": %s,\n  \"%s\": %s,\n  \"width\": %d,\n  \"labels\": %s,\n",
		str(FormatVersion), inputsKey, strs(inputs), m.Width, strs(m.Labels))
	if m.Props != nil {
		fmt.Fprintf(&b, "  \"embedding_bias\": %s,\n", vecJSON(m.EmbeddingBias))
	}
	b.WriteString("  \"embedding\": {")
	for k, s := range inputs {
		if k > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n    %s: %s", str(s), vecJSON(m.Embedding[k]))
	}
	b.WriteString("\n  },\n  \"position\": ")
	b.WriteString(positionJSON(m.Position))
	b.WriteString(",\n  \"layers\": [")
	for l := range m.Layers {
		if l > 0 {
			b.WriteString(",")
		}
		writeLayerJSON(&b, &m.Layers[l], sparse)
	}
	if len(m.Layers) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("],\n  \"output\": ")
	if m.Output.Weight != nil {
		fmt.Fprintf(&b, "{\"weight\": %s, \"bias\": %s}", vecJSON(m.Output.Weight), numJSON(m.Output.Bias))
	} else {
		b.WriteString("null")
	}
	if t := m.Transduction; t != nil {
		fmt.Fprintf(&b, ",\n  \"transduction\": {\"symbols\": %s,\n    \"weight\": %s,\n    \"bias\": %s}",
			strs(t.Symbols), matrixJSON(t.Weight, "     "), vecJSON(t.Bias))
	}
	b.WriteString("\n}\n")
	return b.Bytes()
}

func positionJSON(terms []PositionTerm) string {
	if len(terms) == 0 {
		return "null"
	}
	parts := make([]string, len(terms))
	for k, t := range terms {
		s := fmt.Sprintf("{\"kind\": %q", t.Kind.String())
		switch t.Kind {
		case PosSin, PosCos:
			s += ", \"frequency\": " + numJSON(t.Frequency)
		case PosMod:
			s += fmt.Sprintf(", \"r\": %d, \"m\": %d", t.R, t.M)
		case PosTable:
			if len(t.Prefix) > 0 {
				s += ", \"prefix\": " + vecJSON(t.Prefix)
			}
			s += ", \"period\": " + vecJSON(t.Period)
		}
		if t.Negated {
			s += ", \"negated\": true"
		}
		s += fmt.Sprintf(", \"coord\": %d, \"scale\": %s}", t.Coord, numJSON(t.Scale))
		parts[k] = s
	}
	return "[\n    " + strings.Join(parts, ",\n    ") + "\n  ]"
}

func writeLayerJSON(b *bytes.Buffer, l *Layer, sparse bool) {
	b.WriteString("\n    {\n      \"attention\": [")
	for h := range l.Heads {
		hd := &l.Heads[h]
		if h > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(b, "\n        {\"mask\": %q, \"tiebreak\": %q,\n         \"score\": %s,\n         \"value\": %s}",
			hd.Mask.Name(), hd.Tiebreak.String(), headMatrixJSON(hd.Score, sparse), headMatrixJSON(hd.Value, sparse))
	}
	if len(l.Heads) > 0 {
		b.WriteString("\n      ")
	}
	b.WriteString("],\n      \"ffn\": ")
	if f := l.FFN; f != nil {
		fmt.Fprintf(b, "{\n        \"w1\": %s,\n        \"b1\": %s,\n        \"w2\": %s,\n        \"b2\": %s}",
			matrixJSON(f.W1, "         "), vecJSON(f.B1), matrixJSON(f.W2, "         "), vecJSON(f.B2))
	} else {
		b.WriteString("null")
	}
	b.WriteString(",\n      \"layernorm\": ")
	if l.AttentionNorm == nil && l.FFNNorm == nil {
		b.WriteString("null")
	} else {
		fmt.Fprintf(b, "{\"attention\": %s,\n                    \"ffn\": %s}", normJSON(l.AttentionNorm), normJSON(l.FFNNorm))
	}
	b.WriteString("\n    }")
}

func normJSON(ln *LayerNorm) string {
	if ln == nil {
		return "null"
	}
	return fmt.Sprintf("{\"gamma\": %s, \"beta\": %s, \"eps\": %s}", vecJSON(ln.Gamma), vecJSON(ln.Beta), numJSON(ln.Eps))
}

func numJSON(r *big.Rat) string {
	s := FormatRat(r)
	if isJSONNumber(s) {
		return s
	}
	return strconv.Quote(s)
}

func vecJSON(v Vec) string {
	parts := make([]string, len(v))
	for k, x := range v {
		parts[k] = numJSON(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func matrixJSON(m Matrix, indent string) string {
	if len(m) == 0 {
		return "[]"
	}
	rows := make([]string, len(m))
	for r, row := range m {
		rows[r] = vecJSON(row)
	}
	return "[" + strings.Join(rows, ",\n"+indent) + "]"
}
