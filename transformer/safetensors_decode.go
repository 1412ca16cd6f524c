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

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/position"
)

// ReadSafetensors decodes and validates a model from a safetensors stream.
func ReadSafetensors(r io.Reader) (*Model, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxFileSize+1))
	if err != nil {
		return nil, err
	}
	return DecodeSafetensors(data)
}

// DecodeSafetensors decodes and validates a model from safetensors bytes:
// the header (tensor table and __metadata__), the model's shape from the
// metadata, then every tensor the metadata describes; a tensor the
// metadata does not describe is an error.
func DecodeSafetensors(file []byte) (*Model, error) { return DecodeSafetensorsWithin(nil, file) }

// DecodeSafetensorsWithin is DecodeSafetensors within a budget: its
// context stops the loader, and the memory backstop refuses a model whose
// parameters do not fit (budget.Memory).
func DecodeSafetensorsWithin(bud *budget.Budget, file []byte) (*Model, error) {
	st, meta, err := readSafetensorsHeader(file)
	if err != nil {
		return nil, err
	}
	st.bud = bud
	m, err := modelFromMetadata(bud, meta)
	if err != nil {
		return nil, err
	}
	d := m.Width
	inputs := len(m.Alphabet)
	if m.Props != nil {
		inputs = len(m.Props)
		if m.EmbeddingBias, err = st.tensor("embedding_bias", d); err != nil {
			return nil, err
		}
	}
	emb, err := st.tensor("embedding", inputs, d)
	if err != nil {
		return nil, err
	}
	m.Embedding = rows(emb, inputs, d)
	var mls []stMetaLayer
	if err := json.Unmarshal([]byte(meta["layers"]), &mls); err != nil {
		return nil, fmt.Errorf("safetensors: __metadata__.layers: %v", err)
	}
	if len(mls) > MaxLayers {
		return nil, fmt.Errorf("safetensors: __metadata__.layers: %d layers, more than MaxLayers = %d", len(mls), MaxLayers)
	}
	for l := range mls {
		layer, err := st.layer(l, &mls[l], d)
		if err != nil {
			return nil, err
		}
		m.Layers = append(m.Layers, layer)
	}
	if ts, ok := meta["transduction"]; ok {
		if m.Transduction, err = st.transduction(ts, d); err != nil {
			return nil, err
		}
	}
	if _, ok := st.tensors["output.weight"]; ok || m.Transduction == nil {
		if m.Output, err = st.output(d); err != nil {
			return nil, err
		}
	}
	if err := st.unused(); err != nil {
		return nil, err
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("safetensors: %v", err)
	}
	return m, nil
}

// stFile is a safetensors file being decoded: its tensor table, its data
// section, and which tensors have been read.
type stFile struct {
	bud     *budget.Budget
	tensors map[string]stTensor
	body    []byte
	used    map[string]bool
}

// readSafetensorsHeader splits the file into header and data and decodes
// the header's __metadata__ and tensor table.
func readSafetensorsHeader(file []byte) (*stFile, map[string]string, error) {
	if len(file) > maxFileSize {
		return nil, nil, fmt.Errorf("safetensors: file is larger than %d bytes", maxFileSize)
	}
	if len(file) < 8 {
		return nil, nil, fmt.Errorf("safetensors: file is %d bytes long, too short for the 8-byte header length", len(file))
	}
	hlen := binary.LittleEndian.Uint64(file[:8])
	if hlen > uint64(len(file)-8) {
		return nil, nil, fmt.Errorf("safetensors: header length %d exceeds the file size %d", hlen, len(file))
	}
	hdr := file[8 : 8+hlen]
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(hdr, &raw); err != nil {
		return nil, nil, fmt.Errorf("safetensors: header JSON: %v", err)
	}
	var meta map[string]string
	if mr, ok := raw["__metadata__"]; ok {
		if err := json.Unmarshal(mr, &meta); err != nil {
			return nil, nil, fmt.Errorf("safetensors: __metadata__: %v", err)
		}
		delete(raw, "__metadata__")
	}
	if meta == nil {
		return nil, nil, fmt.Errorf("safetensors: no __metadata__ (a brasp model needs format, alphabet, labels, width and layers)")
	}
	st := &stFile{tensors: map[string]stTensor{}, body: file[8+hlen:], used: map[string]bool{}}
	for name, r := range raw {
		var t stTensor
		dec := json.NewDecoder(bytes.NewReader(r))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&t); err != nil {
			return nil, nil, fmt.Errorf("safetensors: tensor %s: %v", name, err)
		}
		st.tensors[name] = t
	}
	return st, meta, nil
}

// modelFromMetadata reads the model's format, alphabet (or propositions),
// width, labels and position embedding from __metadata__.
func modelFromMetadata(bud *budget.Budget, meta map[string]string) (*Model, error) {
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
	alpha, props, err := readInputs(syms, props)
	if err != nil {
		return nil, fmt.Errorf("safetensors: __metadata__.%v", err)
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
	if m.Position, err = positionFromJSON(bud, json.RawMessage(meta["position"])); err != nil {
		return nil, fmt.Errorf("safetensors: __metadata__.%v", err)
	}
	if props != nil {
		m.Alphabet, m.Props = nil, props
	}
	return m, nil
}

// orEmpty is err's message, or "empty" for an alphabet without symbols.
func orEmpty(err error) string {
	if err != nil {
		return err.Error()
	}
	return "empty"
}

// tensor reads the tensor name, which must have the given shape, as exact
// rationals (row-major), and marks it used.
func (st *stFile) tensor(name string, shape ...int) ([]*big.Rat, error) {
	t, ok := st.tensors[name]
	if !ok {
		return nil, fmt.Errorf("safetensors: tensor %s is missing", name)
	}
	st.used[name] = true
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
	if len(t.Offsets) != 2 || t.Offsets[0] < 0 || t.Offsets[1] < t.Offsets[0] || t.Offsets[1] > int64(len(st.body)) {
		return nil, fmt.Errorf("safetensors: tensor %s has data_offsets %v outside the %d-byte data section", name, t.Offsets, len(st.body))
	}
	if t.Offsets[1]-t.Offsets[0] != count*size {
		return nil, fmt.Errorf("safetensors: tensor %s spans %d bytes, want %d for shape %v of %s", name, t.Offsets[1]-t.Offsets[0], count*size, t.Shape, t.DType)
	}
	return decodeFloats(st.bud, name, t.DType, st.body[t.Offsets[0]:t.Offsets[1]], int(count))
}

// decodeFloats converts count values of dtype in b exactly to rationals
// (small integers shared, see sharedInt), within bud.
func decodeFloats(bud *budget.Budget, name, dtype string, b []byte, count int) ([]*big.Rat, error) {
	if err := bud.Step(int64(count)); err != nil {
		return nil, err
	}
	out := make([]*big.Rat, count)
	for k := range out {
		if k%numbersEvery == numbersEvery-1 {
			if err := bud.Step(numbersEvery); err != nil {
				return nil, err
			}
		}
		var f float64
		switch dtype {
		case "F64":
			f = math.Float64frombits(binary.LittleEndian.Uint64(b[8*k:]))
		case "F32":
			f = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*k:])))
		case "BF16":
			f = float64(math.Float32frombits(uint32(binary.LittleEndian.Uint16(b[2*k:])) << 16))
		case "F16":
			f = halfToFloat(binary.LittleEndian.Uint16(b[2*k:]))
		}
		if f == math.Trunc(f) && math.Abs(f) <= maxSharedInt {
			out[k] = sharedInt(int64(f))
			continue
		}
		r, err := ratFromFloat(f)
		if err != nil {
			return nil, fmt.Errorf("safetensors: tensor %s entry %d: %v", name, k, err)
		}
		out[k] = r
	}
	return out, nil
}

// layer reads layer l as its metadata ml describes it.
func (st *stFile) layer(l int, ml *stMetaLayer, d int) (Layer, error) {
	var layer Layer
	if len(ml.Attention) > MaxHeads {
		return layer, fmt.Errorf("safetensors: layer %d: %d heads, more than MaxHeads = %d", l, len(ml.Attention), MaxHeads)
	}
	for h := range ml.Attention {
		hd, err := st.head(l, h, &ml.Attention[h], d)
		if err != nil {
			return layer, err
		}
		layer.Heads = append(layer.Heads, hd)
	}
	if ml.FFN {
		f, err := st.ffn(l, d)
		if err != nil {
			return layer, err
		}
		layer.FFN = f
	}
	if ln := ml.LayerNorm; ln != nil {
		var err error
		if layer.AttentionNorm, err = st.norm(l, "attention", ln.Attention, d); err != nil {
			return layer, err
		}
		if layer.FFNNorm, err = st.norm(l, "ffn", ln.FFN, d); err != nil {
			return layer, err
		}
	}
	return layer, nil
}

// head reads head h of layer l.
func (st *stFile) head(l, h int, mh *stMetaHead, d int) (Head, error) {
	mask, ok := position.MaskNamed(mh.Mask)
	if !ok {
		return Head{}, fmt.Errorf("safetensors: __metadata__.layers[%d].attention[%d].mask: %q is not one of none, future, past, future-or-self, past-or-self", l, h, mh.Mask)
	}
	tb, ok := position.TiebreakNamed(mh.Tiebreak)
	if !ok {
		return Head{}, fmt.Errorf("safetensors: __metadata__.layers[%d].attention[%d].tiebreak: %q is not leftmost or rightmost", l, h, mh.Tiebreak)
	}
	p := fmt.Sprintf("layers.%d.attention.%d.", l, h)
	s, err := st.headMatrix(p+"score", d)
	if err != nil {
		return Head{}, err
	}
	v, err := st.headMatrix(p+"value", d)
	if err != nil {
		return Head{}, err
	}
	return Head{Mask: mask, Tiebreak: tb, Score: s, Value: v}, nil
}

// headMatrix reads the d×d head matrix name: the dense tensor NAME, or the
// sparse pair NAME.indices and NAME.values.
func (st *stFile) headMatrix(name string, d int) (Matrix, error) {
	if _, dense := st.tensors[name]; dense {
		flat, err := st.tensor(name, d, d)
		if err != nil {
			return nil, err
		}
		return rows(flat, d, d), nil
	}
	it, ok := st.tensors[name+".indices"]
	if !ok {
		return nil, fmt.Errorf("safetensors: tensor %s (or %s.indices and %s.values) is missing", name, name, name)
	}
	if len(it.Shape) != 2 || it.Shape[0] < 0 || it.Shape[0] > int64(d*d) {
		return nil, fmt.Errorf("safetensors: tensor %s.indices has shape %v, want [nnz, 2] with nnz ≤ %d", name, it.Shape, d*d)
	}
	nz := int(it.Shape[0])
	idx, err := st.tensor(name+".indices", nz, 2)
	if err != nil {
		return nil, err
	}
	vals, err := st.tensor(name+".values", nz)
	if err != nil {
		return nil, err
	}
	out := sharedZeroMatrix(d, d)
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

// ffn reads the FFN of layer l; its hidden width is b1's length.
func (st *stFile) ffn(l, d int) (*FFN, error) {
	p := fmt.Sprintf("layers.%d.ffn.", l)
	t, ok := st.tensors[p+"b1"]
	if !ok || len(t.Shape) != 1 {
		return nil, fmt.Errorf("safetensors: tensor %sb1 is missing or not a vector", p)
	}
	if t.Shape[0] < 0 || t.Shape[0] > MaxHidden {
		return nil, fmt.Errorf("safetensors: tensor %sb1: hidden width %d out of range 0..%d", p, t.Shape[0], MaxHidden)
	}
	h := int(t.Shape[0])
	w1, err := st.tensor(p+"w1", h, d)
	if err != nil {
		return nil, err
	}
	b1, err := st.tensor(p+"b1", h)
	if err != nil {
		return nil, err
	}
	w2, err := st.tensor(p+"w2", d, h)
	if err != nil {
		return nil, err
	}
	b2, err := st.tensor(p+"b2", d)
	if err != nil {
		return nil, err
	}
	return &FFN{W1: rows(w1, h, d), B1: b1, W2: rows(w2, d, h), B2: b2}, nil
}

// norm reads layer l's layer norm called name ("attention" or "ffn"), or
// returns nil when the metadata has none.
func (st *stFile) norm(l int, name string, mn *stMetaNorm, d int) (*LayerNorm, error) {
	if mn == nil {
		return nil, nil
	}
	p := fmt.Sprintf("layers.%d.layernorm.%s.", l, name)
	eps, err := ratFromJSON(mn.Eps, "safetensors: __metadata__."+p+"eps")
	if err != nil {
		return nil, err
	}
	g, err := st.tensor(p+"gamma", d)
	if err != nil {
		return nil, err
	}
	b, err := st.tensor(p+"beta", d)
	if err != nil {
		return nil, err
	}
	return &LayerNorm{Gamma: g, Beta: b, Eps: eps}, nil
}

// transduction reads a transducer's output layer; symbols is the
// __metadata__.transduction entry.
func (st *stFile) transduction(symbols string, d int) (*Transduction, error) {
	var syms []string
	if err := json.Unmarshal([]byte(symbols), &syms); err != nil {
		return nil, fmt.Errorf("safetensors: __metadata__.transduction: %v", err)
	}
	out, err := alphabet.New(syms...)
	if err != nil || len(out) == 0 {
		return nil, fmt.Errorf("safetensors: __metadata__.transduction: %v", orEmpty(err))
	}
	w, err := st.tensor("transduction.weight", len(out), d)
	if err != nil {
		return nil, err
	}
	b, err := st.tensor("transduction.bias", len(out))
	if err != nil {
		return nil, err
	}
	return &Transduction{Symbols: out, Weight: rows(w, len(out), d), Bias: b}, nil
}

// output reads the acceptor's output layer.
func (st *stFile) output(d int) (Output, error) {
	w, err := st.tensor("output.weight", d)
	if err != nil {
		return Output{}, err
	}
	b, err := st.tensor("output.bias", 1)
	if err != nil {
		return Output{}, err
	}
	return Output{Weight: w, Bias: b[0]}, nil
}

// unused reports the first tensor (by name) that nothing has read.
func (st *stFile) unused() error {
	var extra []string
	for name := range st.tensors {
		if !st.used[name] {
			extra = append(extra, name)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return fmt.Errorf("safetensors: unexpected tensor %s (not described by __metadata__.layers)", extra[0])
	}
	return nil
}
