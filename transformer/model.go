package transformer

import (
	"math/big"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/position"
)

// FormatVersion is the value of the "format" field of every model file this
// package writes, and the only one it reads.
const FormatVersion = "brasp-transformer/1"

// Model is a masked unique-hard-attention transformer (§4.1) with the
// extensions of §4.3 (layer norm), §5.2 (non-strict masks), §5.3 (position
// embeddings) and App. C (multi-head attention): the central type of this
// package.
//
// Every parameter is an exact rational number, so that converters (the
// decompiler of Thm 4.2 in particular) can reason about the exact set of
// values the model computes. The forward passes read these fields and never
// change them; a model must satisfy Validate before it is run. Entries are
// read-only: the loaders share one rational between all entries equal to
// the same small integer (a model costs a pointer per parameter, not a
// rational), so a caller changing an entry copies it first.
type Model struct {
	// Alphabet is the input alphabet Σ; symbol k of a word is Alphabet[k].
	Alphabet alphabet.Alphabet
	// Width is d, the dimension of the residual stream.
	Width int
	// Labels names each of the Width residual coordinates (for compiled
	// models: the B-RASP vector it holds, or its role, such as
	// "P_l.default_flag").
	Labels []string
	// Embedding[k] is the word embedding emb(Alphabet[k]), of length Width;
	// in a model over propositions, the embedding of proposition Props[k].
	Embedding []Vec
	// Props, when not nil, makes the model read traces of proposition sets
	// instead of words (Alphabet is then empty): the embedding of a step
	// is the multi-hot one, EmbeddingBias + Σ Embedding[p] over the
	// propositions p true at that step (see propositions.go).
	Props []string
	// EmbeddingBias is the embedding of a step where no proposition holds
	// (models over propositions only).
	EmbeddingBias Vec
	// Position lists the terms of the position embedding θ_n(i), summed into
	// the word embedding; empty for a model without position embedding.
	Position []PositionTerm
	// Layers are applied in order to the embedded word.
	Layers []Layer
	// Output is the acceptor's output layer: accept iff
	// Weight·x_n + Bias ≥ 0, where x_n is the last position's final
	// activation. A transducer may leave it empty (nil Weight and Bias).
	Output Output
	// Transduction, if not nil, makes the model a length-preserving
	// transducer (§3.1): it outputs at every position a symbol of
	// Transduction.Symbols.
	Transduction *Transduction
}

// Transduction is a transducer's output layer: the output at position i is
// the symbol γ whose score Weight[γ]·x_i + Bias[γ] is ≥ 0; exactly one must
// be (as exactly one output vector Y_γ of a B-RASP transducer is 1).
type Transduction struct {
	Symbols alphabet.Alphabet
	Weight  Matrix // |Symbols| × d
	Bias    Vec    // |Symbols|
}

// IsTransducer reports whether the model outputs a word rather than
// accepting or rejecting.
func (m *Model) IsTransducer() bool { return m.Transduction != nil }

// Vec is a vector of exact rationals. Entries are never nil in a valid model.
type Vec []*big.Rat

// Matrix is a row-major matrix of exact rationals, laid out like PyTorch's
// nn.Linear.weight: Matrix[out][in].
type Matrix []Vec

// Layer is one transformer layer (eq. (1) of §4.1, multi-head as in App. C):
//
//	c_i = AttentionNorm( x_i + Σ_h head_h(x)_i )
//	y_i = FFNNorm( c_i + FFN(c_i) )
//
// A nil norm is the identity; a nil FFN contributes nothing (y = c); a layer
// without heads only runs its FFN.
type Layer struct {
	// Heads are the attention heads; their outputs are summed.
	Heads []Head
	// FFN is the position-wise two-layer ReLU network, or nil.
	FFN *FFN
	// AttentionNorm is applied after the attention residual, or nil.
	AttentionNorm *LayerNorm
	// FFNNorm is applied after the FFN residual, or nil.
	FFNNorm *LayerNorm
}

// Head is one unique-hard attention head. Position i attends to the unmasked
// position j with the greatest score x_i·(Score·x_j), ties broken by
// Tiebreak, and receives Value·x_j; with no unmasked position it receives the
// zero vector.
type Head struct {
	Mask     position.Mask
	Tiebreak position.Tiebreak
	// Score is the d×d matrix of the bilinear score f_S(x_i,x_j) = x_i·(Score·x_j).
	Score Matrix
	// Value is the d×d matrix of the value function f_V(x_j) = Value·x_j.
	Value Matrix
}

// FFN is a two-layer ReLU network with hidden width len(B1):
// ffn(c) = W2·ReLU(W1·c + B1) + B2.
type FFN struct {
	W1 Matrix // hidden × d
	B1 Vec    // hidden
	W2 Matrix // d × hidden
	B2 Vec    // d
}

// Hidden returns the hidden width of the network.
func (f *FFN) Hidden() int { return len(f.B1) }

// LayerNorm is layer normalisation with per-coordinate gain and bias:
//
//	LN(x) = Gamma ⊙ (x − mean(x)) / σ + Beta,   σ = sqrt(var(x) + Eps)
//
// where var is the population variance. Because σ is in general irrational,
// the model's σ is defined as the exact rational root when var+Eps is the
// square of a rational, and otherwise as the float64 math.Sqrt of the
// float64 nearest to var+Eps (IEEE, correctly rounded, as in NumPy; beyond
// the float64 range, the square root rounded to 53 bits). When σ = 0 the
// normalised vector is taken to be 0 (LN(x) = Beta).
type LayerNorm struct {
	Gamma Vec
	Beta  Vec
	Eps   *big.Rat
}

// Output is the acceptor's output layer.
type Output struct {
	Weight Vec
	Bias   *big.Rat
}

// NumParams returns the number of scalar parameters: embeddings, attention
// matrices, FFN weights and biases, layer-norm gains and biases, and the
// output layer (position embedding terms count their scale, tables also
// their entries).
func (m *Model) NumParams() int {
	d := m.Width
	n := len(m.Embedding)*d + len(m.EmbeddingBias) + len(m.Position)
	for k := range m.Position {
		n += len(m.Position[k].Prefix) + len(m.Position[k].Period)
	}
	if m.Output.Weight != nil {
		n += d + 1
	}
	if t := m.Transduction; t != nil {
		n += len(t.Symbols) * (d + 1)
	}
	for _, l := range m.Layers {
		n += len(l.Heads) * 2 * d * d
		if l.FFN != nil {
			h := l.FFN.Hidden()
			n += 2*h*d + h + d
		}
		for _, ln := range []*LayerNorm{l.AttentionNorm, l.FFNNorm} {
			if ln != nil {
				n += 2*d + 1
			}
		}
	}
	return n
}

// NumHeads returns the total number of attention heads.
func (m *Model) NumHeads() int {
	n := 0
	for _, l := range m.Layers {
		n += len(l.Heads)
	}
	return n
}

// AttentionLayers returns the number of layers that have at least one head:
// the paper's layer depth (§5.4).
func (m *Model) AttentionLayers() int {
	n := 0
	for _, l := range m.Layers {
		if len(l.Heads) > 0 {
			n++
		}
	}
	return n
}
