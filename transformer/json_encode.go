package transformer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

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
