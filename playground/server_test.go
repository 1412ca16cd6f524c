package playground

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/regex"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/examples"
	"github.com/brasp-dev/brasp/ltl"
	"github.com/brasp-dev/brasp/ltl/nonstrict"
	"github.com/brasp-dev/brasp/position"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
)

// doReq sends a request to h, addressed to localhost, and returns the status and body.
func doReq(t *testing.T, h http.Handler, method, path string, body any) (int, []byte) {
	t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(b)
	case []byte:
		r = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(data)
	}
	req := httptest.NewRequest(method, path, r)
	req.Host = "localhost:8080" // as a browser on `brasp serve` sends it
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.Bytes()
}

// call posts body and decodes a 200 answer into out.
func call(t *testing.T, h http.Handler, path string, body, out any) {
	t.Helper()
	code, data := doReq(t, h, "POST", path, body)
	if code != http.StatusOK {
		t.Fatalf("POST %s: status %d: %s", path, code, data)
	}
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatalf("POST %s: %v in %s", path, err, data)
	}
}

// callErr posts body, expects status want and returns the error answer.
func callErr(t *testing.T, h http.Handler, path string, body any, want int) apiError {
	t.Helper()
	code, data := doReq(t, h, "POST", path, body)
	var e apiError
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatalf("POST %s: error answer is not JSON (%v): %q", path, err, data)
	}
	if code != want {
		t.Fatalf("POST %s: status %d, want %d: %s", path, code, want, data)
	}
	if e.Message == "" {
		t.Fatalf("POST %s: error answer without a message: %s", path, data)
	}
	return e
}

func exampleSource(t *testing.T, name string) string {
	t.Helper()
	src, err := examples.Source(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// The paper's Figure 2 (left table), row by row.
var figure2 = map[string]string{
	"Q_l": "1100110100", "Q_r": "0011001011", "P_l": "0110011010", "S_r": "0110010110",
	"I": "0110011110", "B_l": "0111011111", "A_r": "1110111110", "C": "1111111111", "Y": "1111111111",
}

func TestRunFigure2(t *testing.T) {
	s := New(Config{})
	var res RunResponse
	call(t, s, "/api/run", RunRequest{Program: exampleSource(t, examples.Dyck), Word: "llrrllrlrr"}, &res)
	if res.Accept == nil || !*res.Accept || res.OutputVector != "Y" || res.Transducer {
		t.Fatalf("verdict: accept %v, output vector %q", res.Accept, res.OutputVector)
	}
	if strings.Join(res.Word, "") != "llrrllrlrr" || len(res.Alphabet) != 2 {
		t.Fatalf("word %v alphabet %v", res.Word, res.Alphabet)
	}
	if len(res.Vectors) != len(figure2) {
		t.Fatalf("%d vectors, want %d", len(res.Vectors), len(figure2))
	}
	for _, v := range res.Vectors {
		if v.Values != figure2[v.Name] {
			t.Errorf("%s = %s, want %s (Figure 2)", v.Name, v.Values, figure2[v.Name])
		}
		if (v.Kind == "attention") != (v.Attention != nil) {
			t.Errorf("%s: kind %s, attention %v", v.Name, v.Kind, v.Attention)
		}
	}
	// P_l(i) := rightmost [j<i, 1] Q_l(j): the previous position; none at 1.
	pl := res.Vectors[2]
	if want := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}; !equalInts(pl.Attention.Attended, want) {
		t.Errorf("P_l attended %v, want %v", pl.Attention.Attended, want)
	}
	if res.AttentionDepth != 3 {
		t.Errorf("attention depth %d, want 3", res.AttentionDepth)
	}
	var rej RunResponse
	call(t, s, "/api/run", RunRequest{Program: exampleSource(t, examples.Dyck), Word: "lrrlllrrrl"}, &rej)
	if rej.Accept == nil || *rej.Accept {
		t.Errorf("lrrlllrrrl accepted")
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// TestAttended checks the attended positions against the definition on
// random programs with every mask and tie-break: j is allowed by the mask,
// has score 1, no position preferred by the tie-break has score 1, and the
// vector's value is Value(i, j) (or Default(i) when there is no j).
func TestAttended(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for range 300 {
		p := brasptest.RandomProgram(rng, brasptest.Options{Alphabet: 2, Ops: 6})
		w := brasptest.RandomWord(rng, 2, 1+rng.IntN(12))
		tr := p.RunReference(w)
		for k, v := range p.Vectors {
			if v.Kind != brasp.AttentionVector {
				continue
			}
			for i := range w {
				at := func(j int) func(int, brasp.Var) bool {
					return func(vec int, x brasp.Var) bool {
						if x == brasp.VarJ {
							return tr.Value(vec, j)
						}
						return tr.Value(vec, i)
					}
				}
				want := -1
				for j := range w {
					if v.Att.Mask.Allows(i, j) && brasp.Eval(v.Att.Score, at(j)) {
						if want < 0 || v.Att.Tiebreak == position.Rightmost {
							want = j
						}
					}
				}
				if got := Attended(tr, k, i); got != want {
					t.Fatalf("%s\n%s at i=%d: attended %d, want %d", brasp.Format(p), v.Name, i, got, want)
				}
				val := brasp.Eval(v.Att.Default, at(i))
				if want >= 0 {
					val = brasp.Eval(v.Att.Value, at(want))
				}
				if val != tr.Value(k, i) {
					t.Fatalf("%s at i=%d: value %v disagrees with the trace", v.Name, i, val)
				}
			}
		}
	}
}

func TestExamples(t *testing.T) {
	s := New(Config{})
	code, data := doReq(t, s, "GET", "/api/examples", nil)
	if code != 200 {
		t.Fatalf("status %d", code)
	}
	var exs []Example
	if err := json.Unmarshal(data, &exs); err != nil {
		t.Fatal(err)
	}
	if len(exs) != len(examples.Names()) {
		t.Fatalf("%d examples, want %d", len(exs), len(examples.Names()))
	}
	for _, ex := range exs {
		if ex.Title == "" || ex.Source == "" || ex.Word == "" {
			t.Errorf("%s: empty title, source or word", ex.Name)
		}
		p, err := brasp.Parse(ex.Name, []byte(ex.Source))
		if err != nil {
			t.Fatal(err)
		}
		w, err := p.Alphabet.ParseWord(ex.Word)
		if err != nil {
			t.Fatalf("%s: word %q: %v", ex.Name, ex.Word, err)
		}
		var res RunResponse
		call(t, s, "/api/run", RunRequest{Program: ex.Source, Word: ex.Word}, &res)
		tr := p.Run(w)
		if p.IsTransducer() {
			out, err := tr.Transduce()
			if err != nil || len(res.Output) != len(out) {
				t.Fatalf("%s: output %v, want %v (%v)", ex.Name, res.Output, out, err)
			}
			for i, k := range out {
				if res.Output[i] != p.Output.Symbols[k] {
					t.Errorf("%s: output %v at %d", ex.Name, res.Output, i)
				}
			}
		} else if res.Accept == nil || *res.Accept != tr.Accept() {
			t.Errorf("%s on %q: accept %v, want %v", ex.Name, ex.Word, res.Accept, tr.Accept())
		}
	}
	code, data = doReq(t, s, "GET", "/api/features", nil)
	var f Features
	if code != 200 || json.Unmarshal(data, &f) != nil || f.Runtime != "server" {
		t.Fatalf("features: %d %s", code, data)
	}
}

func TestBadInput(t *testing.T) {
	s := New(Config{MaxBody: 64 << 10, MaxWord: 50})
	dyck := exampleSource(t, examples.Dyck)

	// Invalid syntax: every error with its line and column.
	e := callErr(t, s, "/api/run", RunRequest{Program: "Q_a(i)\nP(i) := Q_b(i)\nR(i) := leftmost [j<i, 1] Q_a(j) :\n", Word: "a"}, 422)
	if e.Field != "program" || len(e.Errors) < 2 {
		t.Fatalf("errors %+v", e)
	}
	if e.Errors[0].Line != 2 || e.Errors[0].Col != 9 || !strings.Contains(e.Errors[0].Msg, "Q_b") {
		t.Errorf("first error %+v, want 2:9 naming Q_b", e.Errors[0])
	}
	if e.Errors[1].Line != 3 {
		t.Errorf("second error %+v, want line 3", e.Errors[1])
	}
	if !strings.HasPrefix(e.Message, "program: 2:9: ") {
		t.Errorf("message %q", e.Message)
	}
	for _, prog := range []string{"", "   \n", "Q_a(i)\nQ_a(i)\n", "P(i) := 1\n", "Q_a(i)\nP(i) := ((((\n"} {
		e := callErr(t, s, "/api/run", RunRequest{Program: prog, Word: "a"}, 422)
		if e.Field != "program" {
			t.Errorf("%q: field %q", prog, e.Field)
		}
	}

	// Words outside the alphabet or too long.
	e = callErr(t, s, "/api/run", RunRequest{Program: dyck, Word: "llx"}, 422)
	if e.Field != "word" || !strings.Contains(e.Message, "x") {
		t.Errorf("bad symbol: %+v", e)
	}
	e = callErr(t, s, "/api/run", RunRequest{Program: dyck, Word: strings.Repeat("lr", 26)}, 422)
	if e.Field != "word" || !strings.Contains(e.Message, "limit of 50") {
		t.Errorf("long word: %+v", e)
	}

	// A table too large to show.
	small := New(Config{MaxCells: 100})
	e = callErr(t, small, "/api/run", RunRequest{Program: dyck, Word: strings.Repeat("lr", 6)}, 422)
	if e.Field != "word" || !strings.Contains(e.Message, "9 vectors × 12 positions = 108 cells") {
		t.Errorf("too many cells: %+v", e)
	}

	// A huge program: 413 naming the limit.
	huge := RunRequest{Program: strings.Repeat("# a comment line that makes the program large\n", 4000) + dyck, Word: "lr"}
	for _, path := range []string{"/api/run", "/api/compile", "/api/ltl", "/api/dfa", "/api/model"} {
		e = callErr(t, s, path, huge, 413)
		if !strings.Contains(e.Message, "65536 bytes") || !strings.Contains(e.Message, "too large") {
			t.Errorf("%s: 413 message %q", path, e.Message)
		}
	}

	// Malformed JSON: 400 with the reason.
	for body, want := range map[string]string{
		`{`:                              "unexpected end",
		``:                               "empty body",
		`{"program": 1}`:                 `field "program" must be a string`,
		`{"program": "Q_a(i)", "x": 1}`:  `unknown field "x"`,
		`{"program": "Q_a(i)"} {}`:       "data after",
		`[1, 2]`:                         "",
		`{"program": "Q_a(i)", "word":}`: "invalid character",
	} {
		for _, path := range []string{"/api/run", "/api/compile", "/api/ltl", "/api/dfa", "/api/model"} {
			e := callErr(t, s, path, body, 400)
			if !strings.HasPrefix(e.Message, "malformed JSON request: ") || !strings.Contains(e.Message, want) {
				t.Errorf("%s %q: message %q, want it to mention %q", path, body, e.Message, want)
			}
		}
	}

	// Unknown endpoints and methods.
	if code, data := doReq(t, s, "POST", "/api/nope", "{}"); code != 404 || !strings.Contains(string(data), "no API endpoint") {
		t.Errorf("unknown endpoint: %d %s", code, data)
	}
	// A missing page: 404 with a JSON error.
	if code, data := doReq(t, s, "GET", "/nope.html", nil); code != 404 || !strings.Contains(string(data), `"error":"no page /nope.html`) {
		t.Errorf("GET /nope.html: %d %s", code, data)
	}
	// Method not allowed: 405 with a JSON error, on the API and the page.
	for _, c := range []struct{ method, path string }{{"GET", "/api/run"}, {"POST", "/api/features"}, {"PUT", "/api/compile"}, {"DELETE", "/"}, {"POST", "/app.js"}} {
		code, data := doReq(t, s, c.method, c.path, "{}")
		var e apiError
		if code != 405 || json.Unmarshal(data, &e) != nil || !strings.Contains(e.Message, "not allowed") {
			t.Errorf("%s %s: %d %s, want 405 with a JSON error", c.method, c.path, code, data)
		}
	}

	// The server still works.
	var res RunResponse
	call(t, s, "/api/run", RunRequest{Program: dyck, Word: "lr"}, &res)
	if res.Accept == nil || !*res.Accept {
		t.Errorf("lr rejected after the bad requests")
	}
}

func TestTimeLimit(t *testing.T) {
	s := New(Config{Timeout: 30 * time.Millisecond, delay: 300 * time.Millisecond})
	start := time.Now()
	e := callErr(t, s, "/api/run", RunRequest{Program: exampleSource(t, examples.Dyck), Word: "lr"}, 503)
	if !strings.Contains(e.Message, "time limit exceeded") || !strings.Contains(e.Message, "30ms") {
		t.Errorf("message %q", e.Message)
	}
	if d := time.Since(start); d > 250*time.Millisecond {
		t.Errorf("the time limit answered after %v", d)
	}
}

func TestCompile(t *testing.T) {
	t.Parallel()
	s := New(Config{})
	for _, name := range examples.Names() {
		src := exampleSource(t, name)
		p, _ := brasp.Parse(name, []byte(src))
		word := ""
		for _, ex := range Examples() {
			if ex.Name == name {
				word = ex.Word
			}
		}
		if p.IsTransducer() {
			e := callErr(t, s, "/api/compile", CompileRequest{Program: src, Word: word}, 422)
			if !strings.Contains(e.Message, "transducer") {
				t.Errorf("%s: %q", name, e.Message)
			}
			continue
		}
		for _, mh := range []bool{false, true} {
			for _, ln := range []bool{false, true} {
				var res CompileResponse
				call(t, s, "/api/compile", CompileRequest{Program: src, Word: word, MultiHead: mh, LayerNorm: ln}, &res)
				m, err := compile.Compile(nil, p, compile.Options{MultiHead: mh, LayerNorm: ln})
				if err != nil {
					t.Fatal(err)
				}
				if res.Layers != len(m.Layers) || res.Heads != m.NumHeads() || res.Width != m.Width || res.Params != m.NumParams() {
					t.Errorf("%s mh=%v ln=%v: %d layers %d heads width %d", name, mh, ln, res.Layers, res.Heads, res.Width)
				}
				if mh && res.AttentionLayers != p.AttentionDepth() {
					t.Errorf("%s: multi-head attention layers %d, attention depth %d", name, res.AttentionLayers, p.AttentionDepth())
				}
				if res.Agree == nil || !*res.Agree || *res.ProgramAccept != *res.ModelAccept {
					t.Errorf("%s mh=%v ln=%v on %q: program %v, model %v", name, mh, ln, word, res.ProgramAccept, res.ModelAccept)
				}
				if res.Note != "" {
					t.Errorf("%s: note %q", name, res.Note)
				}
				checkPattern(t, name, p, word, &res)
			}
		}
	}
}

// checkPattern checks that each head of a compiled model attends where its
// B-RASP operation does whenever the operation found a position with score 1
// (the head is named by the coordinates it writes, e.g. P_l.default_flag).
func checkPattern(t *testing.T, name string, p *brasp.Program, word string, res *CompileResponse) {
	t.Helper()
	w, _ := p.Alphabet.ParseWord(word)
	tr := p.Run(w)
	heads := 0
	for _, l := range res.LayerInfo {
		for _, h := range l.Heads {
			heads++
			if len(h.Attended) != len(w) {
				t.Fatalf("%s: head pattern of length %d", name, len(h.Attended))
			}
			if len(h.Writes) == 0 {
				continue
			}
			op, _, _ := strings.Cut(h.Writes[0], ".")
			k := p.Lookup(op)
			if k < 0 || p.Vectors[k].Kind != brasp.AttentionVector {
				continue
			}
			for i := range w {
				if j := Attended(tr, k, i); j >= 0 && h.Attended[i] != j+1 {
					t.Errorf("%s: head of %s at i=%d attends %d, the operation %d", name, op, i+1, h.Attended[i], j+1)
				}
			}
		}
	}
	if heads != res.Heads {
		t.Errorf("%s: %d heads listed, %d counted", name, heads, res.Heads)
	}
}

func TestModelDownload(t *testing.T) {
	s := New(Config{})
	src := exampleSource(t, examples.Dyck)
	for _, format := range []string{"json", "safetensors", ""} {
		code, data := doReq(t, s, "POST", "/api/model", CompileRequest{Program: src, MultiHead: true, Format: format})
		if code != 200 {
			t.Fatalf("%s: %d %s", format, code, data)
		}
		var m *transformer.Model
		var err error
		if format == "safetensors" {
			m, err = transformer.DecodeSafetensors(data)
		} else {
			m, err = transformer.DecodeJSON(data)
		}
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		w, _ := m.Alphabet.ParseWord("llrrllrlrr")
		if ok, err := m.Accepts(nil, w); !ok || err != nil {
			t.Errorf("%s: the downloaded model rejects llrrllrlrr (%v)", format, err)
		}
	}
	e := callErr(t, s, "/api/model", CompileRequest{Program: src, Format: "onnx"}, 422)
	if !strings.Contains(e.Message, "onnx") {
		t.Errorf("%q", e.Message)
	}
	callErr(t, s, "/api/model", CompileRequest{Program: "Q_a(i)\nP(i) := Q_b(i)\n"}, 422)
}

func TestLTL(t *testing.T) {
	s := New(Config{})
	for _, name := range []string{examples.Dyck, "ab_plus.brasp", "stair3.brasp"} {
		src := exampleSource(t, name)
		p, _ := brasp.Parse(name, []byte(src))
		var res LTLResponse
		call(t, s, "/api/ltl", LTLRequest{Program: src}, &res)
		f, err := ltl.ParseFile("out.ltl", []byte(res.LTL))
		if err != nil {
			t.Fatalf("%s: the formula does not parse back: %v\n%s", name, err, res.LTL)
		}
		brasptest.AllWords(len(p.Alphabet), 6, func(w []int) {
			if len(w) > 0 && ltl.Accepts(f, w) != p.Accepts(w) {
				t.Fatalf("%s: formula and program disagree on %v", name, w)
			}
		})
		if res.Depth != f.Depth() || res.DAGSize == 0 {
			t.Errorf("%s: depth %d dag %d", name, res.Depth, res.DAGSize)
		}
		// And back: formula → program.
		var back LTLResponse
		call(t, s, "/api/ltl", LTLRequest{LTL: res.LTL}, &back)
		q, err := brasp.Parse("back", []byte(back.Program))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		brasptest.AllWords(len(p.Alphabet), 6, func(w []int) {
			if len(w) > 0 && q.Accepts(w) != p.Accepts(w) {
				t.Fatalf("%s: LTL → program disagrees on %v", name, w)
			}
		})
		if back.AttentionDepth != back.Depth {
			t.Errorf("%s: program depth %d, formula depth %d", name, back.AttentionDepth, back.Depth)
		}
	}
	e := callErr(t, s, "/api/ltl", LTLRequest{LTL: "alphabet a b\na & ) b\n"}, 422)
	if e.Field != "ltl" || len(e.Errors) == 0 || e.Errors[0].Line != 2 {
		t.Errorf("bad formula: %+v", e)
	}
	callErr(t, s, "/api/ltl", LTLRequest{}, 422)
	callErr(t, s, "/api/ltl", LTLRequest{Program: "Q_a(i)", LTL: "alphabet a\na"}, 422)
	e = callErr(t, s, "/api/ltl", LTLRequest{Program: exampleSource(t, "associative_recall.brasp")}, 422)
	if !strings.Contains(e.Message, "transducer") {
		t.Errorf("%q", e.Message)
	}
}

func TestDFA(t *testing.T) {
	s := New(Config{})
	for _, name := range examples.Names() {
		src := exampleSource(t, name)
		p, _ := brasp.Parse(name, []byte(src))
		if p.IsTransducer() {
			e := callErr(t, s, "/api/dfa", DFARequest{Program: src}, 422)
			if !strings.Contains(e.Message, "transducer") {
				t.Errorf("%s: %q", name, e.Message)
			}
			continue
		}
		var res DFAResponse
		call(t, s, "/api/dfa", DFARequest{Program: src}, &res)
		// Every B-RASP program defines a star-free language (Thm 3.3).
		if !res.StarFree || !res.AC0 || !strings.HasPrefix(res.SVG, "<svg") || !strings.Contains(res.Classification, "star-free: yes") || len(res.Variants) == 0 {
			t.Errorf("%s: %d states, star-free %v, ac0 %v", name, res.States, res.StarFree, res.AC0)
		}
		checkSVG(t, res.SVG)
		d, err := automata.Parse("min.dfa", []byte(res.DFA))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if d.NumStates() != res.States {
			t.Errorf("%s: %d states in the text, %d reported", name, d.NumStates(), res.States)
		}
		brasptest.AllWords(len(p.Alphabet), 6, func(w []int) {
			if len(w) > 0 && d.Accepts(w) != p.Accepts(w) {
				t.Fatalf("%s: the DFA and the program disagree on %v", name, w)
			}
		})
	}
	var ab DFAResponse
	call(t, s, "/api/dfa", DFARequest{Program: exampleSource(t, "ab_plus.brasp")}, &ab)
	if ab.StutterInvariant || !strings.Contains(ab.Classification, "stutter-invariant: no") {
		t.Errorf("(ab)+ is not stutter-invariant: %s", ab.Classification)
	}
	e := callErr(t, s, "/api/dfa", DFARequest{Program: "Q_a(i)\nMid(i)\nY(i) := Mid(i) & Q_a(i)\n"}, 422)
	if !strings.Contains(e.Message, "Mid") {
		t.Errorf("Mid: %q", e.Message)
	}
	callErr(t, s, "/api/dfa", DFARequest{Program: "Q_a(i)\nY(i) := Q_b(i)\n"}, 422)
}

func checkSVG(t *testing.T, svg string) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(svg))
	for {
		_, err := dec.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v\n%s", err, svg)
		}
	}
}

func TestDrawDFA(t *testing.T) {
	d, err := automata.Parse("t.dfa", []byte(`alphabet a b "<&>"
start q0
accept q2
q0 a q1
q0 b q0
q1 a q1
q1 b q2
q2 a q1
q2 b q0
q0 "<&>" q0
q2 "<&>" q2
`))
	if err != nil {
		t.Fatal(err)
	}
	svg, note := DrawDFA(d)
	checkSVG(t, svg)
	for _, want := range []string{">q0<", ">q1<", ">q2<", "a", "&lt;&amp;&gt;", `class="state accept"`, `class="start"`} {
		if !strings.Contains(svg, want) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
	if note == "" || !strings.Contains(note, "sink") {
		t.Errorf("note %q: the implicit sink should be left out", note)
	}
	if strings.Count(svg, `class="state`) != 3 {
		t.Errorf("want 3 states drawn (sink left out)")
	}
}

func TestStaticPage(t *testing.T) {
	s := New(Config{})
	for path, want := range map[string]string{"/": "brasp playground", "/app.js": "/api/run", "/style.css": "#grid"} {
		code, data := doReq(t, s, "GET", path, nil)
		if code != 200 || !strings.Contains(string(data), want) {
			t.Errorf("GET %s: %d", path, code)
		}
		if strings.Contains(string(data), "http://") || strings.Contains(string(data), "https://") {
			t.Errorf("GET %s: the page refers to another site", path)
		}
	}
}

func TestDisplayLimits(t *testing.T) {
	s := New(Config{MaxAttendWord: 4, MaxPatternWord: 4})
	dyck := exampleSource(t, examples.Dyck)
	var res RunResponse
	call(t, s, "/api/run", RunRequest{Program: dyck, Word: "llrrlr"}, &res)
	if res.Note == "" || res.Accept == nil || !*res.Accept {
		t.Errorf("note %q, accept %v", res.Note, res.Accept)
	}
	for _, v := range res.Vectors {
		if v.Attention != nil && v.Attention.Attended != nil {
			t.Errorf("%s: attended positions past the limit", v.Name)
		}
	}
	var c CompileResponse
	call(t, s, "/api/compile", CompileRequest{Program: dyck, Word: "llrrlr"}, &c)
	if !strings.Contains(c.Note, "up to 4 symbols") || c.Agree == nil || !*c.Agree {
		t.Errorf("compile note %q, agree %v", c.Note, c.Agree)
	}
	for _, l := range c.LayerInfo {
		for _, h := range l.Heads {
			if h.Attended != nil {
				t.Errorf("attention pattern past the limit")
			}
		}
	}
	// The empty word: a table without columns, no verdict.
	var empty RunResponse
	call(t, s, "/api/run", RunRequest{Program: dyck, Word: ""}, &empty)
	if empty.Accept != nil || empty.Note == "" || len(empty.Vectors) != 9 {
		t.Errorf("empty word: accept %v note %q", empty.Accept, empty.Note)
	}
	var ce CompileResponse
	call(t, s, "/api/compile", CompileRequest{Program: dyck}, &ce)
	if ce.Agree != nil || ce.Layers == 0 {
		t.Errorf("empty word compile: %+v", ce)
	}
}

func TestDecompile(t *testing.T) {
	s := New(Config{})
	for _, name := range []string{examples.Dyck, "ab_plus.brasp", "stair2.brasp"} {
		src := exampleSource(t, name)
		p, _ := brasp.Parse(name, []byte(src))
		for _, mh := range []bool{false, true} {
			var res DecompileResponse
			call(t, s, "/api/decompile", DecompileRequest{Program: src, MultiHead: mh}, &res)
			q, err := brasp.Parse("d", []byte(res.Program))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			brasptest.AllWords(len(p.Alphabet), 6, func(w []int) {
				if len(w) > 0 && q.Accepts(w) != p.Accepts(w) {
					t.Fatalf("%s: the decompiled program disagrees on %v", name, w)
				}
			})
			if res.AttentionDepth > res.ModelLayers {
				t.Errorf("%s mh=%v: decompiled depth %d, model layers %d", name, mh, res.AttentionDepth, res.ModelLayers)
			}
			if res.Equivalent == nil || !*res.Equivalent {
				t.Errorf("%s: equivalent %v %q %s", name, res.Equivalent, res.Counterexample, res.EquivError)
			}
		}
	}
	e := callErr(t, s, "/api/decompile", DecompileRequest{Program: exampleSource(t, "induction_heads.brasp")}, 422)
	if !strings.Contains(e.Message, "transducer") {
		t.Errorf("%q", e.Message)
	}
}

func TestAutomaton(t *testing.T) {
	s := New(Config{})
	read := func(path string) string {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	// L_{1,2} as an expression: star-free, so Krohn–Rhodes gives a program
	// that accepts exactly its non-empty words.
	var res AutomatonResponse
	call(t, s, "/api/automaton", AutomatonRequest{Kind: "re", Source: read("../automata/regex/testdata/dyck12.re")}, &res)
	if !res.StarFree || res.Program == "" || res.Cascade == "" || res.ProgramError != "" {
		t.Fatalf("dyck12.re: %+v", res)
	}
	p, err := brasp.Parse("kr", []byte(res.Program))
	if err != nil {
		t.Fatal(err)
	}
	d, err := automata.Parse("min", []byte(res.DFA))
	if err != nil {
		t.Fatal(err)
	}
	brasptest.AllWords(2, 8, func(w []int) {
		if len(w) > 0 && p.Accepts(w) != d.Accepts(w) {
			t.Fatalf("the Krohn–Rhodes program and the DFA disagree on %v", w)
		}
	})
	checkSVG(t, res.SVG)
	// (aa)*: not star-free (with the witness), but in AC0: a program with
	// MOD predicates (Cor. 5.4).
	var aa AutomatonResponse
	call(t, s, "/api/automaton", AutomatonRequest{Kind: "re", Source: read("../automata/regex/testdata/aa_star.re")}, &aa)
	if aa.StarFree || !aa.AC0 || !strings.Contains(aa.Program, "MOD_0_2") || aa.ProgramError != "" || !strings.Contains(aa.Classification, "witness") {
		t.Errorf("(aa)*: %+v", aa)
	}
	var parity AutomatonResponse
	call(t, s, "/api/automaton", AutomatonRequest{Kind: "re", Source: read("../automata/regex/testdata/parity.re")}, &parity)
	if parity.AC0 || parity.Program != "" || !strings.Contains(parity.ProgramError, "not in AC0") {
		t.Errorf("PARITY: %+v", parity)
	}
	// The paper's A_3 as a .dfa.
	var a3 AutomatonResponse
	call(t, s, "/api/automaton", AutomatonRequest{Kind: "dfa", Source: read("../automata/testdata/a3.dfa")}, &a3)
	if !a3.StarFree || a3.Program == "" {
		t.Errorf("A_3: %+v", a3.Classification)
	}
	// Bad input.
	e := callErr(t, s, "/api/automaton", AutomatonRequest{Kind: "re", Source: "alphabet a b\n(aa*\n"}, 422)
	if e.Field != "source" || len(e.Errors) == 0 || e.Errors[0].Line != 2 {
		t.Errorf("bad expression: %+v", e)
	}
	callErr(t, s, "/api/automaton", AutomatonRequest{Kind: "png", Source: "x"}, 422)
	callErr(t, s, "/api/automaton", AutomatonRequest{Kind: "dfa", Source: ""}, 422)
	callErr(t, s, "/api/automaton", AutomatonRequest{Kind: "dfa", Source: "alphabet a\nstart q0\nq0 b q1\n"}, 422)
}

func TestParseLocated(t *testing.T) {
	for in, want := range map[string]SourceError{
		"input.re:2:5: expected ) to close the ( at input.re:2:1": {2, 5, "expected ) to close the ( at input.re:2:1"},
		"no position here":             {0, 0, "no position here"},
		"file: not:a: position":        {0, 0, "file: not:a: position"},
		"x.dfa:12:1: unknown state q9": {12, 1, "unknown state q9"},
	} {
		if got := parseLocated(in); got != want {
			t.Errorf("parseLocated(%q) = %+v, want %+v", in, got, want)
		}
	}
}

// TestNonStrict: the programs of Thm 5.2 for a stutter-invariant star-free
// language, with only the masks asked for and the language of the input;
// refusal with classify's witness otherwise.
func TestNonStrict(t *testing.T) {
	s := New(Config{})
	src := "alphabet a b\n(a+b+)+\n"
	r, err := regex.Parse("in.re", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	d, err := r.DFA(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, masks := range []string{"non-strict", "causal"} {
		var res NonStrictResponse
		call(t, s, "/api/nonstrict", NonStrictRequest{Kind: "re", Source: src, Masks: masks}, &res)
		p, err := brasp.Parse("out", []byte(res.Program))
		if err != nil {
			t.Fatal(err)
		}
		m, _ := nonstrict.ParseMasks(masks)
		if err := nonstrict.CheckProgram(p, m); err != nil {
			t.Errorf("%s: %v", masks, err)
		}
		if res.AttentionOps == 0 || res.AttentionDepth != p.AttentionDepth() {
			t.Errorf("%s: %+v", masks, res)
		}
		brasptest.AllWords(2, 8, func(w []int) {
			if len(w) > 0 && p.Accepts(w) != d.Accepts(w) {
				t.Fatalf("%s: the program and the expression disagree on %v", masks, w)
			}
		})
	}
	e := callErr(t, s, "/api/nonstrict", NonStrictRequest{Kind: "re", Source: "alphabet a b\n(ab)+\n", Masks: "causal"}, 422)
	if !strings.Contains(e.Message, `not stutter-invariant: u = ε, a = "a", v = "b": "ab" is accepted, "aab" is rejected`) {
		t.Errorf("refusal: %+v", e)
	}
	callErr(t, s, "/api/nonstrict", NonStrictRequest{Kind: "re", Source: src, Masks: "strict"}, 422)
	callErr(t, s, "/api/nonstrict", NonStrictRequest{Kind: "png", Source: src, Masks: "causal"}, 422)
}
