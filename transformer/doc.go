// Package transformer holds masked unique-hard-attention transformers
// (Yang, Chiang & Angluin 2024, §4): the Model type, its exact forward
// passes, its JSON and safetensors encodings, and the compiler from B-RASP
// programs (Thm 4.1 and the depth-preserving Thm C.4).
//
// # Numbers
//
// Every parameter is an exact rational (*big.Rat). JSON numbers and "p/q"
// strings are read exactly; float values from safetensors are exact dyadic
// rationals. Both forward passes are exact: Forward (fast, linear in the word
// length) computes with rationals once per distinct activation vector, and
// ForwardDense (the definition, quadratic) uses float64 only while every
// operation is provably free of rounding, and exact rationals otherwise.
//
// # JSON format
//
// The format of DESIGN.md ("format": "brasp-transformer/1"), with these
// extensions:
//
//   - "ffn" may be null (no FFN: y = c).
//   - "layernorm" is null or {"attention": N, "ffn": N}, each N null or
//     {"gamma": [d], "beta": [d], "eps": e}: post-norms applied after the
//     attention residual and after the FFN residual (see LayerNorm for the
//     exact definition of σ).
//   - "position" is null, DESIGN.md's {"kind": "sinusoidal", "frequencies":
//     [f...], "coords": [sin0, cos0, sin1, cos1, ...]}, or a list of terms
//     {"kind": K, "coord": c, "scale": s, ...} summed into the embedding:
//     K is "sin"/"cos" (with "frequency": f, value sin/cos(2π·f·i)), or a
//     position predicate "first", "last", "mid", "mod" (with "r", "m"), value
//     1 where it holds and 0 elsewhere, or the reverse with "negated": true.
//     "scale" defaults to 1. Positions i are 1-based, as in the paper.
//
// Safetensors files carry the same tensors; EncodeSafetensors documents the
// tensor names and the __metadata__ keys.
package transformer
