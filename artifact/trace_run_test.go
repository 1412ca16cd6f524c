package artifact

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/ltlf"
)

// TestRunTraceCompact runs LTLf formulas compiled to transformers over
// propositions (sequential and depth-preserving) on random traces of up to
// 3,000 steps (and of up to 6), stored a byte per step, and compares the verdicts with the
// formula's evaluator; over 10 propositions the traces have more than 256
// distinct steps (two bytes per step).
func TestRunTraceCompact(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, src := range []string{
		"G(a -> X b)",
		"F(a & X[!] c) | G !b",
		"a U (b | G c)",
		"G(p0 -> F p9) & (p1 U p2)",
	} {
		a, err := Load(nil, "f.ltlf", []byte(src), "")
		if err != nil {
			t.Fatal(err)
		}
		f := a.(*LTLf).F
		seen := map[bool]bool{}
		for _, multi := range []bool{false, true} {
			c, err := Convert(nil, a, KindTransformer, Options{Compile: CompileOptions{MultiHead: multi}})
			if err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			m := c.(*Transformer)
			for k := range 16 {
				var steps []string
				n := 1 + rng.IntN(3000)
				if k%2 == 0 {
					n = 1 + rng.IntN(6)
				}
				for range n {
					var on []string
					for _, p := range f.Props {
						if rng.IntN(3) == 0 {
							on = append(on, p)
						}
					}
					steps = append(steps, strings.Join(on, ","))
				}
				s := strings.Join(steps, ";")
				if s == "" {
					s = "{}" // (one step where nothing holds)
				}
				tr, err := ltlf.ParseTrace(f.Props, s)
				if err != nil {
					t.Fatal(err)
				}
				got, err := m.RunTraceBytes([]byte(s))
				if err != nil {
					t.Fatalf("%s: %v", src, err)
				}
				if want := f.Eval(tr); got != want {
					t.Fatalf("%s (multihead %v): on a trace of %d steps the model says %v, the formula %v", src, multi, len(tr), got, want)
				}
				seen[got] = true
			}
		}
		if len(seen) != 2 {
			t.Errorf("%s: only %v verdicts (the test needs both)", src, seen)
		}
	}
}
