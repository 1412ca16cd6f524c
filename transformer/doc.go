// Package transformer holds masked unique-hard-attention transformers
// (Yang, Chiang & Angluin 2024, §4): the Model type, its exact forward
// passes, its JSON and safetensors encodings, an inspector (Describe), and
// the compiler from B-RASP programs (Thm 4.1 and the depth-preserving
// Thm C.4).
//
// # Numbers and forward passes
//
// Every parameter is an exact rational (*big.Rat). JSON numbers and "p/q"
// strings are read exactly; float values from safetensors are exact dyadic
// rationals. Both forward passes are exact and agree on every word:
//
//   - Forward (fast, linear in the word length) groups positions by
//     activation vector (finitely many, Lemma 4.3), ranks the scores between
//     distinct vectors once per head, and finds every position's attended
//     position in one scan keeping the best position so far per distinct
//     query. It stops with a *ClassLimitError past FastOptions.MaxClasses
//     distinct vectors; Accepts and Transduce then fall back to the dense pass.
//   - ForwardDense is the definition, O(n²·d) per head.
//
// Both compute in float64 while every operation is provably free of rounding
// (each product and sum is checked error-free with FMA and TwoSum), and
// otherwise in exact rational arithmetic; a Runner prepares the float64
// parameters once for many words.
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
//     K is "sin"/"cos" (with "frequency": f; value sin/cos(2π·f·i) as defined
//     on PositionTerm), or a position predicate "first", "last", "mid",
//     "mod" (with "r", "m"), value 1 where it holds and 0 elsewhere, or the
//     reverse with "negated": true. "scale" defaults to 1. Positions i are
//     1-based, as in the paper.
//   - "transduction" (optional): {"symbols": [Γ], "weight": [[|Γ|][d]],
//     "bias": [|Γ|]} makes the model a transducer: at each position it
//     outputs the one symbol whose score is ≥ 0. "output" may then be null.
//
// Safetensors files carry the same tensors; EncodeSafetensors documents the
// tensor names and the __metadata__ keys.
//
// # Compiler
//
// Compile follows the paper's constructions, with these choices:
//
//   - Every residual coordinate is labelled: "one" (constant 1), "Q_σ",
//     program vectors by name, and per attention operation P the head's
//     scratch: "P.query[g]", "P.key[g]", "P.default_flag" (1 until the head
//     attends somewhere), "P.value.X" (X read at j_i). With layer norm each
//     truth value b is the pair ("X", "!X") = (b, 1−b) (§4.3) and the norms,
//     which then see a constant mean ½ and variance ¼, are set to the
//     identity (γ = σ, β = μ).
//   - A head's score is Σ_g α_g(i)·β_g(j) ∈ {0,1}: the score predicate's
//     full DNF split into its i part and j part (Thm 4.1), with the
//     assignments of the i part that give the same j part merged.
//   - The value predicate is not rewritten with Prop. B.1: the head copies
//     the vectors that the score and value read at j, and the next FFN
//     computes P(i) = (attended ∧ S(i,j_i)) ? V(i,j_i) : D(i). This is
//     exact because hard attention picks a position with S = 1 whenever
//     one is unmasked, and it keeps the value linear in x_j.
//   - FFNs compute Boolean functions as disjoint DNFs (Lemma 4.1): the full
//     DNF with terms that differ only in irrelevant inputs merged (Shannon
//     expansion); at most CompileOptions.MaxFFNInputs inputs per function.
//   - Multi-head (Thm C.4): attention layers = attention depth of the
//     output; position-wise operations are inlined into the FFN of their
//     depth; only attention results, vectors read at j and outputs get
//     coordinates; dead operations are dropped; depth-0 functions of the
//     symbols are folded into the word embedding.
//   - Position predicates: first, last and Mid are finite-image position
//     terms (θ_n may depend on n). MOD_r_m reads the rational sinusoid of
//     frequency 1/m through a layer without heads whose FFN computes it
//     exactly (Cor. 5.4, with a dyadic threshold and gain). When a depth-0
//     function needed by the first heads reads a position predicate, one
//     more head-less layer computes it. Head-less layers do not count as
//     attention layers.
//   - Acceptors output ±½ at the last position; transducers output ±½ per
//     output symbol at every position.
package transformer
