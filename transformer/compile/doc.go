// Package compile translates B-RASP programs into masked unique-hard-attention
// transformers (transformer.Model): the sequential construction of Thm 4.1
// (one layer per position-wise operation, two per attention operation) and
// the depth-preserving multi-head construction of Thm C.4, each optionally
// with layer norms (§4.3). Package transformer/decompile is the converse.
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
//     expansion); at most compile-ffn-inputs inputs per function (a budget limit).
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
//     attention layers. PERIODIC_<prefix>_<period> predicates are lowered
//     to MOD predicates and attention (brasp.LowerPeriodic), or, with
//     Options.PositionTables, written as they are: a table position term
//     with the predicate's 0/1 values (Thm 5.3's finite-image embedding).
//   - Acceptors output ±½ at the last position; transducers output ±½ per
//     output symbol at every position.
package compile
