package transformer

import (
	"strconv"
	"strings"

	"github.com/brasp-dev/brasp/budget"
)

// Trace is every intermediate value of a forward pass on one word, exactly:
// what a debugger or another implementation (the Python package) compares
// against, coordinate by coordinate.
type Trace struct {
	// Embed[i] is the embedded position i: word embedding plus position terms.
	Embed []Vec
	// Layers has one entry per layer.
	Layers []LayerTrace
}

// LayerTrace is one layer of a Trace.
type LayerTrace struct {
	// Attended[h][i] is the 0-based position head h attends to from position
	// i, -1 when the mask leaves none.
	Attended [][]int
	// Mid[i] is c_i = AttentionNorm(x_i + Σ_h head_h(x)_i).
	Mid []Vec
	// Post[i] is y_i = FFNNorm(c_i + FFN(c_i)), the layer's output.
	Post []Vec
}

// Trace runs the dense pass (Model.ForwardDense's definition) on w in exact
// rational arithmetic and records every layer's activations and every
// head's attended positions. It is O(n²·d²) per head and meant for short
// words. It runs within b: its context stops it, and rational-bits bounds
// every value (nil: the defaults).
func (m *Model) Trace(b *budget.Budget, w []int) (*Trace, error) {
	t := &Trace{}
	if _, err := m.denseExactPattern(b, w, nil, t); err != nil {
		return nil, err
	}
	return t, nil
}

// Trace is Model.Trace within the runner's budget.
func (r *Runner) Trace(w []int) (*Trace, error) { return r.m.Trace(r.bud, w) }

func copyVecs(vs []Vec) []Vec {
	out := make([]Vec, len(vs))
	for k, v := range vs {
		out[k] = copyVec(v)
	}
	return out
}

// JSON returns the trace as one JSON object, every number exact (as in the
// model format: a JSON number when dyadic, a "p/q" string otherwise):
//
//	{"embed": [[...] per position],
//	 "layers": [{"attended": [[j per position] per head], "mid": [...], "post": [...]}]}
func (t *Trace) JSON() string {
	var b strings.Builder
	vecs := func(vs []Vec) {
		b.WriteByte('[')
		for i, v := range vs {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strings.Join(strings.Fields(vecJSON(v)), ""))
		}
		b.WriteByte(']')
	}
	b.WriteString(`{"embed":`)
	vecs(t.Embed)
	b.WriteString(`,"layers":[`)
	for l, lt := range t.Layers {
		if l > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"attended":[`)
		for h, att := range lt.Attended {
			if h > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('[')
			for i, j := range att {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(strconv.Itoa(j))
			}
			b.WriteByte(']')
		}
		b.WriteString(`],"mid":`)
		vecs(lt.Mid)
		b.WriteString(`,"post":`)
		vecs(lt.Post)
		b.WriteByte('}')
	}
	b.WriteString("]}")
	return b.String()
}
