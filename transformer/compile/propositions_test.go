package compile_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
)

// TestCompilePropositions compiles random programs over propositions with
// every construction and checks that the model, reading traces through its
// multi-hot embedding, accepts exactly what the program accepts (fast and
// dense passes), before and after a JSON and a safetensors round trip.
func TestCompilePropositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	for n := 0; n < 60; n++ {
		k := 1 + rng.IntN(4)
		p := brasptest.RandomProgram(rng, brasptest.Options{Propositions: k, Ops: 2 + rng.IntN(5), Predicates: n%4 == 0})
		opts := compile.Options{MultiHead: n%3 == 1, LayerNorm: n%3 == 2}
		m, err := compile.Compile(nil, p, opts)
		if err != nil {
			t.Fatalf("%v\n%s", err, brasp.Format(p))
		}
		if len(m.Props) != k || len(m.Alphabet) != 0 {
			t.Fatalf("props %v alphabet %v", m.Props, m.Alphabet)
		}
		fromJSON, err := transformer.DecodeJSON(transformer.EncodeJSON(m))
		if err != nil {
			t.Fatal(err)
		}
		st, err := transformer.EncodeSafetensors(m)
		if err != nil {
			t.Fatal(err)
		}
		fromST, err := transformer.DecodeSafetensors(st)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(transformer.EncodeJSON(fromST), transformer.EncodeJSON(m)) {
			t.Fatalf("safetensors round trip changed the model")
		}
		for trial := 0; trial < 15; trial++ {
			steps := brasptest.RandomSteps(rng, k, 1+rng.IntN(12))
			want := p.AcceptsSteps(steps)
			for name, model := range map[string]*transformer.Model{"compiled": m, "json": fromJSON} {
				lm, w, err := model.OverSteps(steps)
				if err != nil {
					t.Fatal(err)
				}
				fast, err1 := lm.Accepts(nil, w)
				dense, err2 := lm.AcceptsDense(nil, w)
				if err1 != nil || err2 != nil || fast != want || dense != want {
					t.Fatalf("%s model (%+v) on %v: fast %v dense %v (%v, %v), program %v\n%s", name, opts, steps, fast, dense,
						err1, err2, want, brasp.Format(p))
				}
			}
		}
	}
}

// TestCompileManyPropositions compiles a program over 26 propositions: the
// embedding has one row per proposition, and long random traces agree.
func TestCompileManyPropositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 1))
	p := brasptest.RandomProgram(rng, brasptest.Options{Propositions: 26, Ops: 8})
	m, err := compile.Compile(nil, p, compile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Embedding) != 26 {
		t.Fatalf("%d embedding rows, want one per proposition", len(m.Embedding))
	}
	for trial := 0; trial < 20; trial++ {
		steps := brasptest.RandomSteps(rng, 26, 1+rng.IntN(200))
		lm, w, err := m.OverSteps(steps)
		if err != nil {
			t.Fatal(err)
		}
		got, err := lm.Accepts(nil, w)
		if err != nil || got != p.AcceptsSteps(steps) {
			t.Fatalf("trace of length %d: model %v (%v), program %v", len(steps), got, err, !got)
		}
	}
}
