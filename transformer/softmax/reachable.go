package softmax

import (
	"fmt"
	"math"
	"math/big"

	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/transformer"
)

// vecBytes estimates the memory of a vector of d rationals.
func vecBytes(d int) int64 { return int64(d) * 40 }

// inputEmbeddings returns the embeddings of the model's inputs before
// position terms: one per symbol, or, for a model over propositions, the
// multi-hot embedding of each of the 2^k steps (every set of true
// propositions), charged to meter since their number is exponential.
func inputEmbeddings(b *budget.Budget, meter *budget.Meter, m *transformer.Model) ([]transformer.Vec, error) {
	if m.Props == nil {
		return m.Embedding, nil
	}
	k := len(m.Props)
	if k >= 62 || int64(1)<<k > (meter.Max()-meter.Used())/vecBytes(m.Width) {
		need := int64(math.MaxInt64)
		if k < 62 && int64(1)<<k < math.MaxInt64/2/vecBytes(m.Width) {
			need = meter.Used() + int64(1)<<k*vecBytes(m.Width)
		}
		return nil, b.Check(maxVectorBytes, need, fmt.Sprintf("the table of multi-hot embeddings of the 2^%d steps over %d propositions", k, k))
	}
	steps := make([]transformer.Vec, 0, 1<<k)
	for v := range uint64(1) << k {
		if err := meter.Add(vecBytes(m.Width)); err != nil {
			return nil, err
		}
		steps = append(steps, m.StepEmbedding([]uint64{v}))
	}
	return steps, nil
}

// embeddings returns R_0: every input's embedding (inputEmbeddings) plus
// every combination of position-term values.
func embeddings(b *budget.Budget, meter *budget.Meter, m *transformer.Model) ([]transformer.Vec, error) {
	inputs, err := inputEmbeddings(b, meter, m)
	if err != nil {
		return nil, err
	}
	period, prefix := 1, 0 // prefix: the longest table prefix
	for _, t := range m.Position {
		p := 0
		switch t.Kind {
		case transformer.PosSin, transformer.PosCos:
			if !t.Frequency.Denom().IsInt64() || t.Frequency.Denom().Int64() > transformer.MaxPositionPeriod {
				return nil, fmt.Errorf("softmax: a sinusoid's period is above %d", transformer.MaxPositionPeriod)
			}
			p = int(t.Frequency.Denom().Int64())
		case transformer.PosMod:
			p = t.M
		case transformer.PosTable:
			p = len(t.Period)
			prefix = max(prefix, len(t.Prefix))
		}
		if p > 1 {
			period = lcm(period, p)
			if period > transformer.MaxPositionPeriod {
				return nil, fmt.Errorf("softmax: the position terms' period is above %d", transformer.MaxPositionPeriod)
			}
		}
	}
	// Position i with residue r (i itself, pre, within the tables' prefix;
	// pre = 0 after it), and the flags first (i = 1), last (i = n), mid (n
	// odd, i = (n+1)/2): every consistent combination is realised by some
	// (i, n); all combinations are a superset.
	seen := map[string]bool{}
	var R []transformer.Vec
	for pre := 0; pre <= prefix; pre++ {
		for r := 0; r < period; r++ {
			if pre > 0 && r != pre%period {
				continue
			}
			for flags := 0; flags < 8; flags++ {
				first, last, mid := flags&1 != 0, flags&2 != 0, flags&4 != 0
				if first && (r != 1%period || pre != min(1, prefix)) {
					continue
				}
				theta := make(transformer.Vec, m.Width)
				for k := range theta {
					theta[k] = new(big.Rat)
				}
				for _, t := range m.Position {
					var v *big.Rat
					switch t.Kind {
					case transformer.PosSin, transformer.PosCos:
						v = transformer.Sinusoid(t.Frequency, r, t.Kind == transformer.PosCos)
					case transformer.PosTable:
						i := pre
						if i == 0 {
							// A position after every prefix with residue r.
							i = prefix + 1 + ((r-prefix-1)%period+period)%period
						}
						v = new(big.Rat).Set(t.TableValue(i))
					default:
						v = new(big.Rat)
						if t.Holds(transformer.PositionFacts{I: r, First: first, Last: last, Mid: mid}) {
							v.SetInt64(1)
						}
					}
					theta[t.Coord].Add(theta[t.Coord], v.Mul(v, t.Scale))
				}
				for _, e := range inputs {
					x := make(transformer.Vec, m.Width)
					for k := range x {
						x[k] = new(big.Rat).Add(e[k], theta[k])
					}
					if key := x.Key(); !seen[key] {
						seen[key] = true
						if err := meter.Add(vecBytes(m.Width)); err != nil {
							return nil, err
						}
						R = append(R, x)
					}
				}
			}
			if err := b.Step(int64(m.Width * len(inputs) * 8)); err != nil {
				return nil, err
			}
		}
	}
	return R, nil
}

func lcm(a, b int) int {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return a / x * b
}

// nextLayer returns R_{l+1}: FFN(x + Σ_h v_h) for x ∈ R and v_h among head
// h's values (0 included).
func nextLayer(b *budget.Budget, meter *budget.Meter, layer *transformer.Layer, stats []headStats, R []transformer.Vec) ([]transformer.Vec, error) {
	seen := map[string]bool{}
	var next []transformer.Vec
	d := len(R[0])
	choice := make([]int, len(stats))
	for _, x := range R {
		for k := range choice {
			choice[k] = 0
		}
		for {
			c := make(transformer.Vec, d)
			for k := range c {
				c[k] = new(big.Rat).Set(x[k])
			}
			for h, st := range stats {
				v := st.values[choice[h]]
				for k := range c {
					if v[k].Sign() != 0 {
						c[k].Add(c[k], v[k])
					}
				}
			}
			y := c
			if f := layer.FFN; f != nil {
				hid := f.W1.MulVec(c)
				for k := range hid {
					hid[k].Add(hid[k], f.B1[k])
					if hid[k].Sign() < 0 {
						hid[k].SetInt64(0)
					}
				}
				out := f.W2.MulVec(hid)
				for k := range out {
					out[k].Add(out[k], f.B2[k])
					out[k].Add(out[k], c[k])
				}
				y = out
			}
			if key := y.Key(); !seen[key] {
				seen[key] = true
				if err := meter.Add(vecBytes(d)); err != nil {
					return nil, err
				}
				next = append(next, y)
			}
			if err := b.Step(int64(d * d)); err != nil {
				return nil, err
			}
			h := 0
			for h < len(choice) {
				choice[h]++
				if choice[h] < len(stats[h].values) {
					break
				}
				choice[h] = 0
				h++
			}
			if h == len(choice) {
				break
			}
		}
	}
	return next, nil
}
