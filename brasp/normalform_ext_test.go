package brasp_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/budget"
)

// TestNormalFormsShared checks the normal forms on the shared random
// programs of brasptest (position predicates, Mid, larger expressions),
// with the fast interpreter on the transformed programs and the reference
// interpreter on the originals: every kept vector equal on all words up to
// length 7 and on random words up to length 200.
func TestNormalFormsShared(t *testing.T) {
	n := 200
	if testing.Short() {
		n = 40
	}
	rng := rand.New(rand.NewPCG(31, 32))
	for c := range n {
		opts := brasptest.Options{
			Alphabet:   1 + rng.IntN(3),
			Ops:        1 + rng.IntN(7),
			ExprSize:   2 + rng.IntN(5),
			Predicates: rng.IntN(2) == 0,
			Mid:        rng.IntN(4) == 0,
		}
		p := brasptest.RandomProgram(rng, opts)
		uv := brasp.UnaryValue(p)
		both, err := brasp.UnaryScore(budget.New(context.Background(), budget.Settings{"unary-score-copies": 1 << 12}), uv)
		if err != nil {
			t.Fatalf("program %d: %v", c, err)
		}
		for _, q := range []*brasp.Program{uv, both} {
			if err := brasp.Validate(q); err != nil {
				t.Fatalf("program %d: %v\n%s", c, err, brasp.Format(q))
			}
		}
		for _, v := range both.Vectors {
			if v.Kind == brasp.AttentionVector && (brasp.UsesVar(v.Att.Score, brasp.VarI) || brasp.UsesVar(v.Att.Value, brasp.VarI)) {
				t.Fatalf("program %d: %s is not in unary normal form", c, brasp.FormatVector(v))
			}
		}
		maxLen := 7
		if opts.Alphabet == 3 {
			maxLen = 5
		}
		runners := map[string]*brasp.Runner{"UnaryValue": brasp.NewRunner(uv), "UnaryScore∘UnaryValue": brasp.NewRunner(both)}
		progs := map[string]*brasp.Program{"UnaryValue": uv, "UnaryScore∘UnaryValue": both}
		check := func(w []int) {
			want := p.RunReference(w)
			for name, q := range progs {
				got := runners[name].Run(w)
				for k, v := range p.Vectors {
					if !slices.Equal(want.Bits[k], got.Bits[q.Lookup(v.Name)]) {
						t.Fatalf("program %d, %s: vector %s differs on %v\n%s---\n%s", c, name, v.Name, w, brasp.Format(p), brasp.Format(q))
					}
				}
				if want.Accept() != got.Accept() {
					t.Fatalf("program %d, %s: acceptance differs on %v", c, name, w)
				}
			}
		}
		brasptest.AllWords(opts.Alphabet, maxLen, check)
		for range 3 {
			check(brasptest.RandomWord(rng, opts.Alphabet, 1+rng.IntN(200)))
		}
	}
}
