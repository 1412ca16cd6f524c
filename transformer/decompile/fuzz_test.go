package decompile

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/transformer"
)

// FuzzDecompile feeds models through the JSON loader to the decompiler
// with small limits: it must never panic or hang, fail only with an error,
// and a program it returns must agree with the dense pass on short words.
// The seeds are well-formed models (hand-written and random, with position
// terms, layer norms and several heads), malformed files and adversarial
// ones (huge periods, many heads, degenerate norms).
func FuzzDecompile(f *testing.F) {
	f.Add(transformer.EncodeJSON(prevIsA()))
	rng := rand.New(rand.NewPCG(5, 5))
	g := &modelGen{rng: rng, num: rationalWeights(rng), sparsity: 0.5}
	for k := range 6 {
		f.Add(transformer.EncodeJSON(g.model(2, 3, 1+k%2, 2, k%2 == 0, k%3 == 0)))
	}
	for _, s := range []string{
		``, `{}`, `null`, `[]`, `{"format": "brasp-transformer/1"}`,
		`{"format":"brasp-transformer/1","alphabet":["a"],"width":1,"labels":["x"],"embedding":{"a":[1]},"layers":[],"output":{"weight":[1],"bias":0}}`,
		`{"format":"brasp-transformer/1","alphabet":["a","b"],"width":1,"labels":["x"],"embedding":{"a":[1],"b":["1/3"]},"position":[{"kind":"sin","frequency":"1/1000000","coord":0}],"layers":[],"output":{"weight":[1],"bias":0}}`,
		`{"format":"brasp-transformer/1","alphabet":["a","b"],"width":1,"labels":["x"],"embedding":{"a":[1],"b":[2]},"position":[{"kind":"mod","r":1,"m":7,"coord":0},{"kind":"cos","frequency":"1/9","coord":0}],"layers":[{"attention":[{"mask":"future","tiebreak":"leftmost","score":[[1]],"value":[[1]]},{"mask":"past-or-self","tiebreak":"rightmost","score":[["1/3"]],"value":[[-1]]}],"ffn":{"w1":[[1]],"b1":[-1],"w2":[[2]],"b2":[0]},"layernorm":{"attention":{"gamma":[1],"beta":[0],"eps":0},"ffn":null}}],"output":{"weight":[1],"bias":"-1/2"}}`,
		`{"format":"brasp-transformer/1","alphabet":["a"],"width":2,"labels":["x","y"],"embedding":{"a":[1,1e300]},"layers":[],"output":{"weight":[1,1],"bias":0}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := transformer.DecodeJSON(data)
		if err != nil {
			return
		}
		b := budget.New(context.Background(), budget.Settings{"decompile-classes": 64, "decompile-combos": 2000, "decompile-scores": 64, "decompile-period": 64, "decompile-work": 1 << 20})
		p, err := Decompile(b, m, Options{})
		if err != nil {
			var le *budget.Error
			if errors.As(err, &le) && !errors.Is(err, budget.ErrLimit) {
				t.Fatalf("limit error %v does not match budget.ErrLimit", err)
			}
			return
		}
		if len(m.Layers) > 4 || m.Width > 16 || len(m.Alphabet) > 4 {
			return
		}
		run := brasp.NewRunner(p)
		brasptest.AllWords(len(m.Alphabet), 3, func(w []int) {
			want, err := m.AcceptsDense(nil, w)
			if err != nil {
				t.Fatal(err)
			}
			if got := run.Run(w).Accept(); got != want {
				t.Fatalf("on %v the model says %v, the decompiled program %v\n%s", w, want, got, brasp.Format(p))
			}
		})
	})
}
