package transformer_test

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
)

// TestTraceMatchesForward checks that the trace's last layer and attended
// positions are those of the forward passes, on every example and
// construction, and that its JSON parses.
func TestTraceMatchesForward(t *testing.T) {
	progs := examplePrograms(t)
	progs["mod"] = mustParse(t, modProgram)
	rng := rand.New(rand.NewPCG(3, 4))
	for name, p := range progs {
		for _, o := range compile.Variants {
			m, err := compile.Compile(nil, p, o)
			if err != nil {
				t.Fatal(err)
			}
			r, err := transformer.NewRunner(m)
			if err != nil {
				t.Fatal(err)
			}
			for range 4 {
				w := brasptest.RandomWord(rng, len(p.Alphabet), 1+rng.IntN(9))
				tr, err := m.Trace(nil, w)
				if err != nil {
					t.Fatal(err)
				}
				pattern, a, err := r.AttentionPattern(w)
				if err != nil {
					t.Fatal(err)
				}
				if len(tr.Layers) != len(m.Layers) || len(tr.Embed) != len(w) {
					t.Fatalf("%s %s: trace has %d layers, %d positions", name, o, len(tr.Layers), len(tr.Embed))
				}
				for l, lt := range tr.Layers {
					for h, att := range lt.Attended {
						for i, j := range att {
							if pattern[l][h][i] != j {
								t.Fatalf("%s %s on %q: layer %d head %d position %d: trace attends %d, pass %d", name, o, p.Alphabet.FormatWord(w), l, h, i, j, pattern[l][h][i])
							}
						}
					}
				}
				last := tr.Layers[len(tr.Layers)-1].Post
				for i := range w {
					if !sameVec(last[i], a.At(i)) {
						t.Fatalf("%s %s on %q: position %d: trace %v, pass %v", name, o, p.Alphabet.FormatWord(w), i, last[i], a.At(i))
					}
				}
				var v map[string]any
				if err := json.Unmarshal([]byte(tr.JSON()), &v); err != nil {
					t.Fatalf("%s: trace JSON: %v", name, err)
				}
			}
		}
	}
}

func sameVec(x, y transformer.Vec) bool {
	if len(x) != len(y) {
		return false
	}
	for k := range x {
		if x[k].Cmp(y[k]) != 0 {
			return false
		}
	}
	return true
}
