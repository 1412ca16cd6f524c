package transformer_test

import (
	"encoding/binary"
	"encoding/json"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
)

// untilProps is a small program over propositions: a U b at the first
// position.
const untilProps = `propositions a b
L(i) := leftmost [i<j, !P_a(j) | P_b(j)] P_b(j) : 0
U(i) := P_b(i) | (P_a(i) & L(i))
Y(i) := leftmost [1, 1] U(j) : 0
`

func propModel(t testing.TB, opts compile.Options) *transformer.Model {
	t.Helper()
	m, err := compile.Compile(nil, mustParse(t, untilProps), opts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestOverValuations checks that the model over all valuations and the
// model over a trace's own steps agree with the program on every trace up
// to length 4.
func TestOverValuations(t *testing.T) {
	p := mustParse(t, untilProps)
	for _, opts := range compile.Variants {
		m := propModel(t, opts)
		lv, err := m.OverValuations()
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(lv.Alphabet, " "); got != "{} {a} {b} {a,b}" {
			t.Fatalf("valuations %s", got)
		}
		for n := 1; n <= 4; n++ {
			for code := 0; code < 1<<(2*n); code++ {
				steps := make([][]uint64, n)
				w := make([]int, n)
				for i := range steps {
					w[i] = code >> (2 * i) & 3
					steps[i] = []uint64{uint64(w[i])}
				}
				want := p.AcceptsSteps(steps)
				byValuations, err1 := lv.Accepts(nil, w)
				ls, ws, err := m.OverSteps(steps)
				if err != nil {
					t.Fatal(err)
				}
				bySteps, err2 := ls.Accepts(nil, ws)
				if err1 != nil || err2 != nil || byValuations != want || bySteps != want {
					t.Fatalf("%+v on %v: valuations %v, steps %v (%v, %v), program %v", opts, w, byValuations, bySteps, err1, err2, want)
				}
			}
		}
	}
}

func TestPropositionsJSONErrors(t *testing.T) {
	good := string(transformer.EncodeJSON(propModel(t, compile.Options{})))
	if !strings.Contains(good, `"propositions": ["a", "b"]`) || !strings.Contains(good, `"embedding_bias": [`) {
		t.Fatalf("encoding:\n%s", good)
	}
	for _, c := range []struct {
		edit func(string) string
		want string
	}{
		{func(s string) string {
			return strings.Replace(s, `"propositions": ["a", "b"]`, `"alphabet": ["x"], "propositions": ["a", "b"]`, 1)
		}, "alphabet: a model over propositions has no alphabet"},
		{func(s string) string { return strings.Replace(s, `"embedding_bias"`, `"embedding_bias_"`, 1) }, "unknown field"},
		{func(s string) string {
			i := strings.Index(s, `"embedding_bias"`)
			j := strings.Index(s[i:], "\n")
			return s[:i] + s[i+j+1:]
		}, "embedding_bias: missing"},
		{func(s string) string { return strings.Replace(s, `"b": [`, `"c": [`, 1) }, `embedding: proposition "c" is not in the propositions`},
		{func(s string) string {
			return strings.Replace(s, `"propositions": ["a", "b"]`, `"propositions": ["a", "a"]`, 1)
		}, "propositions: duplicate"},
	} {
		_, err := transformer.DecodeJSON([]byte(c.edit(good)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
	// A model over propositions refuses words: it reads traces.
	m := propModel(t, compile.Options{})
	if _, err := m.Accepts(nil, []int{0}); err == nil {
		t.Error("a model over propositions accepted a word of symbols")
	}
	if _, _, err := propModelLetters(t).OverSteps(nil); err == nil {
		t.Error("OverSteps on a model over symbols")
	}
}

func propModelLetters(t testing.TB) *transformer.Model {
	m, err := compile.Compile(nil, mustParse(t, tinyProgram), compile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// FuzzDecodePropositions feeds mutated models over propositions to the
// loaders; a loaded one must round-trip and run on a trace.
func FuzzDecodePropositions(f *testing.F) {
	for _, opts := range compile.Variants {
		m := propModel(f, opts)
		f.Add(transformer.EncodeJSON(m))
		if st, err := transformer.EncodeSafetensors(m); err == nil {
			f.Add(st)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := transformer.DecodeJSON(data)
		if err != nil {
			if m, err = transformer.DecodeSafetensors(data); err != nil {
				return
			}
		}
		if m.Props == nil {
			return
		}
		if string(transformer.EncodeJSON(m)) == "" {
			t.Fatal("empty encoding")
		}
		if m.Width > 64 || m.NumParams() > 1<<12 {
			return
		}
		ls, w, err := m.OverSteps([][]uint64{{1}, {0}, {3}})
		if err != nil {
			t.Fatal(err)
		}
		if err := ls.Validate(); err != nil {
			t.Fatalf("model over the steps does not validate: %v", err)
		}
		_, _ = ls.AcceptsDense(nil, w)
	})
}

// TestPropositionsSafetensorsErrors: the safetensors reader refuses what
// the JSON reader refuses, through the same reading of the inputs: an
// alphabet next to propositions, a proposition twice.
func TestPropositionsSafetensorsErrors(t *testing.T) {
	data, err := transformer.EncodeSafetensors(propModel(t, compile.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	edit := func(key, value string) []byte {
		n := binary.LittleEndian.Uint64(data)
		var header map[string]any
		if err := json.Unmarshal(data[8:8+n], &header); err != nil {
			t.Fatal(err)
		}
		header["__metadata__"].(map[string]any)[key] = value
		h, err := json.Marshal(header)
		if err != nil {
			t.Fatal(err)
		}
		for len(h)%8 != 0 {
			h = append(h, ' ')
		}
		out := binary.LittleEndian.AppendUint64(nil, uint64(len(h)))
		return append(append(out, h...), data[8+n:]...)
	}
	if _, err := transformer.DecodeSafetensors(edit("format", transformer.FormatVersion)); err != nil {
		t.Fatalf("the unedited model: %v", err)
	}
	for _, c := range []struct{ key, value, want string }{
		{"alphabet", `["x"]`, "safetensors: __metadata__.alphabet: a model over propositions has no alphabet"},
		{"propositions", `["a","a"]`, "safetensors: __metadata__.propositions: duplicate"},
	} {
		if _, err := transformer.DecodeSafetensors(edit(c.key, c.value)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: got %v, want %q", c.key, c.value, err, c.want)
		}
	}
}
