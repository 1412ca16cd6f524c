package softmax

import (
	"math/big"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/ltlf"
	"github.com/brasp-dev/brasp/transformer"
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
			tr, err := m.Trace(nil, w)
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

// TestEmbeddingsCoverSteps: for a model over propositions R_0 contains the
// multi-hot embedding of every step of every short trace (with a first
// position term, so the positions combine with the steps).
func TestEmbeddingsCoverSteps(t *testing.T) {
	f, err := ltlf.ParseString("G(a -> X (b | c)) & F(c & Y a)")
	if err != nil {
		t.Fatal(err)
	}
	p, err := ltlf.ToBRASP(f)
	if err != nil {
		t.Fatal(err)
	}
	m, err := compile.Compile(nil, p, compile.Options{MultiHead: true})
	if err != nil {
		t.Fatal(err)
	}
	m.Position = append(m.Position, transformer.PositionTerm{Kind: transformer.PosFirst, Coord: 0, Scale: big.NewRat(1, 2)})
	var b *budget.Budget
	R, err := embeddings(b, b.Meter(maxVectorBytes, "test"), m)
	if err != nil {
		t.Fatal(err)
	}
	if want := 2 << len(m.Props); len(R) != want {
		t.Errorf("R_0 has %d vectors, want %d (2^k steps, first or not)", len(R), want)
	}
	in := map[string]bool{}
	for _, x := range R {
		in[x.Key()] = true
	}
	brasptest.AllWords(1<<len(m.Props), 3, func(w []int) {
		steps := make([][]uint64, len(w))
		for i, v := range w {
			steps[i] = []uint64{uint64(v)}
		}
		letters, word, err := m.OverSteps(steps)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := letters.Trace(nil, word)
		if err != nil {
			t.Fatal(err)
		}
		for i, x := range tr.Embed {
			if !in[x.Key()] {
				t.Fatalf("the embedding of step %d of %s is not in R_0", i+1, letters.Alphabet.FormatWord(word))
			}
		}
	})
}
