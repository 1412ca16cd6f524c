package transformer

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/position"
)

// Safetensors layout. Tensors (all F64 when written; F64, F32, F16 and BF16
// are read, every value converted exactly):
//
//	embedding                      [|Σ|, d]  row k is emb(alphabet[k])
//	                               (over propositions: [k, d], row p for
//	                               proposition p, and embedding_bias [d])
//	layers.L.attention.H.score     [d, d]
//	layers.L.attention.H.value     [d, d]
//	                               (or, sparse, NAME.indices [nnz, 2] with the
//	                               0-based row and column of each non-zero
//	                               entry, and NAME.values [nnz])
//	layers.L.ffn.w1                [h, d]
//	layers.L.ffn.b1                [h]
//	layers.L.ffn.w2                [d, h]
//	layers.L.ffn.b2                [d]
//	layers.L.layernorm.attention.gamma / .beta   [d]
//	layers.L.layernorm.ffn.gamma / .beta         [d]
//	output.weight                  [d]      (absent for a transducer without acceptor output)
//	output.bias                    [1]
//	transduction.weight            [|Γ|, d] (transducers only)
//	transduction.bias              [|Γ|]
//
// __metadata__ (every value a string, JSON-encoded where structured):
//
//	format     "brasp-transformer/1"
//	alphabet   JSON array of the symbols
//	labels     JSON array of the d coordinate labels
//	width      d in decimal
//	layers     JSON array, one object per layer:
//	           {"attention": [{"mask": M, "tiebreak": T}, ...], "ffn": true|false,
//	            "layernorm": {"attention": {"eps": E} | null, "ffn": {"eps": E} | null} | null}
//	position   JSON array of position terms exactly as in the JSON format (or "null")
//	transduction  JSON array of the output symbols (transducers only)
//	propositions  JSON array of the propositions (models over propositions
//	              only; alphabet is then [])

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

func encodeSafetensors(m *Model, sparse bool) ([]byte, error) {
	type tensor struct {
		name  string
		shape []int
		data  []*big.Rat
	}
	var ts []tensor
	flat := func(rows []Vec) []*big.Rat {
		var out []*big.Rat
		for _, r := range rows {
			out = append(out, r...)
		}
		return out
	}
	d := m.Width
	ts = append(ts, tensor{"embedding", []int{len(m.Embedding), d}, flat(m.Embedding)})
	if m.Props != nil {
		ts = append(ts, tensor{"embedding_bias", []int{d}, m.EmbeddingBias})
	}
	type metaHead struct {
		Mask     string `json:"mask"`
		Tiebreak string `json:"tiebreak"`
	}
	type metaNorm struct {
		Eps string `json:"eps"`
	}
	type metaLN struct {
		Attention *metaNorm `json:"attention"`
		FFN       *metaNorm `json:"ffn"`
	}
	type metaLayer struct {
		Attention []metaHead `json:"attention"`
		FFN       bool       `json:"ffn"`
		LayerNorm *metaLN    `json:"layernorm"`
	}
	metaLayers := []metaLayer{}
	for l, layer := range m.Layers {
		ml := metaLayer{Attention: []metaHead{}, FFN: layer.FFN != nil}
		for h, hd := range layer.Heads {
			p := fmt.Sprintf("layers.%d.attention.%d.", l, h)
			for _, x := range []struct {
				name string
				m    Matrix
			}{{"score", hd.Score}, {"value", hd.Value}} {
				nz := nonZeros(x.m)
				if !sparse || 3*nz >= d*d {
					ts = append(ts, tensor{p + x.name, []int{d, d}, flat(x.m)})
					continue
				}
				idx, vals := make([]*big.Rat, 0, 2*nz), make([]*big.Rat, 0, nz)
				for r, row := range x.m {
					for c, v := range row {
						if v.Sign() != 0 {
							idx = append(idx, big.NewRat(int64(r), 1), big.NewRat(int64(c), 1))
							vals = append(vals, v)
						}
					}
				}
				ts = append(ts, tensor{p + x.name + ".indices", []int{nz, 2}, idx}, tensor{p + x.name + ".values", []int{nz}, vals})
			}
			ml.Attention = append(ml.Attention, metaHead{hd.Mask.Name(), hd.Tiebreak.String()})
		}
		if f := layer.FFN; f != nil {
			p := fmt.Sprintf("layers.%d.ffn.", l)
			h := f.Hidden()
			ts = append(ts, tensor{p + "w1", []int{h, d}, flat(f.W1)}, tensor{p + "b1", []int{h}, f.B1},
				tensor{p + "w2", []int{d, h}, flat(f.W2)}, tensor{p + "b2", []int{d}, f.B2})
		}
		if layer.AttentionNorm != nil || layer.FFNNorm != nil {
			ml.LayerNorm = &metaLN{}
			for _, x := range []struct {
				name string
				ln   *LayerNorm
				meta **metaNorm
			}{{"attention", layer.AttentionNorm, &ml.LayerNorm.Attention}, {"ffn", layer.FFNNorm, &ml.LayerNorm.FFN}} {
				if x.ln == nil {
					continue
				}
				p := fmt.Sprintf("layers.%d.layernorm.%s.", l, x.name)
				ts = append(ts, tensor{p + "gamma", []int{d}, x.ln.Gamma}, tensor{p + "beta", []int{d}, x.ln.Beta})
				*x.meta = &metaNorm{FormatRat(x.ln.Eps)}
			}
		}
		metaLayers = append(metaLayers, ml)
	}
	if m.Output.Weight != nil {
		ts = append(ts, tensor{"output.weight", []int{d}, m.Output.Weight}, tensor{"output.bias", []int{1}, []*big.Rat{m.Output.Bias}})
	}
	transduction := ""
	if t := m.Transduction; t != nil {
		ts = append(ts, tensor{"transduction.weight", []int{len(t.Symbols), d}, flat(t.Weight)}, tensor{"transduction.bias", []int{len(t.Symbols)}, t.Bias})
		b, _ := json.Marshal([]string(t.Symbols))
		transduction = string(b)
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
	if transduction != "" {
		meta["transduction"] = transduction
	}
	if m.Props != nil {
		meta["propositions"] = js(m.Props)
	}
	header := map[string]any{"__metadata__": meta}
	var data bytes.Buffer
	for _, t := range ts {
		begin := data.Len()
		for k, x := range t.data {
			f, exact := exactFloat(x)
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

type stTensor struct {
	DType   string  `json:"dtype"`
	Shape   []int64 `json:"shape"`
	Offsets []int64 `json:"data_offsets"`
}

// ReadSafetensors decodes and validates a model from a safetensors stream.
func ReadSafetensors(r io.Reader) (*Model, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxFileSize+1))
	if err != nil {
		return nil, err
	}
	return DecodeSafetensors(data)
}

// DecodeSafetensors decodes and validates a model from safetensors bytes.
func DecodeSafetensors(file []byte) (*Model, error) {
	if len(file) > maxFileSize {
		return nil, fmt.Errorf("safetensors: file is larger than %d bytes", maxFileSize)
	}
	if len(file) < 8 {
		return nil, fmt.Errorf("safetensors: file is %d bytes long, too short for the 8-byte header length", len(file))
	}
	hlen := binary.LittleEndian.Uint64(file[:8])
	if hlen > uint64(len(file)-8) {
		return nil, fmt.Errorf("safetensors: header length %d exceeds the file size %d", hlen, len(file))
	}
	hdr := file[8 : 8+hlen]
	body := file[8+hlen:]
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(hdr, &raw); err != nil {
		return nil, fmt.Errorf("safetensors: header JSON: %v", err)
	}
	var meta map[string]string
	if mr, ok := raw["__metadata__"]; ok {
		if err := json.Unmarshal(mr, &meta); err != nil {
			return nil, fmt.Errorf("safetensors: __metadata__: %v", err)
		}
		delete(raw, "__metadata__")
	}
	if meta == nil {
		return nil, fmt.Errorf("safetensors: no __metadata__ (a brasp model needs format, alphabet, labels, width and layers)")
	}
	tensors := map[string]stTensor{}
	for name, r := range raw {
		var t stTensor
		dec := json.NewDecoder(bytes.NewReader(r))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&t); err != nil {
			return nil, fmt.Errorf("safetensors: tensor %s: %v", name, err)
		}
		tensors[name] = t
	}
	if meta["format"] != FormatVersion {
		return nil, fmt.Errorf("safetensors: __metadata__.format is %q, want %q", meta["format"], FormatVersion)
	}
	var syms, props []string
	if err := json.Unmarshal([]byte(meta["alphabet"]), &syms); err != nil {
		return nil, fmt.Errorf("safetensors: __metadata__.alphabet: %v", err)
	}
	if raw, ok := meta["propositions"]; ok {
		if err := json.Unmarshal([]byte(raw), &props); err != nil || props == nil {
			return nil, fmt.Errorf("safetensors: __metadata__.propositions: %v", orEmpty(err))
		}
	}
	alpha, err := alphabet.New(syms...)
	if err != nil || len(alpha) == 0 && props == nil {
		return nil, fmt.Errorf("safetensors: __metadata__.alphabet: %v", orEmpty(err))
	}
	d, err := strconv.Atoi(meta["width"])
	if err != nil || d < 1 || d > MaxWidth {
		return nil, fmt.Errorf("safetensors: __metadata__.width: %q is not a width in 1..%d", meta["width"], MaxWidth)
	}
	m := &Model{Alphabet: alpha, Width: d}
	if err := json.Unmarshal([]byte(meta["labels"]), &m.Labels); err != nil {
		return nil, fmt.Errorf("safetensors: __metadata__.labels: %v", err)
	}
	if len(m.Labels) != d {
		return nil, fmt.Errorf("safetensors: __metadata__.labels: %d labels for width %d", len(m.Labels), d)
	}
	if m.Position, err = positionFromJSON(json.RawMessage(meta["position"])); err != nil {
		return nil, fmt.Errorf("safetensors: __metadata__.%v", err)
	}
	used := map[string]bool{}
	get := func(name string, shape ...int) ([]*big.Rat, error) {
		t, ok := tensors[name]
		if !ok {
			return nil, fmt.Errorf("safetensors: tensor %s is missing", name)
		}
		used[name] = true
		if len(t.Shape) != len(shape) {
			return nil, fmt.Errorf("safetensors: tensor %s has shape %v, want %v", name, t.Shape, shape)
		}
		count := int64(1)
		for k := range shape {
			if t.Shape[k] != int64(shape[k]) {
				return nil, fmt.Errorf("safetensors: tensor %s has shape %v, want %v", name, t.Shape, shape)
			}
			count *= int64(shape[k])
		}
		size := map[string]int64{"F64": 8, "F32": 4, "F16": 2, "BF16": 2}[t.DType]
		if size == 0 {
			return nil, fmt.Errorf("safetensors: tensor %s has dtype %q; brasp reads F64, F32, F16 and BF16", name, t.DType)
		}
		if len(t.Offsets) != 2 || t.Offsets[0] < 0 || t.Offsets[1] < t.Offsets[0] || t.Offsets[1] > int64(len(body)) {
			return nil, fmt.Errorf("safetensors: tensor %s has data_offsets %v outside the %d-byte data section", name, t.Offsets, len(body))
		}
		if t.Offsets[1]-t.Offsets[0] != count*size {
			return nil, fmt.Errorf("safetensors: tensor %s spans %d bytes, want %d for shape %v of %s", name, t.Offsets[1]-t.Offsets[0], count*size, t.Shape, t.DType)
		}
		b := body[t.Offsets[0]:t.Offsets[1]]
		out := make([]*big.Rat, count)
		for k := range out {
			var f float64
			switch t.DType {
			case "F64":
				f = math.Float64frombits(binary.LittleEndian.Uint64(b[8*k:]))
			case "F32":
				f = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*k:])))
			case "BF16":
				f = float64(math.Float32frombits(uint32(binary.LittleEndian.Uint16(b[2*k:])) << 16))
			case "F16":
				f = halfToFloat(binary.LittleEndian.Uint16(b[2*k:]))
			}
			r, err := ratFromFloat(f)
			if err != nil {
				return nil, fmt.Errorf("safetensors: tensor %s entry %d: %v", name, k, err)
			}
			out[k] = r
		}
		return out, nil
	}
	rows := func(flat []*big.Rat, r, c int) Matrix {
		out := make(Matrix, r)
		for k := range out {
			out[k] = Vec(flat[k*c : (k+1)*c])
		}
		return out
	}
	inputs := len(alpha)
	if props != nil {
		m.Alphabet, m.Props, inputs = nil, props, len(props)
		if m.EmbeddingBias, err = get("embedding_bias", d); err != nil {
			return nil, err
		}
	}
	emb, err := get("embedding", inputs, d)
	if err != nil {
		return nil, err
	}
	m.Embedding = rows(emb, inputs, d)
	type metaLayer struct {
		Attention []struct {
			Mask     string `json:"mask"`
			Tiebreak string `json:"tiebreak"`
		} `json:"attention"`
		FFN       bool `json:"ffn"`
		LayerNorm *struct {
			Attention *struct {
				Eps json.RawMessage `json:"eps"`
			} `json:"attention"`
			FFN *struct {
				Eps json.RawMessage `json:"eps"`
			} `json:"ffn"`
		} `json:"layernorm"`
	}
	var mls []metaLayer
	if err := json.Unmarshal([]byte(meta["layers"]), &mls); err != nil {
		return nil, fmt.Errorf("safetensors: __metadata__.layers: %v", err)
	}
	if len(mls) > MaxLayers {
		return nil, fmt.Errorf("safetensors: __metadata__.layers: %d layers, more than MaxLayers = %d", len(mls), MaxLayers)
	}
	for l, ml := range mls {
		var layer Layer
		if len(ml.Attention) > MaxHeads {
			return nil, fmt.Errorf("safetensors: layer %d: %d heads, more than MaxHeads = %d", l, len(ml.Attention), MaxHeads)
		}
		for h, mh := range ml.Attention {
			p := fmt.Sprintf("layers.%d.attention.%d.", l, h)
			mask, ok := position.MaskNamed(mh.Mask)
			if !ok {
				return nil, fmt.Errorf("safetensors: __metadata__.layers[%d].attention[%d].mask: %q is not one of none, future, past, future-or-self, past-or-self", l, h, mh.Mask)
			}
			tb, ok := position.TiebreakNamed(mh.Tiebreak)
			if !ok {
				return nil, fmt.Errorf("safetensors: __metadata__.layers[%d].attention[%d].tiebreak: %q is not leftmost or rightmost", l, h, mh.Tiebreak)
			}
			headMatrix := func(name string) (Matrix, error) {
				if _, dense := tensors[name]; dense {
					flat, err := get(name, d, d)
					if err != nil {
						return nil, err
					}
					return rows(flat, d, d), nil
				}
				it, ok := tensors[name+".indices"]
				if !ok {
					return nil, fmt.Errorf("safetensors: tensor %s (or %s.indices and %s.values) is missing", name, name, name)
				}
				if len(it.Shape) != 2 || it.Shape[0] < 0 || it.Shape[0] > int64(d*d) {
					return nil, fmt.Errorf("safetensors: tensor %s.indices has shape %v, want [nnz, 2] with nnz ≤ %d", name, it.Shape, d*d)
				}
				nz := int(it.Shape[0])
				idx, err := get(name+".indices", nz, 2)
				if err != nil {
					return nil, err
				}
				vals, err := get(name+".values", nz)
				if err != nil {
					return nil, err
				}
				out := ZeroMatrix(d, d)
				seen := map[[2]int]bool{}
				for k := range nz {
					var rc [2]int
					for a := range 2 {
						x := idx[2*k+a]
						if !x.IsInt() || x.Sign() < 0 || x.Cmp(big.NewRat(int64(d), 1)) >= 0 {
							return nil, fmt.Errorf("safetensors: tensor %s.indices entry [%d][%d] = %s is not an index in 0..%d", name, k, a, x.RatString(), d-1)
						}
						rc[a] = int(x.Num().Int64())
					}
					if seen[rc] {
						return nil, fmt.Errorf("safetensors: tensor %s.indices: entry (%d, %d) is listed twice", name, rc[0], rc[1])
					}
					seen[rc] = true
					out[rc[0]][rc[1]] = vals[k]
				}
				return out, nil
			}
			s, err := headMatrix(p + "score")
			if err != nil {
				return nil, err
			}
			v, err := headMatrix(p + "value")
			if err != nil {
				return nil, err
			}
			layer.Heads = append(layer.Heads, Head{Mask: mask, Tiebreak: tb, Score: s, Value: v})
		}
		if ml.FFN {
			p := fmt.Sprintf("layers.%d.ffn.", l)
			t, ok := tensors[p+"b1"]
			if !ok || len(t.Shape) != 1 {
				return nil, fmt.Errorf("safetensors: tensor %sb1 is missing or not a vector", p)
			}
			if t.Shape[0] < 0 || t.Shape[0] > MaxHidden {
				return nil, fmt.Errorf("safetensors: tensor %sb1: hidden width %d out of range 0..%d", p, t.Shape[0], MaxHidden)
			}
			h := int(t.Shape[0])
			w1, err := get(p+"w1", h, d)
			if err != nil {
				return nil, err
			}
			b1, err := get(p+"b1", h)
			if err != nil {
				return nil, err
			}
			w2, err := get(p+"w2", d, h)
			if err != nil {
				return nil, err
			}
			b2, err := get(p+"b2", d)
			if err != nil {
				return nil, err
			}
			layer.FFN = &FFN{W1: rows(w1, h, d), B1: b1, W2: rows(w2, d, h), B2: b2}
		}
		if ln := ml.LayerNorm; ln != nil {
			for _, x := range []struct {
				name string
				eps  *json.RawMessage
				dst  **LayerNorm
			}{{"attention", epsOf(ln.Attention), &layer.AttentionNorm}, {"ffn", epsOf(ln.FFN), &layer.FFNNorm}} {
				if x.eps == nil {
					continue
				}
				p := fmt.Sprintf("layers.%d.layernorm.%s.", l, x.name)
				eps, err := ratFromJSON(*x.eps, "safetensors: __metadata__."+p+"eps")
				if err != nil {
					return nil, err
				}
				g, err := get(p+"gamma", d)
				if err != nil {
					return nil, err
				}
				b, err := get(p+"beta", d)
				if err != nil {
					return nil, err
				}
				*x.dst = &LayerNorm{Gamma: g, Beta: b, Eps: eps}
			}
		}
		m.Layers = append(m.Layers, layer)
	}
	if ts, ok := meta["transduction"]; ok {
		var syms []string
		if err := json.Unmarshal([]byte(ts), &syms); err != nil {
			return nil, fmt.Errorf("safetensors: __metadata__.transduction: %v", err)
		}
		out, err := alphabet.New(syms...)
		if err != nil || len(out) == 0 {
			return nil, fmt.Errorf("safetensors: __metadata__.transduction: %v", orEmpty(err))
		}
		w, err := get("transduction.weight", len(out), d)
		if err != nil {
			return nil, err
		}
		b, err := get("transduction.bias", len(out))
		if err != nil {
			return nil, err
		}
		m.Transduction = &Transduction{Symbols: out, Weight: rows(w, len(out), d), Bias: b}
	}
	if _, ok := tensors["output.weight"]; ok || m.Transduction == nil {
		w, err := get("output.weight", d)
		if err != nil {
			return nil, err
		}
		b, err := get("output.bias", 1)
		if err != nil {
			return nil, err
		}
		m.Output = Output{Weight: w, Bias: b[0]}
	}
	var extra []string
	for name := range tensors {
		if !used[name] {
			extra = append(extra, name)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return nil, fmt.Errorf("safetensors: unexpected tensor %s (not described by __metadata__.layers)", extra[0])
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("safetensors: %v", err)
	}
	return m, nil
}

func epsOf(x *struct {
	Eps json.RawMessage `json:"eps"`
}) *json.RawMessage {
	if x == nil {
		return nil
	}
	return &x.Eps
}

func orEmpty(err error) string {
	if err != nil {
		return err.Error()
	}
	return "empty"
}

// halfToFloat converts an IEEE 754 half-precision value exactly.
func halfToFloat(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp := int(h>>10) & 0x1f
	frac := float64(h & 0x3ff)
	switch exp {
	case 0:
		return sign * math.Ldexp(frac, -24)
	case 0x1f:
		if frac == 0 {
			return math.Inf(int(sign))
		}
		return math.NaN()
	}
	return sign * math.Ldexp(1024+frac, exp-25)
}
