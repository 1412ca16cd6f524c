package transformer

import (
	"fmt"
	"math/big"
	"math/bits"
	"strings"

	"github.com/brasp-dev/brasp/alphabet"
)

// Models over propositions. A model whose Props is not nil reads traces,
// each step a set of true propositions (LTLf's valuations), through a
// multi-hot token embedding: the input at a step is the vector h ∈ {0,1}^k
// with h_p = 1 when proposition p is true there, and its embedding is the
// affine map
//
//	emb(h) = EmbeddingBias + Σ_p h_p · Embedding[p]
//
// (one row per proposition, as a linear layer over the multi-hot vector
// with a bias), to which the position embedding is added as usual. Nothing
// else in the model changes, so a trace is run by giving each distinct step
// of it its embedding and running the ordinary forward passes on the
// resulting word (OverSteps); the model's language over the 2^k valuations
// is that of OverValuations. The compiler emits such a model for a B-RASP
// program over propositions, with Embedding[p] the indicator of P_p's
// coordinate (and -1 on its complement under layer norm).
//
// In the JSON format a model over propositions has "propositions" (the
// names, in order) instead of "alphabet", "embedding" keyed by proposition,
// and "embedding_bias" (a vector of length width); in safetensors, the
// metadata "propositions" (a JSON array), the tensor embedding [k, d] (row
// p for proposition p) and the tensor embedding_bias [d].

// validateProps checks the input side of a model over propositions.
func (m *Model) validateProps() error {
	if len(m.Alphabet) != 0 {
		return fmt.Errorf("alphabet: a model over propositions has no alphabet (it has %d symbols)", len(m.Alphabet))
	}
	seen := map[string]bool{}
	for _, p := range m.Props {
		if p == "" || seen[p] {
			return fmt.Errorf("propositions: empty or duplicate proposition %q", p)
		}
		seen[p] = true
	}
	if err := checkVec(m.EmbeddingBias, m.Width); err != nil {
		return fmt.Errorf("embedding_bias: %v", err)
	}
	return nil
}

// inputNames names the rows of Embedding: the symbols, or the propositions.
func (m *Model) inputNames() []string {
	if m.Props != nil {
		return m.Props
	}
	return m.Alphabet
}

func (m *Model) inputKind() string {
	if m.Props != nil {
		return "propositions"
	}
	return "symbols"
}

// StepEmbedding returns the multi-hot embedding of a step of a model over
// propositions: EmbeddingBias plus the rows of the propositions in step (a
// bit set over indices of Props; others are ignored).
//
// Entries no true proposition changes are the bias's own values, shared
// (a model's parameters are never modified), so a trace with many distinct
// steps costs one pointer per coordinate and step plus the changed
// entries, not a copy of every rational.
func (m *Model) StepEmbedding(step []uint64) Vec {
	e := make(Vec, len(m.EmbeddingBias))
	copy(e, m.EmbeddingBias)
	owned := make([]bool, len(e))
	for w, word := range step {
		for word != 0 {
			p := w*64 + bits.TrailingZeros64(word)
			word &= word - 1
			if p < len(m.Props) {
				for c, x := range m.Embedding[p] {
					if x.Sign() == 0 {
						continue
					}
					if !owned[c] {
						e[c], owned[c] = new(big.Rat).Set(e[c]), true
					}
					e[c].Add(e[c], x)
				}
			}
		}
	}
	return e
}

// StepName names a step as a trace writes it: {a,b}, or {} when nothing
// holds.
func StepName(props []string, step []uint64) string {
	var on []string
	for p, name := range props {
		if p/64 < len(step) && step[p/64]>>(uint(p)%64)&1 == 1 {
			on = append(on, name)
		}
	}
	return "{" + strings.Join(on, ",") + "}"
}

// OverSteps returns a model over symbols equivalent to m on the trace
// steps, and the trace as a word of it: its symbols are the distinct steps
// of the trace (OverStepSet). Running the word through any forward pass
// runs m on the trace.
func (m *Model) OverSteps(steps [][]uint64) (*Model, []int, error) {
	if m.Props == nil {
		return nil, nil, fmt.Errorf("the model reads words of symbols, not traces")
	}
	index := map[string]int{}
	w := make([]int, len(steps))
	var distinct [][]uint64
	for i, s := range steps {
		name := StepName(m.Props, s)
		k, ok := index[name]
		if !ok {
			k = len(distinct)
			index[name] = k
			distinct = append(distinct, s)
		}
		w[i] = k
	}
	letters, err := m.OverStepSet(distinct)
	return letters, w, err
}

// OverStepSet returns a model over symbols equivalent to m on the traces
// whose steps are among steps (distinct sets): symbol k is steps[k], named
// by StepName and embedded by StepEmbedding, and every other part is m's
// own (shared, not copied). A trace stored as the index of each step's set
// among steps (ltlf.ParseTraceCompact) is then a word of it.
func (m *Model) OverStepSet(steps [][]uint64) (*Model, error) {
	if m.Props == nil {
		return nil, fmt.Errorf("the model reads words of symbols, not traces")
	}
	letters := *m
	letters.Props, letters.EmbeddingBias = nil, nil
	letters.Alphabet = make(alphabet.Alphabet, len(steps))
	letters.Embedding = make([]Vec, len(steps))
	for k, s := range steps {
		letters.Alphabet[k] = StepName(m.Props, s)
		letters.Embedding[k] = m.StepEmbedding(s)
	}
	return &letters, nil
}

// MaxValuationProps bounds the propositions of a model that OverValuations
// spells out as 2^k symbols.
const MaxValuationProps = 12

// OverValuations returns the model over symbols equivalent to a model over
// propositions on every trace: its symbols are the 2^k valuations, symbol
// v making proposition i true when bit i of v is set, named by StepName
// ({} , {a}, {b}, {a,b}, …).
func (m *Model) OverValuations() (*Model, error) {
	if m.Props == nil {
		return m, nil
	}
	k := len(m.Props)
	if k > MaxValuationProps {
		return nil, fmt.Errorf("%d propositions: the model over their valuations would have 2^%d symbols (at most %d propositions)",
			k, k, MaxValuationProps)
	}
	letters := *m
	letters.Props, letters.EmbeddingBias = nil, nil
	letters.Alphabet = make(alphabet.Alphabet, 1<<k)
	letters.Embedding = make([]Vec, 1<<k)
	for v := range letters.Alphabet {
		step := []uint64{uint64(v)}
		letters.Alphabet[v] = StepName(m.Props, step)
		letters.Embedding[v] = m.StepEmbedding(step)
	}
	return &letters, nil
}
