package softmax

import (
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/transformer/compile"
)

// TestEmbeddingsCoverPositions: the certificate's reachable embedding set
// R_0 contains the embedding of every position of every word up to a
// length, for models with first, last, MOD and table position terms (a
// table whose prefix has values its period never takes).
func TestEmbeddingsCoverPositions(t *testing.T) {
	src := "Q_a(i)\nQ_b(i)\nfirst(i)\nlast(i)\nMOD_1_3(i)\nPERIODIC_01_0(i)\nPERIODIC_1_011(i)\n" +
		"Y(i) := rightmost [j<i, PERIODIC_01_0(j) | MOD_1_3(j)] Q_a(j) : PERIODIC_1_011(i) | first(i) | last(i)\n"
	p, err := brasp.Parse("cover.brasp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []compile.Options{{PositionTables: true}, {PositionTables: true, LayerNorm: true}} {
		m, err := compile.Compile(nil, p, o)
		if err != nil {
			t.Fatal(err)
		}
		var b *budget.Budget
		R, err := embeddings(b, b.Meter(maxVectorBytes, "test"), m)
		if err != nil {
			t.Fatal(err)
		}
		in := map[string]bool{}
		for _, x := range R {
			in[x.Key()] = true
		}
		brasptest.AllWords(len(m.Alphabet), 8, func(w []int) {
			tr, err := m.Trace(w)
			if err != nil {
				t.Fatal(err)
			}
			for i, x := range tr.Embed {
				if !in[x.Key()] {
					t.Fatalf("%s: the embedding of position %d of %q is not in R_0", o, i+1, m.Alphabet.FormatWord(w))
				}
			}
		})
	}
}
