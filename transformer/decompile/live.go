package decompile

import (
	"math/big"
	"strings"

	"github.com/brasp-dev/brasp/transformer"
)

// liveCoords computes, for the activation after the embedding (index 0) and
// after each layer l (index l+1), which coordinates can influence the
// output. A dead coordinate is set to 0 before a vector is interned: this
// changes nothing the output depends on, and keeps coordinates that are
// written once and never read again (such as the copies a compiled head
// makes for the FFN after it) from multiplying the reachable set.
//
// Influence is traced backwards through the output weights, FFN weights
// (an input coordinate matters if it reaches a hidden unit that writes a
// live coordinate), value matrices (the attended vector's coordinates that
// reach a live coordinate) and score matrices (every coordinate the score
// reads, at i and at j, of a head whose value reaches a live coordinate). A
// layer norm mixes all coordinates through its mean and variance, so
// everything before it is live as soon as anything after it is.
func liveCoords(m *transformer.Model) [][]bool { return liveCoordsMode(m, false) }

// liveCoordsMode is liveCoords; with transparent set, layer norms are
// treated as coordinate-wise (see frozenCoords).
func liveCoordsMode(m *transformer.Model, transparent bool) [][]bool {
	d := m.Width
	L := len(m.Layers)
	live := make([][]bool, L+1)
	live[L] = outputCoords(m)
	all := func(s []bool) []bool {
		for _, b := range s {
			if b {
				t := make([]bool, len(s))
				for k := range t {
					t[k] = true
				}
				return t
			}
		}
		return s
	}
	for l := L - 1; l >= 0; l-- {
		layer := &m.Layers[l]
		ly := append([]bool(nil), live[l+1]...)
		if layer.FFNNorm != nil && !transparent {
			ly = all(ly)
		}
		lc := append([]bool(nil), ly...)
		if f := layer.FFN; f != nil {
			for u := range f.B1 {
				used := false
				for c := range d {
					if ly[c] && f.W2[c][u].Sign() != 0 {
						used = true
						break
					}
				}
				if !used {
					continue
				}
				for k := range d {
					if f.W1[u][k].Sign() != 0 {
						lc[k] = true
					}
				}
			}
		}
		if layer.AttentionNorm != nil && !transparent {
			lc = all(lc)
		}
		lx := append([]bool(nil), lc...)
		for h := range layer.Heads {
			hd := &layer.Heads[h]
			used := false
			for c := range d {
				if !lc[c] {
					continue
				}
				for k := range d {
					if hd.Value[c][k].Sign() != 0 {
						lx[k] = true
						used = true
					}
				}
			}
			if !used {
				continue
			}
			for a := range d {
				for b := range d {
					if hd.Score[a][b].Sign() != 0 {
						lx[a], lx[b] = true, true
					}
				}
			}
		}
		live[l] = lx
	}
	return live
}

// outputCoords marks the coordinates the output layer reads: the acceptor's
// output weights, or for a transducer the rows of its output scores.
func outputCoords(m *transformer.Model) []bool {
	out := make([]bool, m.Width)
	if t := m.Transduction; t != nil {
		for _, row := range t.Weight {
			for c, w := range row {
				if w.Sign() != 0 {
					out[c] = true
				}
			}
		}
		return out
	}
	for c, w := range m.Output.Weight {
		out[c] = w.Sign() != 0
	}
	return out
}

// project sets the dead coordinates of x to 0 (in place).
func project(x transformer.Vec, live []bool) transformer.Vec {
	for c := range x {
		if !live[c] && x[c].Sign() != 0 {
			x[c].SetInt64(0)
		}
	}
	return x
}

// frozenCoords handles layer norm without making every coordinate live.
//
// Call a coordinate frozen at level l if no layer from l on reads it other
// than through its norms (no score row or column, value column or FFN
// input column for it; not the output's) and none writes into it (no value
// row, FFN output row or FFN bias for it). A coordinate that is dead for
// the output can still matter through a norm when a head copies it into a
// coordinate the norm averages over, so being dead is not enough. A norm
// reads frozen coordinates only through the mean and variance of the whole
// vector, that is through s1 = Σ x_c and s2 = Σ x_c² over the frozen set F;
// and when every norm has one gain and one bias on F, it maps each frozen
// x_c to g·(x_c−μ)/σ + b, so the new s1 and s2 follow from the old ones and
// μ, σ. Hence the rest of the computation depends on a vector only through
// its non-frozen coordinates and (s1, s2): vectors that agree on these are
// interchangeable. This is what makes compiled layer-norm models, whose
// heads leave copies that no later layer reads, tractable.
//
// frozenCoords returns the frozen sets per level and true when the model
// has a norm and every norm is uniform on the frozen set of its layer;
// otherwise false (the caller then uses liveCoords).
func frozenCoords(m *transformer.Model) ([][]bool, bool) {
	hasNorm := false
	for l := range m.Layers {
		if m.Layers[l].AttentionNorm != nil || m.Layers[l].FFNNorm != nil {
			hasNorm = true
		}
	}
	if !hasNorm {
		return nil, false
	}
	d, L := m.Width, len(m.Layers)
	writtenFrom := make([]bool, d) // written by some layer ≥ l (filled from the top)
	readFrom := outputCoords(m)    // read by the output or some layer ≥ l
	frozen := make([][]bool, L+1)
	frozen[L] = make([]bool, d)
	for c := range d {
		frozen[L][c] = !readFrom[c]
	}
	for l := L - 1; l >= 0; l-- {
		layer := &m.Layers[l]
		for h := range layer.Heads {
			hd := &layer.Heads[h]
			for r := range d {
				for c := range d {
					if hd.Score[r][c].Sign() != 0 {
						readFrom[r], readFrom[c] = true, true
					}
					if hd.Value[r][c].Sign() != 0 {
						readFrom[c] = true
					}
				}
			}
		}
		if f := layer.FFN; f != nil {
			for u := range f.W1 {
				for c, w := range f.W1[u] {
					if w.Sign() != 0 {
						readFrom[c] = true
					}
				}
			}
		}
		for c := range d {
			for h := range layer.Heads {
				for _, w := range layer.Heads[h].Value[c] {
					if w.Sign() != 0 {
						writtenFrom[c] = true
					}
				}
			}
			if f := layer.FFN; f != nil {
				if f.B2[c].Sign() != 0 {
					writtenFrom[c] = true
				}
				for _, w := range f.W2[c] {
					if w.Sign() != 0 {
						writtenFrom[c] = true
					}
				}
			}
		}
		frozen[l] = make([]bool, d)
		for c := range d {
			frozen[l][c] = !readFrom[c] && !writtenFrom[c]
		}
		for _, ln := range []*transformer.LayerNorm{layer.AttentionNorm, layer.FFNNorm} {
			if ln == nil {
				continue
			}
			first := -1
			for c := range d {
				if !frozen[l][c] {
					continue
				}
				if first < 0 {
					first = c
				} else if ln.Gamma[c].Cmp(ln.Gamma[first]) != 0 || ln.Beta[c].Cmp(ln.Beta[first]) != 0 {
					return nil, false
				}
			}
		}
	}
	return frozen, true
}

// frozenKey is the interning key of x when frozen sets are used: the
// non-frozen coordinates, and the sum and sum of squares of the frozen ones.
func frozenKey(x transformer.Vec, frozen []bool) string {
	var b strings.Builder
	s1, s2, t := new(big.Rat), new(big.Rat), new(big.Rat)
	for c, v := range x {
		if !frozen[c] {
			b.WriteString(v.RatString())
			b.WriteByte(',')
		} else if v.Sign() != 0 {
			s1.Add(s1, v)
			s2.Add(s2, t.Mul(v, v))
		}
	}
	b.WriteString("|" + s1.RatString() + "|" + s2.RatString())
	return b.String()
}
