package brasptest

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/position"
)

func TestAllWords(t *testing.T) {
	var got [][]int
	AllWords(2, 3, func(w []int) { got = append(got, slices.Clone(w)) })
	if len(got) != 2+4+8 {
		t.Fatalf("AllWords(2, 3) gave %d words, want 14", len(got))
	}
	want := [][]int{{0}, {1}, {0, 0}, {0, 1}, {1, 0}, {1, 1}, {0, 0, 0}}
	for k, w := range want {
		if !slices.Equal(got[k], w) {
			t.Errorf("word %d = %v, want %v", k, got[k], w)
		}
	}
	n := 0
	AllWords(3, 4, func([]int) { n++ })
	if n != 3+9+27+81 {
		t.Errorf("AllWords(3, 4) gave %d words, want 120", n)
	}
	AllWords(0, 4, func([]int) { t.Error("AllWords with an empty alphabet called f") })
}

func TestRandomWord(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	w := RandomWord(rng, 3, 1000)
	var seen [3]int
	for _, s := range w {
		if s < 0 || s >= 3 {
			t.Fatalf("symbol %d out of range", s)
		}
		seen[s]++
	}
	for s, c := range seen {
		if c < 250 {
			t.Errorf("symbol %d appears %d times in 1000", s, c)
		}
	}
}

// TestRandomProgramCoverage checks that the generator produces every mask,
// tie-break, mixed scores, predicates, and respects JOnly and Masks.
func TestRandomProgramCoverage(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	masks := map[position.Mask]bool{}
	tbs := map[position.Tiebreak]bool{}
	mixed, preds, pw := false, false, false
	for range 300 {
		p := RandomProgram(rng, Options{Alphabet: 3, Ops: 5, Predicates: true, Mid: true})
		if len(p.Alphabet) != 3 {
			t.Fatalf("alphabet %v", p.Alphabet)
		}
		for _, v := range p.Vectors {
			switch v.Kind {
			case brasp.PredicateVector:
				preds = true
			case brasp.PositionwiseVector:
				pw = true
			case brasp.AttentionVector:
				masks[v.Att.Mask] = true
				tbs[v.Att.Tiebreak] = true
				if brasp.UsesVar(v.Att.Score, brasp.VarI) && brasp.UsesVar(v.Att.Score, brasp.VarJ) {
					mixed = true
				}
			}
		}
	}
	if len(masks) != len(position.Masks) || len(tbs) != 2 || !mixed || !preds || !pw {
		t.Errorf("coverage: masks %v, tie-breaks %v, mixed %v, predicates %v, position-wise %v",
			masks, tbs, mixed, preds, pw)
	}
	for range 100 {
		p := RandomProgram(rng, Options{JOnly: true, Masks: []position.Mask{position.MaskFuture}, Attention: 1})
		for _, v := range p.Vectors {
			if v.Kind == brasp.PositionwiseVector {
				t.Fatal("Attention: 1 produced a position-wise operation")
			}
			if v.Kind != brasp.AttentionVector {
				continue
			}
			if v.Att.Mask != position.MaskFuture || brasp.UsesVar(v.Att.Score, brasp.VarI) || brasp.UsesVar(v.Att.Value, brasp.VarI) {
				t.Fatalf("%s violates the options", v.Name)
			}
		}
	}
}

func TestRandomProgramDeterministic(t *testing.T) {
	a := RandomProgram(rand.New(rand.NewPCG(7, 7)), Options{Ops: 10})
	b := RandomProgram(rand.New(rand.NewPCG(7, 7)), Options{Ops: 10})
	if brasp.Format(a) != brasp.Format(b) {
		t.Error("same seed, different programs")
	}
}
