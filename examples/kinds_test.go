package examples_test

import (
	"testing"

	"github.com/brasp-dev/brasp/artifact"
	"github.com/brasp-dev/brasp/examples"
)

func load(t *testing.T, name string) artifact.Artifact {
	t.Helper()
	src, err := examples.Source(name)
	if err != nil {
		t.Fatal(err)
	}
	a, err := artifact.Load(nil, name, src, "")
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return a
}

// TestAllExamplesLoad loads every example file of every kind.
func TestAllExamplesLoad(t *testing.T) {
	kinds := map[artifact.Kind]int{}
	for _, name := range examples.AllNames() {
		kinds[load(t, name).Kind()]++
	}
	for _, k := range []artifact.Kind{artifact.KindBRASP, artifact.KindLTL, artifact.KindDFA, artifact.KindRegex} {
		if kinds[k] == 0 {
			t.Errorf("no %s example", k)
		}
	}
}

// TestExampleEquivalences checks, exactly, that the examples written in
// different representations define the same languages of non-empty words,
// and that near misses are told apart by a shortest word.
func TestExampleEquivalences(t *testing.T) {
	same := [][2]string{
		{"dyck1_depth2.brasp", "dyck1_depth2.dfa"},
		{"dyck1_depth2.brasp", "dyck1_depth2.re"},
		{"stair3.brasp", "stair3.ltl"},
		{"stair3.brasp", "stair3_preset.brasp"},
		{"ab_plus.brasp", "ab_plus.re"},
		{"ab_plus.brasp", "ab_ba_preset.brasp"},
	}
	for _, pair := range same {
		r, err := artifact.Equiv(nil, load(t, pair[0]), load(t, pair[1]), artifact.Options{})
		if err != nil {
			t.Fatalf("%s vs %s: %v", pair[0], pair[1], err)
		}
		if !r.Equal {
			t.Errorf("%s and %s differ on %q", pair[0], pair[1], r.Alphabet.FormatWord(r.Word))
		}
	}
	differ := []struct{ a, b, word string }{
		{"stair3.brasp", "stair4.brasp", "aaa"},
		{"stair2.brasp", "stair3.ltl", "aa"},
	}
	for _, c := range differ {
		a, b := load(t, c.a), load(t, c.b)
		r, err := artifact.Equiv(nil, a, b, artifact.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Equal || r.Alphabet.FormatWord(r.Word) != c.word {
			t.Fatalf("%s vs %s: equal=%v word %q, want the counterexample %q", c.a, c.b, r.Equal, r.Alphabet.FormatWord(r.Word), c.word)
		}
		w, _ := a.Alphabet().ParseWord(c.word)
		accA, _ := a.Accepts(w)
		accB, _ := b.Accepts(w)
		if accA == accB || accA != r.FirstAccepts {
			t.Errorf("%s vs %s on %s: running gives %v and %v", c.a, c.b, c.word, accA, accB)
		}
	}
}

// TestExampleClassifications: the paper's classifications of its examples.
func TestExampleClassifications(t *testing.T) {
	want := map[string][3]bool{ // star-free, stutter-invariant, AC0
		"dyck1_depth2.brasp":    {true, false, true},
		"ab_plus.re":            {true, false, true},
		"a_plus_b_plus_plus.re": {true, true, true},
		"aa_star.re":            {false, false, true},
		"parity.dfa":            {false, false, false},
		"a3.dfa":                {true, false, true},
	}
	for name, w := range want {
		c, err := artifact.Classify(nil, load(t, name), artifact.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := [3]bool{c.StarFree, c.StutterInvariant, c.AC0}; got != w {
			t.Errorf("%s: (star-free, stutter-invariant, AC0) = %v, want %v\n%s", name, got, w, c.Format())
		}
	}
}
