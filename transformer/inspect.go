package transformer

import (
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/brasp-dev/brasp/alphabet"
)

// Describe returns a human-readable summary of m, like a disassembler:
// alphabet, width, layers, heads, parameter count, then per layer what each
// head's score compares (query coordinates · key coordinates), what its
// value writes, and which coordinates each FFN reads and writes, all named
// by their labels. It is what `brasp inspect` prints.
func Describe(m *Model) string {
	var b strings.Builder
	hidden := 0
	for _, l := range m.Layers {
		if l.FFN != nil {
			hidden += l.FFN.Hidden()
		}
	}
	inputs := "alphabet {" + m.Alphabet.String() + "}"
	if m.Props != nil {
		inputs = "propositions {" + strings.Join(m.Props, " ") + "} (multi-hot embedding)"
	}
	fmt.Fprintf(&b, "transformer: %s, width %d, %d layers (%d with attention), %d heads, %d FFN hidden units, %d parameters (%d with sparse heads)\n",
		inputs, m.Width, len(m.Layers), m.AttentionLayers(), m.NumHeads(), hidden, m.NumParams(), m.NumStoredParams())
	label := func(k int) string { return m.Labels[k] }
	b.WriteString("embedding:\n")
	if m.Props != nil {
		fmt.Fprintf(&b, "  bias: %s\n", nonzeros(m.EmbeddingBias, label))
	}
	for s, e := range m.Embedding {
		fmt.Fprintf(&b, "  %s: %s\n", m.inputNames()[s], nonzeros(e, label))
	}
	if len(m.Position) > 0 {
		b.WriteString("position embedding:\n")
		for _, t := range m.Position {
			what := t.Kind.String()
			switch t.Kind {
			case PosSin, PosCos:
				what = fmt.Sprintf("%s(2π·%s·i)", t.Kind, t.Frequency.RatString())
			case PosMod:
				what = fmt.Sprintf("[i ≡ %d mod %d]", t.R, t.M)
			case PosFirst:
				what = "[i = 1]"
			case PosLast:
				what = "[i = n]"
			case PosMid:
				what = "[i = (n+1)/2, n odd]"
			case PosTable:
				what = "table" + tableString(t.Prefix, t.Period)
			}
			if t.Negated {
				what = "1 − " + what
			}
			fmt.Fprintf(&b, "  %s += %s%s\n", label(t.Coord), coef(t.Scale), what)
		}
	}
	for l := range m.Layers {
		layer := &m.Layers[l]
		fmt.Fprintf(&b, "layer %d:\n", l+1)
		for h := range layer.Heads {
			hd := &layer.Heads[h]
			fmt.Fprintf(&b, "  head %d.%d [%s, %s]\n", l+1, h+1, hd.Mask, hd.Tiebreak)
			var terms []string
			for q, row := range hd.Score {
				for k, x := range row {
					if x.Sign() != 0 {
						terms = append(terms, fmt.Sprintf("%s%s(i)·%s(j)", coef(x), label(q), label(k)))
					}
				}
			}
			if len(terms) == 0 {
				terms = []string{"0"}
			}
			fmt.Fprintf(&b, "    score: %s\n", strings.Join(terms, " + "))
			var writes []string
			for dst, row := range hd.Value {
				if s := nonzerosSum(row, label); s != "" {
					writes = append(writes, fmt.Sprintf("%s += %s", label(dst), s))
				}
			}
			if len(writes) == 0 {
				writes = []string{"nothing"}
			}
			fmt.Fprintf(&b, "    value (at j): %s\n", strings.Join(writes, "; "))
		}
		if norm := layer.AttentionNorm; norm != nil {
			fmt.Fprintf(&b, "  layernorm after attention (eps %s)\n", norm.Eps.RatString())
		}
		if f := layer.FFN; f != nil {
			reads := map[int]bool{}
			for _, row := range f.W1 {
				for k, x := range row {
					if x.Sign() != 0 {
						reads[k] = true
					}
				}
			}
			writes := map[int]bool{}
			for k, row := range f.W2 {
				for _, x := range row {
					if x.Sign() != 0 {
						writes[k] = true
					}
				}
				if f.B2[k].Sign() != 0 {
					writes[k] = true
				}
			}
			fmt.Fprintf(&b, "  ffn: %d hidden units; reads %s; writes %s\n", f.Hidden(), labelSet(reads, label), labelSet(writes, label))
		}
		if norm := layer.FFNNorm; norm != nil {
			fmt.Fprintf(&b, "  layernorm after ffn (eps %s)\n", norm.Eps.RatString())
		}
	}
	if m.Output.Weight != nil {
		fmt.Fprintf(&b, "output: accept iff %s ≥ 0\n", affine(m.Output.Weight, m.Output.Bias, label))
	}
	if t := m.Transduction; t != nil {
		for g, s := range t.Symbols {
			fmt.Fprintf(&b, "output symbol %s where %s ≥ 0\n", alphabet.Quote(s), affine(t.Weight[g], t.Bias[g], label))
		}
	}
	return b.String()
}

func coef(x *big.Rat) string {
	if x.Cmp(big.NewRat(1, 1)) == 0 {
		return ""
	}
	if x.Cmp(big.NewRat(-1, 1)) == 0 {
		return "−"
	}
	return FormatRat(x) + "·"
}

func nonzeros(v Vec, label func(int) string) string {
	var parts []string
	for k, x := range v {
		if x.Sign() != 0 {
			parts = append(parts, fmt.Sprintf("%s=%s", label(k), FormatRat(x)))
		}
	}
	if len(parts) == 0 {
		return "0"
	}
	return strings.Join(parts, " ")
}

func nonzerosSum(v Vec, label func(int) string) string {
	var parts []string
	for k, x := range v {
		if x.Sign() != 0 {
			parts = append(parts, coef(x)+label(k))
		}
	}
	return strings.Join(parts, " + ")
}

func labelSet(set map[int]bool, label func(int) string) string {
	var ks []int
	for k := range set {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	names := make([]string, len(ks))
	for x, k := range ks {
		names[x] = label(k)
	}
	return "{" + strings.Join(names, ", ") + "}"
}

func affine(w Vec, bias *big.Rat, label func(int) string) string {
	s := nonzerosSum(w, label)
	if s == "" {
		s = "0"
	}
	if bias.Sign() != 0 {
		b := new(big.Rat).Abs(bias)
		op := " + "
		if bias.Sign() < 0 {
			op = " − "
		}
		s += op + FormatRat(b)
	}
	return s
}

// tableString writes a table term's entries as (prefix | period), the
// period repeated forever.
func tableString(prefix, period []*big.Rat) string {
	parts := make([]string, 0, len(prefix)+len(period)+1)
	for _, x := range prefix {
		parts = append(parts, x.RatString())
	}
	parts = append(parts, "|")
	for _, x := range period {
		parts = append(parts, x.RatString())
	}
	return "(" + strings.Join(parts, " ") + ")"
}
