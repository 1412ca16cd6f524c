package transformer

import (
	"encoding/json"
	"math"
	"math/big"
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

// stMetaLayer is the __metadata__ description of one layer.
type stMetaLayer struct {
	Attention []stMetaHead `json:"attention"`
	FFN       bool         `json:"ffn"`
	LayerNorm *stMetaNorms `json:"layernorm"`
}

type stMetaHead struct {
	Mask     string `json:"mask"`
	Tiebreak string `json:"tiebreak"`
}

type stMetaNorms struct {
	Attention *stMetaNorm `json:"attention"`
	FFN       *stMetaNorm `json:"ffn"`
}

// stMetaNorm is a layer norm's ε: written as a string ("0.5", "1/3"),
// read as a JSON number or string.
type stMetaNorm struct {
	Eps json.RawMessage `json:"eps"`
}

// stTensor is an entry of the header's tensor table.
type stTensor struct {
	DType   string  `json:"dtype"`
	Shape   []int64 `json:"shape"`
	Offsets []int64 `json:"data_offsets"`
}

// rows cuts a row-major flat tensor into an r×c matrix (sharing flat).
func rows(flat []*big.Rat, r, c int) Matrix {
	out := make(Matrix, r)
	for k := range out {
		out[k] = Vec(flat[k*c : (k+1)*c])
	}
	return out
}

// flatten lays out the rows of a matrix one after the other.
func flatten(rows []Vec) []*big.Rat {
	var out []*big.Rat
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
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
