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
	"github.com/brasp-dev/brasp/transformer/compile"
)

// FuzzDecompile feeds models through the JSON loader to the decompiler
// with small limits: it must never panic or hang, fail only with an error,
// and a program it returns must agree with the dense pass on short words.
// The seeds are well-formed models (hand-written and random, with position
// terms, layer norms and several heads), malformed files and adversarial
// ones (huge periods, many heads, degenerate norms), and models over
// propositions, compiled and hand-written, whose programs are checked on
// every short trace.
func FuzzDecompile(f *testing.F) {
	f.Add(transformer.EncodeJSON(prevIsA()))
	rng := rand.New(rand.NewPCG(5, 5))
	g := &modelGen{rng: rng, num: rationalWeights(rng), sparsity: 0.5}
	for k := range 6 {
		f.Add(transformer.EncodeJSON(g.model(2, 3, 1+k%2, 2, k%2 == 0, k%3 == 0)))
	}
	// Models over propositions: compiled ones (one proposition per
	// coordinate) and hand-written ones whose embedding rows overlap.
	prng := rand.New(rand.NewPCG(15, 6))
	for k := range 4 {
		p := brasptest.RandomProgram(prng, brasptest.Options{Propositions: 1 + k%3, Ops: 3})
		if m, err := compile.Compile(nil, p, compile.Options{MultiHead: k%2 == 1}); err == nil {
			f.Add(transformer.EncodeJSON(m))
		}
	}
	for _, s := range []string{
		`{"format":"brasp-transformer/1","propositions":["p","q"],"width":2,"labels":["x","y"],"embedding_bias":[0,1],"embedding":{"p":[1,1],"q":[2,-1]},"layers":[{"attention":[{"mask":"past","tiebreak":"rightmost","score":[[0,1],[0,0]],"value":[[0,0],[1,0]]}],"ffn":{"w1":[[1,1]],"b1":[-1],"w2":[[1],[0]],"b2":[0,0]}}],"output":{"weight":[1,-1],"bias":0}}`,
		`{"format":"brasp-transformer/1","propositions":["a","b","c"],"width":1,"labels":["n"],"embedding_bias":["1/2"],"embedding":{"a":[1],"b":[1],"c":[1]},"position":[{"kind":"mod","r":0,"m":2,"coord":0}],"layers":[{"attention":[{"mask":"future-or-self","tiebreak":"leftmost","score":[[1]],"value":[[-1]]}]}],"output":{"weight":[1],"bias":-2}}`,
		``, `{}`, `null`, `[]`, `{"format": "brasp-transformer/1"}`,
		`{"format":"brasp-transformer/1","alphabet":["a"],"width":1,"labels":["x"],"embedding":{"a":[1]},"layers":[],"output":{"weight":[1],"bias":0}}`,
		`{"format":"brasp-transformer/1","alphabet":["a","b"],"width":1,"labels":["x"],"embedding":{"a":[1],"b":["1/3"]},"position":[{"kind":"sin","frequency":"1/1000000","coord":0}],"layers":[],"output":{"weight":[1],"bias":0}}`,
		`{"format":"brasp-transformer/1","alphabet":["a","b"],"width":1,"labels":["x"],"embedding":{"a":[1],"b":[2]},"position":[{"kind":"mod","r":1,"m":7,"coord":0},{"kind":"cos","frequency":"1/9","coord":0}],"layers":[{"attention":[{"mask":"future","tiebreak":"leftmost","score":[[1]],"value":[[1]]},{"mask":"past-or-self","tiebreak":"rightmost","score":[["1/3"]],"value":[[-1]]}],"ffn":{"w1":[[1]],"b1":[-1],"w2":[[2]],"b2":[0]},"layernorm":{"attention":{"gamma":[1],"beta":[0],"eps":0},"ffn":null}}],"output":{"weight":[1],"bias":"-1/2"}}`,
		`{"format":"brasp-transformer/1","alphabet":["a"],"width":2,"labels":["x","y"],"embedding":{"a":[1,1e300]},"layers":[],"output":{"weight":[1,1],"bias":0}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(fuzzDecompile)
}

// fuzzDecompile is one input of FuzzDecompile.
func fuzzDecompile(t *testing.T, data []byte) {
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
	if len(m.Layers) > 4 || m.Width > 16 || len(m.Alphabet) > 4 || len(m.Props) > 3 {
		return
	}
	if m.Props != nil {
		// Every trace of up to three steps, against the dense pass.
		brasptest.AllWords(1<<len(m.Props), 3, func(w []int) {
			steps := make([][]uint64, len(w))
			for i, v := range w {
				steps[i] = []uint64{uint64(v)}
			}
			lm, word, err := m.OverSteps(steps)
			if err != nil {
				t.Fatal(err)
			}
			want, err := lm.AcceptsDense(nil, word)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.AcceptsSteps(steps); got != want {
				t.Fatalf("on %v the model says %v, the decompiled program %v\n%s", steps, want, got, brasp.Format(p))
			}
		})
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
}
