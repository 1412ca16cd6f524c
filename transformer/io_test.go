package transformer_test

import (
	"bytes"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/examples"
	"github.com/brasp-dev/brasp/position"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
)

const modProgram = `Q_a(i)
Q_b(i)
MOD_1_3(i)
MOD_0_2(i)
first(i)
last(i)
A(i) := rightmost [j<i, MOD_1_3(j) | first(j)] Q_a(j) : MOD_0_2(i)
Y(i) := (A(i) & !MOD_1_3(i)) | (last(i) & MOD_0_2(i) & Q_b(i))
`

// examplePrograms loads every example program of the repository.
func examplePrograms(t testing.TB) map[string]*brasp.Program {
	t.Helper()
	progs, err := examples.Programs()
	if err != nil || len(progs) == 0 {
		t.Fatalf("example programs: %d, %v", len(progs), err)
	}
	return progs
}

func mustParse(t testing.TB, src string) *brasp.Program {
	t.Helper()
	p, err := brasp.Parse("test.brasp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// roundTrip encodes m in both formats and checks that decoding gives the
// same model (same JSON encoding).
func roundTrip(t *testing.T, name string, m *transformer.Model) {
	t.Helper()
	js := transformer.EncodeJSON(m)
	m2, err := transformer.DecodeJSON(js)
	if err != nil {
		t.Fatalf("%s: decode JSON: %v\n%s", name, err, js)
	}
	if !bytes.Equal(transformer.EncodeJSON(m2), js) {
		t.Fatalf("%s: JSON round trip changed the model", name)
	}
	sp := transformer.EncodeJSONSparse(m)
	m4, err := transformer.DecodeJSON(sp)
	if err != nil {
		t.Fatalf("%s: decode sparse JSON: %v\n%s", name, err, sp)
	}
	if !bytes.Equal(transformer.EncodeJSON(m4), js) {
		t.Fatalf("%s: sparse JSON round trip changed the model", name)
	}
	if len(sp) > len(js) {
		t.Fatalf("%s: the sparse encoding has %d bytes, the dense one %d", name, len(sp), len(js))
	}
	st, err := transformer.EncodeSafetensors(m)
	if err != nil {
		t.Fatalf("%s: encode safetensors: %v", name, err)
	}
	sst, err := transformer.EncodeSafetensorsSparse(m)
	if err != nil {
		t.Fatalf("%s: encode sparse safetensors: %v", name, err)
	}
	m5, err := transformer.DecodeSafetensors(sst)
	if err != nil {
		t.Fatalf("%s: decode sparse safetensors: %v", name, err)
	}
	if !bytes.Equal(transformer.EncodeJSON(m5), js) {
		t.Fatalf("%s: sparse safetensors round trip changed the model", name)
	}
	m3, err := transformer.DecodeSafetensors(st)
	if err != nil {
		t.Fatalf("%s: decode safetensors: %v", name, err)
	}
	if !bytes.Equal(transformer.EncodeJSON(m3), js) {
		t.Fatalf("%s: safetensors round trip changed the model", name)
	}
}

func TestRoundTrip(t *testing.T) {
	progs := examplePrograms(t)
	progs["mod"] = mustParse(t, modProgram)
	for name, p := range progs {
		for _, o := range []compile.Options{compile.Variants[0], compile.Variants[3]} {
			m, err := compile.Compile(nil, p, o)
			if err != nil {
				t.Fatal(err)
			}
			roundTrip(t, name+" "+o.String(), m)
		}
	}
}

// handModel is a small model written by hand in the JSON format, with exact
// fractions, a sinusoidal embedding in the short form and a layer norm.
const handModel = `{
  "format": "brasp-transformer/1",
  "alphabet": ["a", "b"],
  "width": 4,
  "labels": ["x", "y", "s", "c"],
  "embedding": {"a": [1, 0, 0, 0], "b": [0, "1/3", 0, 0]},
  "position": {"kind": "sinusoidal", "frequencies": ["1/4"], "coords": [2, 3]},
  "layers": [
    {"attention": [{"mask": "future-or-self", "tiebreak": "leftmost",
                    "score": [[0,1,0,0],[1,0,0,0],[0,0,1,0],[0,0,0,0]],
                    "value": [[0,0,0,0],[1,0,0,0],[0,0,0,0],[0,0,0,1]]}],
     "ffn": {"w1": [[1, -1, 0, 0.5]], "b1": [-0.25], "w2": [[0],[2],[0],[0]], "b2": [0,0,0,0]},
     "layernorm": {"attention": null, "ffn": {"gamma": [1,1,1,1], "beta": [0,0,0,"1/7"], "eps": "1/100"}}}
  ],
  "output": {"weight": [1, -1, 0, 0], "bias": 0}
}`

func TestHandModel(t *testing.T) {
	m, err := transformer.DecodeJSON([]byte(handModel))
	if err != nil {
		t.Fatal(err)
	}
	if m.Embedding[1][1].Cmp(big.NewRat(1, 3)) != 0 {
		t.Fatalf("1/3 was not read exactly: %s", m.Embedding[1][1].RatString())
	}
	if len(m.Position) != 2 || m.Position[0].Kind != transformer.PosSin || m.Position[1].Coord != 3 {
		t.Fatalf("sinusoidal embedding read as %+v", m.Position)
	}
	if _, err := transformer.EncodeSafetensors(m); err == nil || !strings.Contains(err.Error(), "not exactly representable") {
		t.Fatalf("safetensors should refuse 1/3, got %v", err)
	}
	m2, err := transformer.DecodeJSON(transformer.EncodeJSON(m))
	if err != nil || !bytes.Equal(transformer.EncodeJSON(m2), transformer.EncodeJSON(m)) {
		t.Fatalf("round trip: %v", err)
	}
	fastDenseAgree(t, "hand", m, 6, rand.New(rand.NewPCG(1, 1)))
}

// fastDenseAgree checks Forward ≡ ForwardDense on all words up to maxLen
// and on random words.
func fastDenseAgree(t *testing.T, name string, m *transformer.Model, maxLen int, rng *rand.Rand) {
	t.Helper()
	r, err := transformer.NewRunner(m)
	if err != nil {
		t.Fatal(err)
	}
	check := func(w []int) {
		a, err := r.Forward(w, transformer.FastOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		d, err := r.ForwardDense(w)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		e, err := transformer.ForwardExact(m, nil, w, transformer.FastOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i := range w {
			if !a.SameAt(i, d, i) || !e.SameAt(i, d, i) {
				t.Fatalf("%s: on %v fast, exact fast and dense differ at position %d:\n%v\n%v\n%v", name, w, i+1, a.At(i), e.At(i), d.At(i))
			}
		}
	}
	brasptest.AllWords(len(m.Alphabet), maxLen, func(w []int) { check(w) })
	for range 10 {
		check(brasptest.RandomWord(rng, len(m.Alphabet), 1+rng.IntN(40)))
	}
}

// ratSource draws random rationals; vec and mat fill vectors and matrices
// with its draws, row by row.
type ratSource func() *big.Rat

func (num ratSource) vec(n int) transformer.Vec {
	v := make(transformer.Vec, n)
	for k := range v {
		v[k] = num()
	}
	return v
}

func (num ratSource) mat(r, c int) transformer.Matrix {
	m := make(transformer.Matrix, r)
	for k := range m {
		m[k] = num.vec(c)
	}
	return m
}

// randomModel returns a model with small random integer (or half-integer)
// weights: genuine ties and non-ties in scores, negative values, and
// optionally layer norms whose σ is irrational (exercising the exact
// fallbacks).
func randomModel(rng *rand.Rand, norm bool) *transformer.Model {
	d := 3 + rng.IntN(3)
	num := ratSource(func() *big.Rat { return big.NewRat(int64(rng.IntN(5)-2), int64(1+rng.IntN(2))) })
	vec, mat := num.vec, num.mat
	m := &transformer.Model{Alphabet: brasptest.Alphabet(2), Width: d}
	for k := range d {
		m.Labels = append(m.Labels, "c"+strconv.Itoa(k))
	}
	m.Embedding = []transformer.Vec{vec(d), vec(d)}
	if rng.IntN(3) == 0 {
		m.Position = []transformer.PositionTerm{{Kind: transformer.PosFirst, Coord: 0, Scale: big.NewRat(1, 1)}, {Kind: transformer.PosCos, Frequency: big.NewRat(1, 3), Coord: 1, Scale: big.NewRat(1, 1)}}
	}
	for range 1 + rng.IntN(3) {
		var l transformer.Layer
		for range rng.IntN(3) {
			l.Heads = append(l.Heads, transformer.Head{Mask: position.Mask(rng.IntN(5)), Tiebreak: position.Tiebreak(rng.IntN(2)), Score: mat(d, d), Value: mat(d, d)})
		}
		if rng.IntN(4) > 0 {
			h := 1 + rng.IntN(3)
			l.FFN = &transformer.FFN{W1: mat(h, d), B1: vec(h), W2: mat(d, h), B2: vec(d)}
		}
		if norm {
			l.FFNNorm = &transformer.LayerNorm{Gamma: vec(d), Beta: vec(d), Eps: big.NewRat(int64(rng.IntN(2)), 4)}
		}
		m.Layers = append(m.Layers, l)
	}
	m.Output = transformer.Output{Weight: vec(d), Bias: num()}
	return m
}

func TestRandomModelsFastDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for k := range 60 {
		m := randomModel(rng, k%4 == 3)
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		fastDenseAgree(t, "random model "+strconv.Itoa(k), m, 4, rng)
		roundTrip(t, "random model "+strconv.Itoa(k), m)
	}
}

func TestLoadErrors(t *testing.T) {
	good := handModel
	cases := []struct{ from, to, want string }{
		{`"format": "brasp-transformer/1"`, `"format": "x/2"`, `format: "x/2"`},
		{`"width": 4`, `"width": 5`, "labels: 4 labels for width 5"},
		{`"mask": "future-or-self"`, `"mask": "sideways"`, `attention[0].mask: "sideways" is not one of`},
		{`"tiebreak": "leftmost"`, `"tiebreak": "middle"`, `tiebreak: "middle" is not leftmost or rightmost`},
		{`"b": [0, "1/3", 0, 0]`, `"b": [0, "1/0", 0, 0]`, `embedding["b"][1]: "1/0" is not a number`},
		{`"b": [0, "1/3", 0, 0]`, `"b": [0, "1/3", 0]`, `embedding["b"]: has 3 entries, want 4`},
		{`"b": [0, "1/3", 0, 0]`, `"c": [0, "1/3", 0, 0]`, `embedding: symbol "c" is not in the alphabet`},
		{`"b1": [-0.25]`, `"b1": [-0.25, 1]`, "layers[0].ffn.w1: has 1 rows, want 2"},
		{`"eps": "1/100"`, `"eps": -1`, "eps: -1 is negative"},
		{`"eps": "1/100"`, `"eps": 1e999999`, "exponent out of range"},
		{`"bias": 0`, `"bias": null`, "output.bias: missing number"},
		{`"coords": [2, 3]`, `"coords": [2]`, "position.coords: 1 coordinates for 1 frequencies"},
		{`"alphabet": ["a", "b"]`, `"alphabet": ["a", "a"]`, "alphabet: duplicate symbol"},
		{`"labels"`, `"lables"`, `unknown field "lables"`},
	}
	for _, c := range cases {
		src := strings.Replace(good, c.from, c.to, 1)
		if src == good {
			t.Fatalf("case %q does not apply", c.from)
		}
		_, err := transformer.DecodeJSON([]byte(src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("with %s: got error %v, want one containing %q", c.to, err, c.want)
		}
	}
	// Position terms in list form.
	m, _ := transformer.DecodeJSON([]byte(handModel))
	js := string(transformer.EncodeJSON(m))
	for _, c := range []struct{ from, to, want string }{
		{`"coord": 3`, `"coord": 9`, "position[1]: coord 9 is out of range 0..3"},
		{`{"kind": "sin"`, `{"kind": "tan"`, `position[0].kind: "tan" is not one of`},
	} {
		src := strings.Replace(js, c.from, c.to, 1)
		_, err := transformer.DecodeJSON([]byte(src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("with %s: got error %v, want one containing %q", c.to, err, c.want)
		}
	}
	// Table terms.
	tm, err := compile.Compile(nil, mustParse(t, tableProgram), compile.Options{PositionTables: true})
	if err != nil {
		t.Fatal(err)
	}
	js = string(transformer.EncodeJSON(tm))
	for _, c := range []struct{ from, to, want string }{
		{`"period": [0, 1]`, `"period": []`, "position[0]: period: a table term needs a non-empty period"},
		{`"prefix": [1, 0], "period": [0, 1]`, `"prefix": [1, 0]`, "position[0].period: missing"},
		{`"prefix": [1, 0]`, `"prefix": [1, "x"]`, `position[0].prefix[1]: "x" is not a number`},
		{`"period": [0, 1]`, `"period": [0, null]`, "position[0].period[1]: missing number"},
		{`"kind": "table"`, `"kind": "mod", "r": 0, "m": 2`, "position[0]: only table terms have a prefix and a period"},
		{`"kind": "table"`, `"kind": "table", "negated": true`, "position[0]: negated: only predicate terms can be negated"},
		{`"period": [0, 1]`, `"period": [0, 1], "frequency": 1`, "position[0].frequency: only sin and cos terms have one"},
	} {
		src := strings.Replace(js, c.from, c.to, 1)
		if src == js {
			t.Fatalf("case %q does not apply to\n%s", c.from, js)
		}
		_, err := transformer.DecodeJSON([]byte(src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("with %s: got error %v, want one containing %q", c.to, err, c.want)
		}
	}
}

// tableProgram reads an eventually periodic table (1 0 then 0 1 0 1 …),
// compiled to a table position term with PositionTables.
const tableProgram = "Q_a(i)\nQ_b(i)\nPERIODIC_10_01(i)\nA(i) := rightmost [j<i, PERIODIC_10_01(j)] Q_a(j) : 0\nY(i) := A(i) | PERIODIC_10_01(i)\n"

// TestTableRoundTrip: models with table position terms survive both file
// formats, and the terms' values are the tables'.
func TestTableRoundTrip(t *testing.T) {
	for _, o := range compile.Variants {
		o.PositionTables = true
		m, err := compile.Compile(nil, mustParse(t, tableProgram), o)
		if err != nil {
			t.Fatal(err)
		}
		roundTrip(t, "table "+o.String(), m)
		found := false
		for _, term := range m.Position {
			if term.Kind != transformer.PosTable {
				continue
			}
			found = true
			want := []int64{1, 0, 0, 1, 0, 1, 0, 1}
			for i, w := range want {
				if term.Negated {
					t.Fatal("a negated table")
				}
				v := term.Value(i+1, 8)
				if term.Scale.Sign() > 0 && v.Cmp(big.NewRat(w, 1)) != 0 && v.Cmp(big.NewRat(1-w, 1)) != 0 {
					t.Fatalf("%s: position %d has %s", o, i+1, v.RatString())
				}
			}
		}
		if !found {
			t.Fatalf("%s: no table term", o)
		}
		if !strings.Contains(transformer.Describe(m), "table(1 0 | 0 1)") {
			t.Errorf("%s: Describe does not show the table:\n%s", o, transformer.Describe(m))
		}
	}
}

func TestSafetensorsErrors(t *testing.T) {
	p := examplePrograms(t)["dyck1_depth2.brasp"]
	m, err := compile.Compile(nil, p, compile.Options{MultiHead: true})
	if err != nil {
		t.Fatal(err)
	}
	st, err := transformer.EncodeSafetensors(m)
	if err != nil {
		t.Fatal(err)
	}
	hlen := int(st[0]) | int(st[1])<<8 | int(st[2])<<16
	header := string(st[8 : 8+hlen])
	body := st[8+hlen:]
	rebuild := func(h string) []byte {
		for len(h)%8 != 0 {
			h += " "
		}
		out := make([]byte, 8, 8+len(h)+len(body))
		n := len(h)
		out[0], out[1], out[2] = byte(n), byte(n>>8), byte(n>>16)
		out = append(out, h...)
		return append(out, body...)
	}
	cases := []struct {
		data []byte
		want string
	}{
		{st[:5], "too short"},
		{append([]byte{255, 255, 255, 255, 0, 0, 0, 0}, st[8:]...), "exceeds the file size"},
		{rebuild(strings.Replace(header, `"F64"`, `"I8"`, 1)), `dtype "I8"`},
		{rebuild(strings.Replace(header, `"output.bias"`, `"output.bias2"`, 1)), "tensor output.bias is missing"},
		{rebuild(strings.Replace(header, `\"mask\":\"future\"`, `\"mask\":\"up\"`, 1)), `mask: "up" is not one of`},
		{rebuild(strings.Replace(header, `"format":"brasp-transformer/1"`, `"format":"v0"`, 1)), `format is "v0"`},
		{st[:len(st)-8], "outside the"},
	}
	for k, c := range cases {
		_, err := transformer.DecodeSafetensors(c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("case %d: got error %v, want one containing %q", k, err, c.want)
		}
	}
}

func FuzzDecodeJSON(f *testing.F) {
	f.Add([]byte(handModel))
	for _, o := range compile.Variants {
		m, err := compile.Compile(nil, mustParse(f, tinyProgram), o)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(transformer.EncodeJSON(m))
		f.Add(transformer.EncodeJSONSparse(m))
	}
	tm, err := compile.Compile(nil, mustParse(f, tableProgram), compile.Options{PositionTables: true})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(transformer.EncodeJSON(tm))
	f.Add([]byte(`{"format": "brasp-transformer/1", "width": 0}`))
	f.Add([]byte(`[]`))
	f.Add([]byte("{\"format\":\"brasp-transformer/1\",\n\"width\":\"x\"}"))
	f.Add([]byte("{\"format\":\"brasp-transformer/1\",\n\"layers\":["))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := transformer.DecodeJSON(data)
		if err != nil {
			// Errors speak of the file, never of Go's types.
			if msg := err.Error(); strings.Contains(msg, "Go struct") || strings.Contains(msg, "Go value") || strings.Contains(msg, "jsonModel") {
				t.Fatalf("error names Go types: %v", err)
			}
			return
		}
		fuzzModel(t, m)
	})
}

// tinyProgram keeps fuzz seeds small (the fuzzer mutates whole files).
const tinyProgram = "Q_a(i)\nQ_b(i)\nMOD_0_2(i)\nA(i) := rightmost [j<i, 1] Q_a(j) : 0\nY(i) := A(i) & MOD_0_2(i)\n"

// FuzzDecodeSafetensors feeds mutated safetensors files to the loader.
//
// Run it with a bounded minimisation, for example
//
//	go test ./transformer -run '^$' -fuzz FuzzDecodeSafetensors -fuzzminimizetime 200x
//
// With Go's default of 60 s per minimisation, every new input that widens
// coverage is minimised by trying to delete each pair of byte positions, which
// is quadratic in the size of the file; the seeds are about 1.8 KB (a valid
// file needs its JSON header), so the workers spend the whole budget
// minimising and report 0 execs/s. With 200 attempts per minimisation the
// target ran 666,648 execs in 30 s on this 2-core machine.
func FuzzDecodeSafetensors(f *testing.F) {
	// Small seeds: the fuzzer slows down badly on inputs of many kilobytes.
	for _, src := range []string{
		"Q_a(i)\nQ_b(i)\nY(i) := rightmost [j<i, 1] Q_a(j) : 0\n",
		"Q_a(i)\nMOD_0_2(i)\nY(i) := MOD_0_2(i)\n",
		"Q_a(i)\nPERIODIC_1_01(i)\nY(i) := PERIODIC_1_01(i)\n",
	} {
		m, err := compile.Compile(nil, mustParse(f, src), compile.Options{MultiHead: true, PositionTables: true})
		if err != nil {
			f.Fatal(err)
		}
		st, err := transformer.EncodeSafetensors(m)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(st)
		if st, err = transformer.EncodeSafetensorsSparse(m); err != nil {
			f.Fatal(err)
		}
		f.Add(st)
	}
	f.Add([]byte{8, 0, 0, 0, 0, 0, 0, 0, '{', '}', ' ', ' ', ' ', ' ', ' ', ' '})
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := transformer.DecodeSafetensors(data)
		if err != nil {
			return
		}
		fuzzModel(t, m)
	})
}

// fuzzModel checks what every loaded model must satisfy: it validates,
// re-encodes to the same model, and runs without panicking.
func fuzzModel(t *testing.T, m *transformer.Model) {
	if err := m.Validate(); err != nil {
		t.Fatalf("loaded model does not validate: %v", err)
	}
	js := transformer.EncodeJSON(m)
	m2, err := transformer.DecodeJSON(js)
	if err != nil {
		t.Fatalf("re-encoded model does not load: %v", err)
	}
	if !bytes.Equal(transformer.EncodeJSON(m2), js) {
		t.Fatal("JSON round trip changed the model")
	}
	if m.Width > 64 || m.NumParams() > 1<<14 || !tame(m) {
		return
	}
	r, err := transformer.NewRunner(m)
	if err != nil {
		t.Fatal(err)
	}
	w := []int{0, len(m.Alphabet) - 1, 0}
	a, errA := r.Forward(w, transformer.FastOptions{MaxClasses: 64})
	d, errD := r.ForwardDense(w)
	if errA == nil && errD == nil {
		for i := range w {
			if !a.SameAt(i, d, i) {
				t.Fatalf("fast and dense differ at position %d", i+1)
			}
		}
	}
}

// tame reports whether every parameter of m has numerator and denominator
// below 2^24, so that exact forward passes stay cheap (a fuzzed 1e300 or
// 5e-324 makes exact arithmetic arbitrarily slow, not wrong).
func tame(m *transformer.Model) bool {
	ok := func(v transformer.Vec) bool {
		for _, x := range v {
			if x.Num().BitLen() > 24 || x.Denom().BitLen() > 24 {
				return false
			}
		}
		return true
	}
	all := append([]transformer.Vec{m.Output.Weight}, m.Embedding...)
	for _, l := range m.Layers {
		for _, h := range l.Heads {
			all = append(all, h.Score...)
			all = append(all, h.Value...)
		}
		if f := l.FFN; f != nil {
			all = append(all, f.W1...)
			all = append(all, f.W2...)
			all = append(all, f.B1, f.B2)
		}
		for _, n := range []*transformer.LayerNorm{l.AttentionNorm, l.FFNNorm} {
			if n != nil {
				all = append(all, n.Gamma, n.Beta, transformer.Vec{n.Eps})
			}
		}
	}
	for _, t := range m.Position {
		all = append(all, transformer.Vec{t.Scale})
	}
	for _, v := range all {
		if v != nil && !ok(v) {
			return false
		}
	}
	return true
}

// TestJSONErrorPositions: a model's JSON errors give the line and column
// of the problem and name what the file should hold, never a Go type.
func TestJSONErrorPositions(t *testing.T) {
	for src, want := range map[string]string{
		"{\"format\":\"brasp-transformer/1\",\n\"width\":\"x\"}":                `2:11: model JSON: field width: want an integer, found a string`,
		"{\"format\":\"brasp-transformer/1\",\n\"alphabet\":\"a\"}":             `2:14: model JSON: field alphabet: want an array, found a string`,
		"{\"format\":\"brasp-transformer/1\",\n\n  \"bogus\":1}":                `3:13: model JSON: unknown field "bogus"`,
		"{\"format\":\"brasp-transformer/1\",\n\"layers\":[":                    `2:11: model JSON: unexpected end of the file`,
		"{\"format\":\"brasp-transformer/1\"}\n{}":                              `2:1: model JSON: unexpected data after the model object`,
		"{\"format\":\"brasp-transformer/1\",\n  \"width\": 2 3}":               `2:14: model JSON: invalid character '3'`,
		"{\"format\":\"brasp-transformer/1\",\n\"width\":99999999999999999999}": `2:28: model JSON: field width: want an integer, found the number 99999999999999999999`,
	} {
		_, err := transformer.DecodeJSON([]byte(src))
		if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "Go ") {
			t.Errorf("%q: got %v, want %s…", src, err, want)
		}
	}
}
