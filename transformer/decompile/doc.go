// Package decompile translates masked unique-hard-attention transformers
// back into B-RASP programs (Yang, Chiang & Angluin 2024, Thm 4.2), exactly:
// the program accepts precisely the words the model accepts.
//
// # How
//
// Lemma 4.3: a transformer computes only finitely many activation vectors.
// Decompile enumerates them layer by layer with the model's own exact
// arithmetic (transformer.Arith, the kernel of the forward passes) —
// the embedding vectors emb(σ)+θ(i) (one per symbol and position class; a
// finite-image position embedding depends on i only through i mod p and
// the predicates first, last and Mid), then for every layer the vectors
// finish(x + Σ_h V_h·x_{j_h}) over the reachable own vector x and, per
// head, an attended reachable vector or nothing (zero). Combinations that
// cannot occur are pruned: with a mask that lets i see itself the attended
// score is at least i's own score, ties with i go to i when the tie-break
// prefers its side, and only strict masks can leave nothing unmasked. The
// result is the actual reachable set, usually far below the paper's
// (|Σ|+1)^(2^ℓ) bound, and the finite score set F of every head.
//
// Each layer's activation is encoded by Boolean vectors ("features"): for
// each coordinate that takes several values, the bits of the
// order-preserving index of its value (a single bit, "coordinate = its
// larger value", for two values); columns identical on the reachable set
// are merged. Every feature of the next layer, every score predicate and
// the output layer are Boolean functions on a finite domain of reachable
// configurations (Lemma 4.4). Each is synthesised as a small sum of
// products: a greedy choice of the inputs it depends on, then
// Quine–McCluskey with the unreachable inputs as don't-cares (up to six
// inputs) or greedy expansion of minterms against the off-set, keeping the
// smaller of the function and its complement.
//
// Attention follows the two translations of the proof of Thm 4.2:
//
//   - shallower (the default): for each score value v, Max_v(i) := rightmost
//     [M, S_{>v}(i,j)] 0 : 1 and R_{v,f}(i) := tb [M, S_v(i,j)] f(j) : 0; the
//     attended feature is ⋁_v Max_v ∧ R_{v,f}. Every attention operation
//     reads only the previous layer, so the attention depth of the program
//     is the number of attention layers of the model (§5.4).
//   - smaller (Options.Smaller): the argmax is found bit by bit over the
//     order-preserving bits S'_b of the score, Max_b(i) := leftmost [M,
//     Argmax_{b+1}(i,j) ∧ S'_b(i,j)] 1 : 0, and the attended feature is tb
//     [M, Argmax_0(i,j)] f(j) : 0 — ⌈log₂|F|⌉ + 1 attention operations per
//     head and feature instead of |F|·(1+features).
//
// Masks and tie-breaks carry over unchanged (strict and non-strict); the
// zero vector received when nothing is unmasked appears as the attended
// features' default 0 and as "some position is unmasked", which is 1 for
// non-strict masks and no mask, !first(i) for strict future masking and
// !last(i) for strict past masking. Multi-head layers (App. C) sum their
// heads before the FFN, so each head contributes its own attended features.
// Layer norm (§4.3) is a position-wise function and is evaluated exactly.
//
// Coordinates the output cannot depend on are dropped before a vector is
// interned (set to 0), so that the copies a head makes for the FFN after it
// do not multiply the reachable sets. A layer norm reads every coordinate
// through its mean and variance; when no later layer writes a dead
// coordinate and the norms have one gain and bias on the dead coordinates
// (as compiled models' norms do), vectors are interned by their other
// coordinates plus the sum and sum of squares of the dead ones, which is
// exact (see frozenCoords). Otherwise every coordinate before a norm
// counts. Position embeddings (§5.3) become position predicates: MOD_r_p
// for sinusoids of rational frequency with denominator p and for MOD
// terms, first, last and Mid, and for a table term one
// PERIODIC_<prefix>_<period> predicate per value but the smallest ("the
// table has this value at i", in normal form), which together determine
// the term's value at every position (Thm 5.3: an embedding with finite
// image is read by finitely many position predicates).
//
// # Models over propositions
//
// A model over k propositions (transformer.Model.Props: a multi-hot
// embedding) becomes a program over the same propositions, whose initial
// vectors are P_p. Its alphabet is the 2^k valuations, so the enumeration
// above, whose embedding vectors are one per symbol, is exponential in k.
// The coordinate-wise route (props.go) never enumerates valuations: it
// tracks the finite value set of each residual coordinate separately and
// computes every component from the coordinates it reads.
//
//   - After the embedding, coordinate c is EmbeddingBias[c] + Σ h_p·Embedding[p][c]
//     plus its position terms: a function of the propositions whose rows
//     touch c (one for a compiled model) and of the position key.
//   - After the attention of a layer, c is its own value plus, for each
//     head whose value matrix writes c, Σ_k Value[c][k]·x_j[k] at the
//     attended j (nothing when no position is unmasked): a function of c's
//     features, of the attended features of the k it reads (the proof's
//     attention translation, either one, with score predicates synthesised
//     on the product of the value sets of the coordinates the score reads
//     at i and at j) and of "some position is unmasked".
//   - After the FFN, c is c + Σ_u W2[c][u]·ReLU(W1[u]·x + B1[u]) + B2[c]
//     over the hidden units u that write c: a function of the coordinates
//     those units read.
//   - The output reads the coordinates with a nonzero output weight.
//
// Each such function is tabulated on the product of the value sets of what
// it reads. The product contains every combination that occurs (each input
// takes a value of its set, by induction) and usually more; on all of them
// the function is computed exactly, so the program's features, synthesised
// on the product (the encoding of coordinate values by rank bits, as
// above), equal the model's on every trace. Only the combinations where a
// head attends nowhere but an attended feature is nonzero are left out:
// the program's attended features are then 0 by construction. Coordinates
// are computed on demand from the output backwards, so only those the
// output depends on are tabulated, and dead coordinates cost nothing.
//
// A layer norm reads every coordinate through the mean and variance, which
// the product of value sets cannot bound (compiled norms see a constant
// variance only because each truth value comes with its complement), so a
// model with layer norms is refused by this route. decompileProps then
// falls back to the valuations: the model over the 2^k valuation symbols
// (transformer.Model.OverValuations) is decompiled as above and the
// program read back over the propositions (brasp.FromValuationLetters),
// for at most transformer.MaxValuationProps propositions; the same
// fallback applies when a table exceeds a limit. The coordinate-wise route
// comes first because it is polynomial on compiled models (each table is
// as large as the truth table of the Boolean function the compiler put in
// an FFN, at most 2^compile-ffn-inputs, whatever k), while the valuation
// route is exponential in k for every model and already stops at
// decompile-classes for twelve propositions; the valuation route comes
// second because it handles every shape (layer norms, dense embeddings)
// within twelve propositions. Info.Route says which route ran. The
// tables are bounded by decompile-product (the product of the value sets
// of one table) and their construction and synthesis by decompile-work.
//
// # Data flow and files
//
// Decompile (decompile.go) checks the model, then runs the decompiler
// layer by layer, each step taking the previous level (the reachable
// vectors and their Boolean features) to the next:
//
//   - live.go decides first which coordinates can reach the output
//     (liveCoords, frozenCoords), so that interning ignores the others.
//   - embedding.go enumerates the embedding vectors per symbol and position
//     class and defines the layer-0 features from Q_σ and the position
//     predicates.
//   - heads.go reads each head on the reachable vectors: its score set F,
//     the rank of every (query, key) pair, the value vectors, which keys can
//     be attended, and emits the attention operations of either translation.
//   - layer.go enumerates the layer's (own vector, attended vectors)
//     combinations, finishes each with the model's arithmetic
//     (transformer.Arith: residual, FFN, layer norm) and interns the
//     results as the next level.
//   - features.go encodes a level's vectors as Boolean features and writes
//     each feature, score predicate and output as a formula over the
//     previous features, synthesised by synth.go.
//   - props.go is the coordinate-wise route for models over propositions
//     (positions, score tables, attention translation, synthesis and the
//     ir are shared with the route above).
//   - ir.go holds the program under construction and simplifies it into the
//     brasp.Program that decompile.go returns (an acceptor's Y, or one
//     output vector per symbol of a transducer).
//
// # Readability
//
// The program is built in an intermediate form and then simplified: constants
// are folded (a coordinate constant on the reachable set is no feature at
// all), aliases and operations with identical definitions are merged, and
// operations the output does not depend on are dropped. Features are named
// after the model's coordinate labels: a coordinate labelled P_l taking the
// values 0 and 1 becomes the vector P_l, one taking two other values x < y
// becomes P_l_is_y, and one with more values the bits P_l_b0, P_l_b1, ....
//
// # Limits
//
// The enumeration is exponential in the worst case; it runs within a
// *budget.Budget whose named limits bound the reachable vectors per layer
// (decompile-classes), the combinations examined per layer
// (decompile-combos), the tables of the coordinate-wise route
// (decompile-product), the scores per head (decompile-scores), the position
// period (decompile-period), the exact arithmetic, the truth tables and
// the Boolean synthesis (decompile-work: its minterm expansion, quadratic
// in the points, is charged as it goes) and the length of every exact
// rational (rational-bits). Exceeding one stops with a *budget.Error that names it;
// the budget's context stops the work too.
package decompile
