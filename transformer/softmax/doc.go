// Package softmax exports a masked unique-hard-attention transformer as a
// standard softmax-attention transformer, with a certificate that on every
// word of length at most N the two give the same verdicts (and, for
// transducers, the same output words).
//
// # Construction
//
// The softmax model keeps every parameter of the hard model (embedding,
// position terms, score and value matrices, FFNs, output layers) and
// replaces each head's argmax by a softmax. For a head with score matrix S,
// value matrix V, mask M and tie-break, position i (1-based) puts on each
// position j that M allows the weight proportional to
//
//	exp(λ · (x_iᵀ S x_j + b·j))
//
// and on a sink the weight proportional to exp(λ · s), where
//
//   - λ is the scale (one for the whole model, a power of two);
//   - b = +β for a rightmost head and −β for a leftmost one, β = δ/(2N),
//     δ the least positive difference between two scores of reachable
//     activations (below): a linear position bias that breaks ties the way
//     the hard head does and is too small to reorder distinct scores. Since
//     b·j and b·(j−i) differ by a constant in each row, this is ALiBi's bias
//     with slope β;
//   - the sink is an extra key with logit s = (least score) − δ and value 0
//     (a null key, as in attention with a sink token), so that a position
//     whose mask allows nothing receives 0 exactly, as the hard head's
//     default does.
//
// Layer norm is not supported (its error bound needs σ bounded away from 0
// over perturbed vectors); compile without it.
//
// # Certificate
//
// Reachable activations. R_0 holds every embedding emb(a) + θ_n(i) for
// every symbol a and every combination of the finitely many position-term
// values (residue modulo the period, first, last, mid): a superset of the
// embeddings occurring in words of any length. For a model over
// propositions a ranges over the 2^k steps (sets of true propositions),
// emb(a) their multi-hot embeddings, so R_0 is exponential in k and
// charged to the softmax-bytes limit; the exported model reads traces
// (Model.OverSteps). R_{l+1} holds FFN(x + Σ_h v_h)
// for x ∈ R_l and v_h ∈ {V_h y : y ∈ R_l} ∪ {0}: a superset of the hard
// model's activations after layer l on every word. Every quantity below is
// a minimum or maximum over these finite sets, computed exactly in rationals
// (so over a superset it is a safe bound).
//
// Error bound. Let e_l bound |x̃ − x|∞ at every position, where x is the
// hard model's activation and x̃ the softmax model's, at the input of layer
// l (e_0 = 0). For a head:
//
//   - scores move by at most σ = e·(A + B) + e²·C, A = max ‖S y‖₁,
//     B = max ‖Sᵀ y‖₁ over y ∈ R_l, C = Σ|S_ab|;
//   - let j* be the position the hard head attends to. Every other allowed
//     position j has logit at least λγ below j*'s, γ = β − 2σ: if its exact
//     score is lower, by at least δ − β(N−1) − 2σ ≥ δ/2 − 2σ ≥ γ; if equal,
//     the tie-break puts j* on the side the bias favours, by at least β − 2σ.
//     The sink is at least δ − βN − 2σ ≥ γ below. So when γ > 0 the weight
//     off j* is at most η = N·exp(−λγ);
//   - the head's output then differs from V x_{j*} by at most
//     ε = ‖V‖∞·e + η·(D + 2‖V‖∞·e), D the largest ∞-distance between two
//     of its values (0 included), ‖V‖∞ the largest row sum of |V|. With no
//     allowed position all weight is on the sink: the output is 0 exactly.
//
// The residual adds the heads' errors: e_c = e + Σ_h ε_h; an FFN with weights
// W1, W2 maps it to e_c·(1 + ‖W2‖∞‖W1‖∞). At the output, the acceptor's
// score moves by at most ‖w‖₁·e_L, which must be below the least |w·x + b|
// over x ∈ R_L (the margin, ½ for compiled models); a transducer needs the
// same for every output symbol. Errors shrink as λ grows (η falls
// exponentially), so the export takes the least power of two λ for which
// every γ is positive and the final error is below the margin; the
// Certificate records every quantity of the chain. Bounds are computed in
// float64 from exact rationals, each rounded outward by a relative 2⁻³⁰.
//
// Past N the proof says nothing, and the model does fail: the bias β·j
// grows past δ/2 and reorders distinct scores, and N·exp(−λγ) grows.
//
// Files: export.go (Export, the certificate's chain and the model),
// reachable.go (the reachable activation vectors R_0, R_1, ... of the hard
// model) and bounds.go (each head's score gaps and norms, the output
// margin).
package softmax
