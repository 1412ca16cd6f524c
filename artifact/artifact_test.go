package artifact

import (
	"errors"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/examples"
)

func TestKinds(t *testing.T) {
	for file, want := range map[string]Kind{"p.brasp": KindBRASP, "f.ltl": KindLTL, "a.dfa": KindDFA, "x.re": KindRegex, "m.json": KindTransformer, "m.safetensors": KindTransformer} {
		if got, err := KindOf(file); err != nil || got != want {
			t.Errorf("KindOf(%s) = %v, %v; want %s", file, got, err, want)
		}
	}
	if _, err := KindOf("p.txt"); err == nil || !strings.Contains(err.Error(), "unknown file kind") {
		t.Errorf("KindOf(p.txt): %v", err)
	}
	if _, err := ParseKind("nope"); err == nil || !strings.Contains(err.Error(), "known: brasp, dfa, ltl, re, transformer") {
		t.Errorf("ParseKind(nope): %v", err)
	}
}

// TestConvertChains converts the Dyck program along every registered chain
// and checks that each result accepts the same words.
func TestConvertChains(t *testing.T) {
	src, err := examples.Source(examples.Dyck)
	if err != nil {
		t.Fatal(err)
	}
	a, err := Load("dyck.brasp", src, "")
	if err != nil {
		t.Fatal(err)
	}
	words := []string{"lr", "llrr", "lllrrr", "lrlr", "rl", "llrrllrlrr", "lrrlllrrrl", "l"}
	for _, to := range []Kind{KindLTL, KindTransformer, KindDFA, KindBRASP} {
		b, err := Convert(a, to, Options{Multihead: true})
		if err != nil {
			t.Fatalf("brasp → %s: %v", to, err)
		}
		if b.Kind() != to {
			t.Fatalf("brasp → %s gave %s", to, b.Kind())
		}
		for _, s := range words {
			w, _ := a.Alphabet().ParseWord(s)
			want, _ := a.Accepts(w)
			got, err := b.Accepts(w)
			if err != nil || got != want {
				t.Errorf("brasp → %s on %s: %v, %v; want %v", to, s, got, err, want)
			}
		}
		// And back to B-RASP where a chain exists.
		if to != KindBRASP && CanConvert(to, KindBRASP) {
			c, err := Convert(b, KindBRASP, Options{})
			if err != nil {
				t.Fatalf("%s → brasp: %v", to, err)
			}
			r, err := Equiv(a, c, Options{})
			if err != nil || !r.Equal {
				t.Errorf("brasp → %s → brasp is not equivalent: %+v, %v", to, r, err)
			}
		}
	}
	if _, err := Convert(a, Kind("nope"), Options{}); !errors.Is(err, ErrNoConversion) {
		t.Errorf("Convert to an unknown kind: %v", err)
	}
}
