package transformer

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// EncodeSafetensors writes m as a safetensors file. Every parameter must be
// exactly representable as a float64 (true of all dyadic rationals of
// moderate size, hence of compiled models without sinusoidal layer norm);
// otherwise the error names the first parameter that is not, and the JSON
// format must be used instead.
func EncodeSafetensors(m *Model) ([]byte, error) { return encodeSafetensors(m, false) }

// EncodeSafetensorsSparse is EncodeSafetensors, but writes each head matrix
// whose sparse form is smaller as two tensors, NAME.indices [nnz, 2]
// (0-based row and column of every non-zero entry, as F64 integers) and
// NAME.values [nnz], instead of the dense NAME [d, d].
func EncodeSafetensorsSparse(m *Model) ([]byte, error) { return encodeSafetensors(m, true) }

// stOut is a tensor to write.
type stOut struct {
	name  string
	shape []int
	data  []*big.Rat
}

func encodeSafetensors(m *Model, sparse bool) ([]byte, error) {
	d := m.Width
	ts := []stOut{{"embedding", []int{len(m.Embedding), d}, flatten(m.Embedding)}}
	if m.Props != nil {
		ts = append(ts, stOut{"embedding_bias", []int{d}, m.EmbeddingBias})
	}
	metaLayers := []stMetaLayer{}
	for l := range m.Layers {
		lts, ml := layerTensors(l, &m.Layers[l], d, sparse)
		ts = append(ts, lts...)
		metaLayers = append(metaLayers, ml)
	}
	if m.Output.Weight != nil {
		ts = append(ts, stOut{"output.weight", []int{d}, m.Output.Weight}, stOut{"output.bias", []int{1}, []*big.Rat{m.Output.Bias}})
	}
	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	meta := map[string]string{
		"format":   FormatVersion,
		"alphabet": js([]string(m.Alphabet)),
		"labels":   js(m.Labels),
		"width":    strconv.Itoa(d),
		"layers":   js(metaLayers),
		"position": strings.Join(strings.Fields(positionJSON(m.Position)), " "),
	}
	if t := m.Transduction; t != nil {
		ts = append(ts, stOut{"transduction.weight", []int{len(t.Symbols), d}, flatten(t.Weight)}, stOut{"transduction.bias", []int{len(t.Symbols)}, t.Bias})
		meta["transduction"] = js([]string(t.Symbols))
	}
	if m.Props != nil {
		meta["propositions"] = js(m.Props)
	}
	return writeSafetensors(ts, meta)
}

// layerTensors returns the tensors of layer l and its metadata.
func layerTensors(l int, layer *Layer, d int, sparse bool) ([]stOut, stMetaLayer) {
	var ts []stOut
	ml := stMetaLayer{Attention: []stMetaHead{}, FFN: layer.FFN != nil}
	for h, hd := range layer.Heads {
		p := fmt.Sprintf("layers.%d.attention.%d.", l, h)
		ts = append(ts, headTensors(p+"score", hd.Score, d, sparse)...)
		ts = append(ts, headTensors(p+"value", hd.Value, d, sparse)...)
		ml.Attention = append(ml.Attention, stMetaHead{hd.Mask.Name(), hd.Tiebreak.String()})
	}
	if f := layer.FFN; f != nil {
		p := fmt.Sprintf("layers.%d.ffn.", l)
		h := f.Hidden()
		ts = append(ts, stOut{p + "w1", []int{h, d}, flatten(f.W1)}, stOut{p + "b1", []int{h}, f.B1},
			stOut{p + "w2", []int{d, h}, flatten(f.W2)}, stOut{p + "b2", []int{d}, f.B2})
	}
	if layer.AttentionNorm != nil || layer.FFNNorm != nil {
		ml.LayerNorm = &stMetaNorms{}
		for _, x := range []struct {
			name string
			ln   *LayerNorm
			meta **stMetaNorm
		}{{"attention", layer.AttentionNorm, &ml.LayerNorm.Attention}, {"ffn", layer.FFNNorm, &ml.LayerNorm.FFN}} {
			if x.ln == nil {
				continue
			}
			p := fmt.Sprintf("layers.%d.layernorm.%s.", l, x.name)
			ts = append(ts, stOut{p + "gamma", []int{d}, x.ln.Gamma}, stOut{p + "beta", []int{d}, x.ln.Beta})
			eps, _ := json.Marshal(FormatRat(x.ln.Eps))
			*x.meta = &stMetaNorm{eps}
		}
	}
	return ts, ml
}

// headTensors returns the tensor NAME of a head matrix, or, when sparse is
// set and the sparse form is smaller, NAME.indices and NAME.values.
func headTensors(name string, m Matrix, d int, sparse bool) []stOut {
	nz := nonZeros(m)
	if !sparse || 3*nz >= d*d {
		return []stOut{{name, []int{d, d}, flatten(m)}}
	}
	idx, vals := make([]*big.Rat, 0, 2*nz), make([]*big.Rat, 0, nz)
	for r, row := range m {
		for c, v := range row {
			if v.Sign() != 0 {
				idx = append(idx, big.NewRat(int64(r), 1), big.NewRat(int64(c), 1))
				vals = append(vals, v)
			}
		}
	}
	return []stOut{{name + ".indices", []int{nz, 2}, idx}, {name + ".values", []int{nz}, vals}}
}

// writeSafetensors lays out the file: the header length, the header (the
// metadata and the tensor table, padded to 8 bytes) and the F64 data.
func writeSafetensors(ts []stOut, meta map[string]string) ([]byte, error) {
	header := map[string]any{"__metadata__": meta}
	var data bytes.Buffer
	for _, t := range ts {
		begin := data.Len()
		for k, x := range t.data {
			f, exact := ExactFloat64(x)
			if !exact || math.IsInf(f, 0) {
				return nil, fmt.Errorf("safetensors: %s entry %d = %s is not exactly representable as a float64; write the model as JSON instead", t.name, k, x.RatString())
			}
			var buf [8]byte
			binary.LittleEndian.PutUint64(buf[:], math.Float64bits(f))
			data.Write(buf[:])
		}
		header[t.name] = map[string]any{"dtype": "F64", "shape": t.shape, "data_offsets": []int{begin, data.Len()}}
	}
	hb, err := json.Marshal(header)
	if err != nil {
		return nil, err
	}
	for len(hb)%8 != 0 { // align the data section, as the reference implementation does
		hb = append(hb, ' ')
	}
	var out bytes.Buffer
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(hb)))
	out.Write(n[:])
	out.Write(hb)
	out.Write(data.Bytes())
	return out.Bytes(), nil
}
