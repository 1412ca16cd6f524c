package nonstrict_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/exact"
	"github.com/brasp-dev/brasp/ltl/nonstrict"
	"github.com/brasp-dev/brasp/position"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
	"github.com/brasp-dev/brasp/transformer/decompile"
)

// maxModelOps bounds the programs compiled by the tests: the compiler and
// the decompiler take seconds on programs of a hundred operations.
const maxModelOps = 16

// maxMultiHeadOps bounds the programs compiled with the fused FFNs of
// Thm C.4, which are exponential in their inputs.
const maxMultiHeadOps = 12

func attentionOps(p *brasp.Program) int {
	n := 0
	for _, v := range p.Vectors {
		if v.Kind == brasp.AttentionVector {
			n++
		}
	}
	return n
}

// checkModel compiles p in both of the compiler's constructions, reads the
// heads' masks, and checks the model against d through the decompiler
// (exactly) and the forward pass (all words up to length 6, random words
// up to length 200).
func checkModel(t *testing.T, what string, d *automata.DFA, p *brasp.Program, m nonstrict.Masks) {
	t.Helper()
	if n := attentionOps(p); n > maxModelOps {
		t.Logf("%s: %d attention operations: transformer not checked", what, n)
		return
	}
	for _, multi := range []bool{false, true} {
		model, err := compile.Compile(nil, p, compile.Options{MultiHead: multi})
		if multi && attentionOps(p) > maxMultiHeadOps {
			continue
		}
		if le := (*budget.Error)(nil); multi && errors.As(err, &le) && le.Limit.Name == "compile-ffn-inputs" {
			continue // the fused FFNs of Thm C.4 are exponential in their inputs
		}
		if err != nil {
			t.Fatalf("%s: compile: %v", what, err)
		}
		if err := nonstrict.CheckModel(model, m); err != nil {
			t.Errorf("%s: %v", what, err)
		}
		for _, l := range model.Layers {
			for _, h := range l.Heads {
				if h.Mask != position.MaskFutureOrSelf && (m == nonstrict.Causal || h.Mask != position.MaskPastOrSelf) {
					t.Errorf("%s: head mask %s", what, h.Mask)
				}
			}
		}
		md, err := exact.ModelDFA(nil, model, decompile.Options{})
		if err != nil {
			t.Fatalf("%s: decompile: %v", what, err)
		}
		checkEquivalent(t, what+" (transformer, decompiled)", d, md)
		r, err := transformer.NewRunner(model)
		if err != nil {
			t.Fatal(err)
		}
		check := func(w []int) {
			if len(w) == 0 || t.Failed() {
				return
			}
			got, err := r.Accepts(w)
			if err != nil {
				t.Fatalf("%s: forward pass: %v", what, err)
			}
			if want := d.Accepts(w); got != want {
				t.Errorf("%s: the transformer says %v on %q, the input %v", what, got, d.Alphabet.FormatWord(w), want)
			}
		}
		brasptest.AllWords(len(d.Alphabet), 6, check)
		rng := rand.New(rand.NewPCG(1, uint64(len(p.Vectors))))
		for range 20 {
			check(brasptest.RandomWord(rng, len(d.Alphabet), 1+rng.IntN(200)))
		}
	}
}
