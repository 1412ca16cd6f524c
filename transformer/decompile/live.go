package decompile

import "github.com/brasp-dev/brasp/transformer"

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
func liveCoords(m *transformer.Model) [][]bool {
	d := m.Width
	L := len(m.Layers)
	live := make([][]bool, L+1)
	out := make([]bool, d)
	for c, w := range m.Output.Weight {
		out[c] = w.Sign() != 0
	}
	live[L] = out
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
		if layer.FFNNorm != nil {
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
		if layer.AttentionNorm != nil {
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

// project sets the dead coordinates of x to 0 (in place).
func project(x transformer.Vec, live []bool) transformer.Vec {
	for c := range x {
		if !live[c] && x[c].Sign() != 0 {
			x[c].SetInt64(0)
		}
	}
	return x
}
