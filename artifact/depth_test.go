package artifact

import (
	"fmt"
	"testing"

	"github.com/brasp-dev/brasp/depth"
	"github.com/brasp-dev/brasp/examples"
)

// The depth hierarchy on its examples: STAIR_k needs exactly k layers of
// future-masked rightmost attention, and Dyck-1 of depth D needs D+1 (its
// future-only program has that depth, and the certificate shows no fewer
// will do). Where the bounds meet, the multi-head compilation of the upper
// bound's program has exactly that many layers: the model is depth-optimal.
func TestDepthBoundsMeetAndModelsAreDepthOptimal(t *testing.T) {
	type example struct {
		name    string
		a       Artifact
		want    int
		compile bool
	}
	var cases []example
	for k := 1; k <= 6; k++ {
		// γ_k | (1 since γ_k), γ_1 = a, γ_k = a & (c since γ_{k−1}).
		g := "a"
		for i := 2; i <= k; i++ {
			g = fmt.Sprintf("a & (c since (%s))", g)
		}
		src := fmt.Sprintf("alphabet a b c\nlet g = %s in g | (1 since g)\n", g)
		a, err := Load(nil, "stair.ltl", []byte(src), KindLTL)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, example{fmt.Sprintf("STAIR_%d", k), a, k, true})
	}
	for d := 1; d <= 3; d++ {
		p, err := examples.DyckProgram(1, d)
		if err != nil {
			t.Fatal(err)
		}
		// Dyck-1 of depth 3's future-only program has a position-wise
		// operation reading 23 coordinates, past the compiler's FFN limit.
		cases = append(cases, example{fmt.Sprintf("Dyck-1 depth %d", d), NewProgram(p), d + 1, d <= 2})
	}
	for _, c := range cases {
		alpha := c.a.Alphabet()
		r, err := Depth(nil, c.a, DepthOptions{Fragment: depth.Since})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if r.Lower != c.want || r.Upper != c.want {
			t.Errorf("%s: bounds %d..%d, want %d", c.name, r.Lower, r.Upper, c.want)
			continue
		}
		if depth.ProgramFragment(r.Program) != depth.Since {
			t.Errorf("%s: the upper bound's program is not in the since fragment", c.name)
		}
		if c.compile {
			m, err := Convert(nil, NewProgram(r.Program), KindTransformer, Options{Compile: CompileOptions{MultiHead: true}})
			if err != nil {
				t.Fatal(err)
			}
			if got := len(m.(*Transformer).M.Layers); got != c.want {
				t.Errorf("%s: the multi-head model of the depth-%d program has %d layers", c.name, c.want, got)
			}
		}
		t.Logf("%s: lower = upper = %d, certificate %s / %s", c.name, c.want,
			alpha.FormatWord(r.Witness.In), alpha.FormatWord(r.Witness.Out))
	}
}
