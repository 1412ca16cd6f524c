package artifact

import (
	"errors"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/ltl/nonstrict"
)

// TestMaskedTableComplete: with --masks, every kind converts to ltl, brasp
// and transformer by exactly one edge of maskedEdges, written out in full.
func TestMaskedTableComplete(t *testing.T) {
	seen := map[[2]Kind]bool{}
	for _, e := range listing(maskedEdges()) {
		pair := [2]Kind{e.From, e.To}
		if seen[pair] {
			t.Errorf("two masked edges %s → %s", e.From, e.To)
		}
		seen[pair] = true
		if n := len(e.Via) + 1; len(e.Funcs) != n || len(e.Refs) != n || len(e.Options) != n {
			t.Errorf("masked edge %s → %s via %v: %d funcs, %d refs, %d options; want %d each", e.From, e.To, e.Via, len(e.Funcs), len(e.Refs), len(e.Options), n)
		}
	}
	for _, from := range Kinds() {
		for _, to := range Kinds() {
			want := (to == KindLTL || to == KindBRASP || to == KindTransformer) && from != KindMONADFA
			if seen[[2]Kind{from, to}] != want {
				t.Errorf("masked edge %s → %s: in the table %v, want %v", from, to, seen[[2]Kind{from, to}], want)
			}
		}
	}
}

// TestMaskedConversions runs every masked edge: a stutter-invariant
// star-free language from each input kind becomes a formula, program and
// model of the asked masks that `equiv` finds equivalent to the input; a
// language that is not stutter-invariant is refused with the witness.
func TestMaskedConversions(t *testing.T) {
	src, err := Load(nil, "x.re", []byte("alphabet a b\n.* a .* b .*\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	inputs := map[Kind]Artifact{KindRegex: src}
	for _, k := range []Kind{KindDFA, KindBRASP, KindLTL, KindTransformer} {
		if inputs[k], err = Convert(nil, src, k, Options{}); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range []Masks{nonstrict.NonStrict, nonstrict.Causal} {
		for from, in := range inputs {
			for _, to := range []Kind{KindLTL, KindBRASP, KindTransformer} {
				out, err := Convert(nil, in, to, Options{Masks: m})
				if err != nil {
					t.Fatalf("%s → %s --masks %s: %v", from, to, m, err)
				}
				switch x := out.(type) {
				case *Formula:
					err = nonstrict.CheckFormula(x.F, m)
				case *Program:
					err = nonstrict.CheckProgram(x.Prog, m)
				case *Transformer:
					err = nonstrict.CheckModel(x.M, m)
				}
				if err != nil {
					t.Errorf("%s → %s --masks %s: %v", from, to, m, err)
				}
				if r, err := Equiv(nil, in, out, Options{}); err != nil || !r.Equal {
					t.Errorf("%s → %s --masks %s: not equivalent to the input (%v, %v)", from, to, m, r, err)
				}
			}
		}
	}
	ab, err := Load(nil, "ab.re", []byte("alphabet a b\na b\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Convert(nil, ab, KindBRASP, Options{Masks: nonstrict.NonStrict})
	var refused *nonstrict.NotApplicableError
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), "not stutter-invariant") {
		t.Errorf("ab --masks non-strict: %v, want a refusal", err)
	}
}
