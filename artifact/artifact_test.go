package artifact

import (
	"errors"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/exact"
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
	if _, err := ParseKind("nope"); err == nil || !strings.Contains(err.Error(), "known: brasp, dfa, ltl, ltlf, mona-dfa, re, transformer") {
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
	a, err := Load(nil, "dyck.brasp", src, "")
	if err != nil {
		t.Fatal(err)
	}
	words := []string{"lr", "llrr", "lllrrr", "lrlr", "rl", "llrrllrlrr", "lrrlllrrrl", "l"}
	for _, to := range []Kind{KindLTL, KindTransformer, KindDFA, KindBRASP} {
		b, err := Convert(nil, a, to, Options{Compile: CompileOptions{MultiHead: true}})
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
			c, err := Convert(nil, b, KindBRASP, Options{})
			if err != nil {
				t.Fatalf("%s → brasp: %v", to, err)
			}
			r, err := Equiv(nil, a, c, Options{})
			if err != nil || !r.Equal {
				t.Errorf("brasp → %s → brasp is not equivalent: %+v, %v", to, r, err)
			}
		}
	}
	if _, err := Convert(nil, a, Kind("nope"), Options{}); !errors.Is(err, ErrNoConversion) {
		t.Errorf("Convert to an unknown kind: %v", err)
	}
}

// TestTableComplete checks the conversion table: one edge per ordered pair
// of distinct kinds that brasp converts between (every pair but those into
// re), routes whose steps start where the previous step ends, and the listing
// fields filled in.
func TestTableComplete(t *testing.T) {
	for _, table := range [][]route{edges, maskedEdges()} {
		for _, r := range table {
			for i := 1; i < len(r); i++ {
				if r[i].From != r[i-1].To {
					t.Errorf("route %s → %s: %s → %s then %s → %s", r.from(), r.to(), r[i-1].From, r[i-1].To, r[i].From, r[i].To)
				}
			}
		}
	}
	seen := map[[2]Kind]bool{}
	for _, e := range Edges() {
		pair := [2]Kind{e.From, e.To}
		if seen[pair] {
			t.Errorf("two edges %s → %s", e.From, e.To)
		}
		seen[pair] = true
		if e.From == e.To {
			t.Errorf("edge %s → %s: converting to the same kind is Convert's own business", e.From, e.To)
		}
		n := len(e.Via) + 1
		if len(e.Funcs) != n || len(e.Refs) != n || len(e.Options) != n {
			t.Errorf("edge %s → %s via %v: %d funcs, %d refs, %d options; want %d each", e.From, e.To, e.Via, len(e.Funcs), len(e.Refs), len(e.Options), n)
		}
		for _, f := range e.Funcs {
			if f == "" || strings.Contains(f, "func") {
				t.Errorf("edge %s → %s: function name %q", e.From, e.To, f)
			}
		}
	}
	for _, from := range Kinds() {
		for _, to := range Kinds() {
			// Nothing converts to re, nor to ltlf (letters are not valuations).
			// mona-dfa is read as a dfa (its edges are dfa's) and
			// written by nothing.
			want := from != to && to != KindRegex && to != KindLTLf && from != KindMONADFA && to != KindMONADFA
			if seen[[2]Kind{from, to}] != want {
				t.Errorf("edge %s → %s: in the table %v, want %v", from, to, seen[[2]Kind{from, to}], want)
			}
			if from == KindMONADFA && from != to {
				want = CanConvert(KindDFA, to)
			}
			if CanConvert(from, to) != (want || from == to) {
				t.Errorf("CanConvert(%s, %s) = %v", from, to, CanConvert(from, to))
			}
		}
	}
}

// TestConvertWrongType checks that an edge given an artifact of another Go
// type than its own says so instead of panicking.
func TestConvertWrongType(t *testing.T) {
	type other struct{ *Program }
	p := NewProgram(examples.MustProgram(examples.Dyck))
	_, err := Convert(nil, other{p}, KindLTL, Options{})
	if err == nil || !strings.Contains(err.Error(), "want *artifact.Program") {
		t.Errorf("Convert of a foreign artifact type: %v", err)
	}
}

// TestFutureOnlyFromEveryKind converts the Dyck program's compiled model,
// its formula and its DFA to B-RASP with FutureOnly, and checks that each
// result is future-only and exactly equivalent to the program.
func TestFutureOnlyFromEveryKind(t *testing.T) {
	p := NewProgram(examples.MustProgram(examples.Dyck))
	if exact.CheckFutureOnly(p.Prog) == nil {
		t.Fatal("the Dyck program is already future-only: the test checks nothing")
	}
	opts := Options{BRASP: BRASPOptions{FutureOnly: true}}
	for _, k := range []Kind{KindBRASP, KindTransformer, KindLTL, KindDFA} {
		a, err := Convert(nil, p, k, Options{})
		if err != nil {
			t.Fatalf("brasp → %s: %v", k, err)
		}
		b, err := Convert(nil, a, KindBRASP, opts)
		if err != nil {
			t.Fatalf("%s → brasp --future-only: %v", k, err)
		}
		q := b.(*Program)
		if err := exact.CheckFutureOnly(q.Prog); err != nil {
			t.Errorf("%s → brasp --future-only: %v", k, err)
		}
		r, err := Equiv(nil, p, q, Options{})
		if err != nil || !r.Equal {
			t.Errorf("%s → brasp --future-only is not equivalent: %+v, %v", k, r, err)
		}
	}
}

// TestEquivChecksItsCounterexample gives Equiv an input whose runs disagree
// with its exact semantics (a regular expression artifact whose automaton
// is another expression's) and checks that the counterexample is refused.
func TestEquivChecksItsCounterexample(t *testing.T) {
	load := func(src string) *Regex {
		a, err := Load(nil, "x.re", []byte(src), "")
		if err != nil {
			t.Fatal(err)
		}
		return a.(*Regex)
	}
	ab, aa := load("alphabet a b\n(a|b)*a\n"), load("alphabet a b\na+\n")
	r, err := Equiv(nil, ab, aa, Options{})
	if err != nil || r.Equal || !r.FirstAccepts || r.Alphabet.FormatWord(r.Word) != "ba" {
		t.Fatalf("Equiv((a|b)*a, a+) = %+v, %v; want the counterexample ba", r, err)
	}
	liar := &Regex{R: ab.R, d: aa.d}
	if _, err := Equiv(nil, liar, aa, Options{}); !errors.Is(err, ErrUnconfirmed) {
		t.Errorf("Equiv with an input that runs differently from its DFA: %v, want ErrUnconfirmed", err)
	}
}
