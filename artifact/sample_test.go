package artifact

import (
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"testing"

	"github.com/brasp-dev/brasp/automata/count"
	"github.com/brasp-dev/brasp/exact"
)

// sampleInputs loads held-out inputs of every kind: the example files
// (programs, formulas, expressions, automata), LTLf formulas, MONA's
// output, and models, programs and symbolic automata converted from them
// (over letters and over propositions).
func sampleInputs(t *testing.T) map[string]Artifact {
	t.Helper()
	in := map[string]Artifact{}
	var files []string
	for _, pat := range []string{"../examples/*.brasp", "../examples/*.ltl", "../examples/*.re", "../examples/*.dfa", "../ltlf/testdata/*.ltlf"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		a, err := Load(nil, filepath.Base(f), data, "")
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		in[filepath.Base(f)] = a
	}
	mona, err := os.ReadFile("../automata/monadfa/testdata/req_grant.txt")
	if err != nil {
		t.Fatal(err)
	}
	if in["req_grant.txt (MONA)"], err = Load(nil, "req_grant.txt", mona, KindMONADFA); err != nil {
		t.Fatal(err)
	}
	for name, to := range map[string]Kind{"dyck1_depth2.brasp": KindTransformer, "ab_plus.re": KindTransformer, "response.ltlf": KindTransformer, "counter.ltlf": KindBRASP, "declare.ltlf": KindDFA} {
		c, err := Convert(nil, in[name], to, Options{})
		if err != nil {
			t.Fatalf("%s → %s: %v", name, to, err)
		}
		in[name+" → "+string(to)] = c
	}
	return in
}

// TestSampleLabelsAreTheInputsVerdicts: on every held-out input, every
// word sample draws (balanced, lengths 1 to 8) and every word --all lists
// (lengths 1 to 3) is labelled as the input itself, run on the word as
// brasp run reads it, decides; and the counts of lengths 1 to 3 are those
// of running the input on every word.
func TestSampleLabelsAreTheInputsVerdicts(t *testing.T) {
	kinds := map[Kind]bool{}
	for name, a := range sampleInputs(t) {
		l, err := LanguageOf(nil, a, Options{})
		if isTransducer(a) || errors.Is(err, exact.ErrNotRegular) {
			if err == nil {
				t.Errorf("%s: a transducer has a language", name)
			}
			t.Logf("%s: %v", name, err)
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		kinds[a.Kind()] = true
		if _, ok := propsOf(a); ok != l.Traces() {
			t.Errorf("%s: traces %v", name, l.Traces())
		}
		tb, err := l.A.Count(nil, 8)
		if err != nil {
			t.Fatal(err)
		}
		check := func(w []uint64, acc bool) error {
			got, err := l.Run(a, w)
			if err != nil || got != acc {
				t.Fatalf("%s: %s labelled %v, the input says %v (%v)", name, l.AppendWord(nil, w), acc, got, err)
			}
			return nil
		}
		if err := count.Generate(nil, tb, count.Request{Min: 1, Max: 8, Count: 30, Mode: count.Balanced, Seed: 3}, check, func(string) {}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		maxAll := 3
		if l.A.Letters().Int64() > 16 {
			maxAll = 2
		}
		accepted := make([]int64, maxAll+1)
		if err := l.A.Enumerate(nil, 1, maxAll, func(w []uint64, acc bool) error {
			if acc {
				accepted[len(w)]++
			}
			return check(w, acc)
		}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for n := 1; n <= maxAll; n++ {
			if tb.Words(count.Accept, n).Cmp(big.NewInt(accepted[n])) != 0 {
				t.Errorf("%s, length %d: counted %s accepted words, the input accepts %d", name, n, tb.Words(count.Accept, n), accepted[n])
			}
		}
	}
	for _, k := range []Kind{KindBRASP, KindLTL, KindRegex, KindDFA, KindLTLf, KindTransformer} {
		if !kinds[k] {
			t.Errorf("no input of kind %s", k)
		}
	}
}

// TestSampleWordsAsWritten: words and traces are written as brasp run
// reads them, and as JSON lines.
func TestSampleWordsAsWritten(t *testing.T) {
	for _, c := range []struct {
		src, name string
		word      []uint64
		text      string
		json      string
	}{
		{"alphabet a b\n(ab)+", "x.re", []uint64{0, 1}, "ab", `{"word":["a","b"],"length":2,"label":"accept"}`},
		{"alphabet ab \"c d\"\n(ab)+", "x.re", []uint64{0, 1}, `ab "c d"`, `{"word":["ab","c d"],"length":2,"label":"accept"}`},
		// A quote or a blank cannot be written unseparated.
		{"alphabet a \"\\\"\"\n.*", "x.re", []uint64{0, 1}, `a "\""`, `{"word":["a","\""],"length":2,"label":"accept"}`},
		{"alphabet a \"\\t\"\n.*", "x.re", []uint64{1, 0}, `"\t" a`, `{"word":["\t","a"],"length":2,"label":"accept"}`},
		{"propositions p q\nG p", "x.ltlf", []uint64{3, 0, 2}, "p,q;;q", `{"word":["{p,q}","{}","{q}"],"length":3,"trace":"p,q;;q","label":"accept"}`},
		{"propositions q p\nG p", "x.ltlf", []uint64{0}, "{}", `{"word":["{}"],"length":1,"trace":"{}","label":"accept"}`},
		{"propositions \"door open\" b\nG b", "x.ltlf", []uint64{3}, `"door open",b`, `{"word":["{b,door open}"],"length":1,"trace":"\"door open\",b","label":"accept"}`},
		// Past tabulatedProps, the steps are written as they come.
		{"propositions p0 p1 p2 p3 p4 p5 p6 p7 p8 p9 p10 b\nG p0", "x.ltlf", []uint64{1, 1 | 1<<10 | 1<<11}, "p0;p0,p10,b", `{"word":["{p0}","{b,p0,p10}"],"length":2,"trace":"p0;p0,p10,b","label":"accept"}`},
	} {
		a, err := Load(nil, c.name, []byte(c.src), "")
		if err != nil {
			t.Fatal(err)
		}
		l, err := LanguageOf(nil, a, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := string(l.AppendWord(nil, c.word)); got != c.text {
			t.Errorf("%q: word %q, want %q", c.src, got, c.text)
		}
		if got := string(l.AppendJSON(nil, c.word, true)); got != c.json {
			t.Errorf("%q: JSON %s, want %s", c.src, got, c.json)
		}
		if _, err := l.Run(a, c.word); err != nil {
			t.Errorf("%q: %s does not read back: %v", c.src, c.text, err)
		}
	}
}

// TestCountDyckProgram: the program of Dyck-1 of depth 2 (the paper's
// running example) has 2^(m-1) words of length 2m, the compositions of m
// (a word is a sequence of blocks l (lr)^j r, one block of each semilength),
// and none of odd length, up to length 200.
func TestCountDyckProgram(t *testing.T) {
	data, err := os.ReadFile("../examples/dyck1_depth2.brasp")
	if err != nil {
		t.Fatal(err)
	}
	a, err := Load(nil, "dyck1_depth2.brasp", data, "")
	if err != nil {
		t.Fatal(err)
	}
	l, err := LanguageOf(nil, a, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tb, err := l.A.Count(nil, 200)
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 200; n++ {
		want := new(big.Int)
		if n%2 == 0 {
			want.Lsh(big.NewInt(1), uint(n/2-1))
		}
		if got := tb.Words(count.Accept, n); got.Cmp(want) != 0 {
			t.Fatalf("length %d: %s words, want %s", n, got, want)
		}
	}
}
