package artifact

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/symbolic"
)

// TestLearnEveryKind learns every example that has a language (programs,
// formulas, regular expressions, DFAs, LTLf, compiled transformers) from
// its exact teacher: the learned DFA must be equivalent to the input on
// non-empty words and have as many states as its minimal DFA over them.
func TestLearnEveryKind(t *testing.T) {
	var files []string
	for _, pat := range []string{"../examples/*.*", "../ltlf/testdata/xor.ltlf"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	var inputs []Artifact
	var names []string
	for _, f := range files {
		if strings.HasSuffix(f, ".go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		a, err := Load(nil, f, data, "")
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		inputs, names = append(inputs, a), append(names, f)
		if strings.HasSuffix(f, ".brasp") && !strings.Contains(f, "stair5") {
			if m, err := Convert(nil, a, KindTransformer, Options{}); err == nil {
				inputs, names = append(inputs, m), append(names, f+" compiled")
			}
		}
	}
	kinds := map[Kind]bool{}
	for i, a := range inputs {
		want, err := ToDFA(nil, a, Options{})
		if err != nil {
			continue // a transducer, or not regular (Mid)
		}
		res, err := Learn(nil, a, Options{})
		if err != nil {
			t.Fatalf("%s: %v", names[i], err)
		}
		if !automata.Equivalent(res.DFA, want, automata.SigmaPlus) {
			t.Errorf("%s: learned DFA differs from the input", names[i])
		}
		r, err := Equiv(nil, a, NewDFA(res.DFA), Options{})
		if err != nil || !r.Equal {
			t.Errorf("%s: Equiv of input and learned DFA: %v %+v", names[i], err, r)
		}
		if n := plusStates(want); res.DFA.NumStates() != n {
			t.Errorf("%s: learned %d states, minimal DFA over non-empty words has %d", names[i], res.DFA.NumStates(), n)
		}
		kinds[a.Kind()] = true
	}
	for _, k := range []Kind{KindBRASP, KindLTL, KindLTLf, KindRegex, KindDFA, KindTransformer} {
		if !kinds[k] {
			t.Errorf("no input of kind %s learned", k)
		}
	}
}

// plusStates is the number of states of the minimal DFA of the non-empty
// words d accepts (d minimal).
func plusStates(d *automata.DFA) int {
	if !d.Accept[d.Start] {
		return d.NumStates()
	}
	e := d.Clone()
	e.States = append(e.States, "fresh-start")
	e.Accept = append(e.Accept, false)
	e.Delta = append(e.Delta, append([]int(nil), d.Delta[d.Start]...))
	e.Start = e.NumStates() - 1
	m, err := automata.Minimize(nil, e)
	if err != nil {
		panic(err)
	}
	return m.NumStates()
}

// TestLearnTraces learns LTLf formulas and a program over propositions as
// languages of traces (over their propositions and one more, in another
// order): the symbolic DFA of the learned letters must be equivalent to
// the input on non-empty traces (Equiv) and as small as the input's
// minimal symbolic DFA over them.
func TestLearnTraces(t *testing.T) {
	for _, src := range []struct{ name, text string }{
		{"f.ltlf", "F a & G(b -> X[!] c)"},
		{"g.ltlf", "a U (b & X[!] !c)"},
		{"h.ltlf", "G(a -> F b) & F a"},
	} {
		a, err := Load(nil, src.name, []byte(src.text), "")
		if err != nil {
			t.Fatal(err)
		}
		props := []string{"c", "extra", "b", "a"}
		res, err := LearnTraces(nil, a, props, Options{})
		if err != nil {
			t.Fatalf("%s: %v", src.text, err)
		}
		s, err := Symbolic(nil, res.DFA, props)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Equiv(nil, a, s, Options{})
		if err != nil || !r.Equal {
			t.Errorf("%s: Equiv of input and learned symbolic DFA: %v %+v", src.text, err, r)
		}
		d, _, err := a.(*LTLf).over(nil, props)
		if err != nil {
			t.Fatal(err)
		}
		m, err := symbolic.Minimize(nil, rejectEmpty(d))
		if err != nil {
			t.Fatal(err)
		}
		if s.D.NumStates() != m.NumStates() {
			t.Errorf("%s: learned %d states, the minimal symbolic DFA of non-empty traces has %d", src.text, s.D.NumStates(), m.NumStates())
		}
	}
	if _, err := LearnTraces(nil, NewDFA(automata.NewDFA([]string{"a"}, 1)), []string{"a"}, Options{}); err == nil {
		t.Error("LearnTraces learned a DFA over letters as traces")
	}
}
