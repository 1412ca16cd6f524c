package transformer

import (
	"fmt"

	"github.com/brasp-dev/brasp/position"
)

// Limits on the size of a model, checked by Validate so that a hostile file
// cannot make the forward passes allocate without bound.
const (
	MaxWidth  = 1 << 14
	MaxHidden = 1 << 20
	MaxLayers = 1 << 12
	MaxHeads  = 1 << 10
)

// Validate checks that m is well formed: every shape agrees with Width,
// every entry is present, masks, tie-breaks and position terms are known,
// and the alphabet and labels are consistent. The error names the field and
// what is wrong with it.
func (m *Model) Validate() error {
	d := m.Width
	if d < 1 || d > MaxWidth {
		return fmt.Errorf("width: %d is out of range 1..%d", d, MaxWidth)
	}
	if m.Props != nil {
		if err := m.validateProps(); err != nil {
			return err
		}
	} else if len(m.Alphabet) == 0 {
		return fmt.Errorf("alphabet: empty")
	}
	seen := map[string]bool{}
	for _, s := range m.Alphabet {
		if s == "" {
			return fmt.Errorf("alphabet: empty symbol")
		}
		if seen[s] {
			return fmt.Errorf("alphabet: duplicate symbol %q", s)
		}
		seen[s] = true
	}
	if len(m.Labels) != d {
		return fmt.Errorf("labels: %d labels for width %d", len(m.Labels), d)
	}
	inputs := m.inputNames()
	if len(m.Embedding) != len(inputs) {
		return fmt.Errorf("embedding: %d vectors for %d %s", len(m.Embedding), len(inputs), m.inputKind())
	}
	for k, e := range m.Embedding {
		if err := checkVec(e, d); err != nil {
			return fmt.Errorf("embedding[%q]: %v", inputs[k], err)
		}
	}
	for k := range m.Position {
		if err := m.Position[k].check(d); err != nil {
			return fmt.Errorf("position[%d]: %v", k, err)
		}
	}
	if _, err := positionPeriod(m.Position); err != nil {
		return err
	}
	if len(m.Layers) > MaxLayers {
		return fmt.Errorf("layers: %d layers, more than MaxLayers = %d", len(m.Layers), MaxLayers)
	}
	for l := range m.Layers {
		if err := m.Layers[l].check(d); err != nil {
			return fmt.Errorf("layers[%d].%v", l, err)
		}
	}
	if t := m.Transduction; t != nil {
		if len(t.Symbols) == 0 {
			return fmt.Errorf("transduction.symbols: empty")
		}
		seen := map[string]bool{}
		for _, s := range t.Symbols {
			if s == "" || seen[s] {
				return fmt.Errorf("transduction.symbols: empty or duplicate symbol %q", s)
			}
			seen[s] = true
		}
		if err := checkMatrix(t.Weight, len(t.Symbols), d); err != nil {
			return fmt.Errorf("transduction.weight: %v", err)
		}
		if err := checkVec(t.Bias, len(t.Symbols)); err != nil {
			return fmt.Errorf("transduction.bias: %v", err)
		}
		if m.Output.Weight == nil && m.Output.Bias == nil {
			return nil
		}
	}
	if err := checkVec(m.Output.Weight, d); err != nil {
		return fmt.Errorf("output.weight: %v", err)
	}
	if m.Output.Bias == nil {
		return fmt.Errorf("output.bias: missing")
	}
	return nil
}

func (t *PositionTerm) check(d int) error {
	if t.Coord < 0 || t.Coord >= d {
		return fmt.Errorf("coord %d is out of range 0..%d", t.Coord, d-1)
	}
	if t.Scale == nil {
		return fmt.Errorf("scale: missing")
	}
	switch t.Kind {
	case PosSin, PosCos:
		if t.Frequency == nil {
			return fmt.Errorf("frequency: missing for a %s term", t.Kind)
		}
		if t.Negated {
			return fmt.Errorf("negated: only predicate terms can be negated")
		}
		if !t.Frequency.Denom().IsInt64() || t.Frequency.Denom().Int64() > MaxPositionPeriod {
			return fmt.Errorf("frequency %s: denominator above MaxPositionPeriod = %d", t.Frequency.RatString(), MaxPositionPeriod)
		}
	case PosFirst, PosLast, PosMid:
	case PosTable:
		if t.Negated {
			return fmt.Errorf("negated: only predicate terms can be negated")
		}
		if len(t.Period) == 0 {
			return fmt.Errorf("period: a table term needs a non-empty period")
		}
		if len(t.Prefix) > MaxPositionPeriod || len(t.Period) > MaxPositionPeriod {
			return fmt.Errorf("the table has a prefix of %d and a period of %d entries, above MaxPositionPeriod = %d", len(t.Prefix), len(t.Period), MaxPositionPeriod)
		}
		for k, x := range t.Prefix {
			if x == nil {
				return fmt.Errorf("prefix[%d]: missing", k)
			}
		}
		for k, x := range t.Period {
			if x == nil {
				return fmt.Errorf("period[%d]: missing", k)
			}
		}
	case PosMod:
		if t.M < 1 || t.M > MaxPositionPeriod {
			return fmt.Errorf("m = %d is out of range 1..%d", t.M, MaxPositionPeriod)
		}
		if t.R < 0 || t.R >= t.M {
			return fmt.Errorf("r = %d is out of range 0..%d", t.R, t.M-1)
		}
	default:
		return fmt.Errorf("unknown kind %d", t.Kind)
	}
	if t.Kind != PosSin && t.Kind != PosCos && t.Frequency != nil {
		return fmt.Errorf("frequency: only sin and cos terms have one")
	}
	if t.Kind != PosTable && (t.Prefix != nil || t.Period != nil) {
		return fmt.Errorf("prefix, period: only table terms have them")
	}
	return nil
}

func (l *Layer) check(d int) error {
	if len(l.Heads) > MaxHeads {
		return fmt.Errorf("attention: %d heads, more than MaxHeads = %d", len(l.Heads), MaxHeads)
	}
	for h := range l.Heads {
		hd := &l.Heads[h]
		if !hd.Mask.Valid() {
			return fmt.Errorf("attention[%d].mask: unknown mask %d", h, hd.Mask)
		}
		if hd.Tiebreak > position.Rightmost {
			return fmt.Errorf("attention[%d].tiebreak: unknown tie-break %d", h, hd.Tiebreak)
		}
		if err := checkMatrix(hd.Score, d, d); err != nil {
			return fmt.Errorf("attention[%d].score: %v", h, err)
		}
		if err := checkMatrix(hd.Value, d, d); err != nil {
			return fmt.Errorf("attention[%d].value: %v", h, err)
		}
	}
	if f := l.FFN; f != nil {
		h := len(f.B1)
		if h > MaxHidden {
			return fmt.Errorf("ffn.b1: hidden width %d, more than MaxHidden = %d", h, MaxHidden)
		}
		if err := checkMatrix(f.W1, h, d); err != nil {
			return fmt.Errorf("ffn.w1: %v", err)
		}
		if err := checkVec(f.B1, h); err != nil {
			return fmt.Errorf("ffn.b1: %v", err)
		}
		if err := checkMatrix(f.W2, d, h); err != nil {
			return fmt.Errorf("ffn.w2: %v", err)
		}
		if err := checkVec(f.B2, d); err != nil {
			return fmt.Errorf("ffn.b2: %v", err)
		}
	}
	for name, ln := range map[string]*LayerNorm{"attention": l.AttentionNorm, "ffn": l.FFNNorm} {
		if ln == nil {
			continue
		}
		if err := checkVec(ln.Gamma, d); err != nil {
			return fmt.Errorf("layernorm.%s.gamma: %v", name, err)
		}
		if err := checkVec(ln.Beta, d); err != nil {
			return fmt.Errorf("layernorm.%s.beta: %v", name, err)
		}
		if ln.Eps == nil || ln.Eps.Sign() < 0 {
			return fmt.Errorf("layernorm.%s.eps: must be a number ≥ 0", name)
		}
	}
	return nil
}

func checkVec(v Vec, n int) error {
	if len(v) != n {
		return fmt.Errorf("has %d entries, want %d", len(v), n)
	}
	for k, x := range v {
		if x == nil {
			return fmt.Errorf("entry %d is missing", k)
		}
	}
	return nil
}

func checkMatrix(m Matrix, rows, cols int) error {
	if len(m) != rows {
		return fmt.Errorf("has %d rows, want %d", len(m), rows)
	}
	for r, row := range m {
		if err := checkVec(row, cols); err != nil {
			return fmt.Errorf("row %d %v", r, err)
		}
	}
	return nil
}
