// Package transformer holds masked unique-hard-attention transformers
// (Yang, Chiang & Angluin 2024, §4): the Model type, its exact forward
// passes, its JSON and safetensors encodings and an inspector (Describe).
// The compiler from B-RASP programs (Thm 4.1 and the depth-preserving
// Thm C.4) is package transformer/compile, the decompiler back to B-RASP
// package transformer/decompile.
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
//     query; each scan is an automaton over the ids whose moves are
//     tabulated as they are made, so that a position costs one table
//     look-up per scan. It keeps only an id per position (a byte while a
//     layer has at most 256 distinct vectors; layers with heads in both
//     directions store the pair of the own vector and what the past-masked
//     heads attend to as one id), overwritten layer by layer, so a run on a
//     word stored a byte per symbol (Runner.RunBytes) costs about two bytes
//     per symbol. It stops with a *ClassLimitError past
//     FastOptions.MaxClasses distinct vectors; Accepts and Transduce then
//     fall back to the dense pass.
//   - ForwardDense is the definition, O(n²·d) per head.
//
// Both compute in float64 while every operation is provably free of rounding
// (each product and sum is checked error-free with FMA and TwoSum), and
// otherwise in exact rational arithmetic; a Runner prepares the float64
// parameters once for many words. Every pass runs within a budget: the
// Runner's (Runner.SetBudget), or the one given to the Model's own entry
// points (Forward, Accepts, Trace, AttentionPattern, …; nil for the
// defaults). Every activation vector an exact pass produces must have
// entries of at most rational-bits bits, and the work is charged to the
// budget, so a cancelled context stops it.
//
// # Arithmetic kernel
//
// The arithmetic is written once: checked.go has the checked float64
// operations (products, FFN and layer norm that report any rounding),
// rational.go the exact rational ones, and arith.go the kernel Arith, which
// computes each operation (matrix times vector, dot product, the finish of
// a layer: attention norm, FFN with its residual, FFN norm) in checked
// float64 when that is exact and in rationals otherwise, counting its work
// and bounding the size of its rationals (rational-bits). The float64
// passes use checked.go directly; the exact passes and the decompiler
// (transformer/decompile) compute with Arith, so every pass and the
// decompiler agree on every value. Files of the passes: runner.go (Runner,
// the choice of pass), fast.go (the fast pass, written once over a class
// kernel; classids.go and tuples.go its per-position storage),
// fast_float.go and fast_exact.go (its kernels in checked float64 and in
// rationals), dense.go (the dense passes),
// batch.go (many words), activations.go (their results and the output
// layer).
//
// # JSON format
//
// A model file is one JSON object. Matrices are row-major [rows][cols],
// laid out like PyTorch's nn.Linear.weight ([out][in]), so the tensors load
// into PyTorch or NumPy without transposition:
//
//	{
//	  "format": "brasp-transformer/1",
//	  "alphabet": ["l", "r"],
//	  "width": d,
//	  "labels": ["Q_l", "Q_r", ...],             one name per residual coordinate
//	  "embedding": {"l": [d numbers], ...},      the word embedding emb(σ)
//	  "position": null | {...} | [...],          see below
//	  "layers": [
//	    {"attention": [                          heads; their outputs are summed
//	       {"mask": "none" | "future" | "past" | "future-or-self" | "past-or-self",
//	        "tiebreak": "leftmost" | "rightmost",
//	        "score": [[d][d]],                   f_S(x_i, x_j) = x_i · (score · x_j)
//	        "value": [[d][d]]}],                 f_V(x_j) = value · x_j
//	     "ffn": {"w1": [[h][d]], "b1": [h], "w2": [[d][h]], "b2": [d]},
//	                                             y = c + w2·ReLU(w1·c + b1) + b2
//	     "layernorm": null | {...}}
//	  ],
//	  "output": {"weight": [d], "bias": b}       accept iff weight · x_n + bias ≥ 0
//	}
//
// "future" is the paper's strict future masking (j < i), "past" strict past
// masking (j > i). Attention with no unmasked position outputs the zero
// vector. Numbers are JSON numbers or exact rationals in strings ("1/3"),
// read exactly. Further:
//
//   - A head's "score" and "value" may instead be sparse, {"sparse":
//     [[row, col, value], ...]}, listing the non-zero entries (0-based
//     indices, each pair once); EncodeJSONSparse writes heads so when it is
//     shorter. Compiled heads read and write a few coordinates, so this
//     stores O(d) numbers per head instead of d² (Model.NumStoredParams).
//   - "ffn" may be null (no FFN: y = c).
//   - "layernorm" is null or {"attention": N, "ffn": N}, each N null or
//     {"gamma": [d], "beta": [d], "eps": e}: post-norms applied after the
//     attention residual and after the FFN residual (see LayerNorm for the
//     exact definition of σ).
//   - "position" is null, the short form {"kind": "sinusoidal", "frequencies":
//     [f...], "coords": [sin0, cos0, sin1, cos1, ...]}, or a list of terms
//     {"kind": K, "coord": c, "scale": s, ...} summed into the embedding:
//     K is "sin"/"cos" (with "frequency": f; value sin/cos(2π·f·i) as defined
//     on PositionTerm), or a position predicate "first", "last", "mid",
//     "mod" (with "r", "m"), value 1 where it holds and 0 elsewhere, or the
//     reverse with "negated": true, or "table": an eventually periodic table
//     of numbers, {"kind": "table", "coord": c, "prefix": [v1, ..., vk],
//     "period": [w1, ..., wp]} with value v_i at positions i ≤ k and
//     w_((i−k−1) mod p + 1) after them ("prefix" may be left out; "period"
//     is not empty). A table is a position embedding with finite image that
//     does not depend on n (Thm 5.3, Cor 5.5); a table over several
//     coordinates is one term per coordinate. The compiler writes
//     PERIODIC_<prefix>_<period> predicates as 0/1 tables when asked
//     (compile.Options.PositionTables), and the decompiler reads every
//     table back as PERIODIC predicates, one per value it takes.
//     "scale" defaults to 1. Positions i are 1-based, as in the paper.
//   - "transduction" (optional): {"symbols": [Γ], "weight": [[|Γ|][d]],
//     "bias": [|Γ|]} makes the model a transducer: at each position it
//     outputs the one symbol whose score is ≥ 0. "output" may then be null.
//   - A model over propositions (Model.Props; it reads traces of proposition
//     sets, as LTLf does) has "propositions": [names] instead of
//     "alphabet", "embedding" keyed by proposition, and "embedding_bias":
//     [d]: the multi-hot embedding of a step is embedding_bias plus the
//     rows of the propositions true there (propositions.go).
//
// Files: json.go reads the JSON format, json_encode.go writes it,
// json_position.go holds the position terms of both directions and
// sparse.go the sparse head matrices. Safetensors files carry the same
// tensors; safetensors.go documents the tensor names and the __metadata__
// keys, safetensors_decode.go reads them (header, tensor table, per-tensor
// decoding, model assembly) and safetensors_encode.go writes them.
package transformer
