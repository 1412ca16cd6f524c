package transformer_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/examples"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
)

// sparseSeed is a one-layer model whose head matrices are written sparsely.
func sparseSeed(t *testing.T) string {
	t.Helper()
	m, err := compile.Compile(nil, mustParse(t, tinyProgram), compile.Options{MultiHead: true})
	if err != nil {
		t.Fatal(err)
	}
	js := string(transformer.EncodeJSONSparse(m))
	if !strings.Contains(js, `"score": {"sparse": [`) {
		t.Fatalf("the sparse encoding writes no sparse head:\n%s", js)
	}
	return js
}

func TestSparseLoadErrors(t *testing.T) {
	good := sparseSeed(t)
	i := strings.Index(good, `"score": {"sparse": [`) + len(`"score": {"sparse": [`)
	j := strings.Index(good[i:], "]") + i + 1
	entry := good[i:j] // the first [row, col, value]
	cases := []struct{ to, want string }{
		{`[99, 0, 1]`, ".score.sparse[0][0]: 99 is not an index in 0.."},
		{`[0, -1, 1]`, ".score.sparse[0][1]: -1 is not an index in 0.."},
		{`[0.5, 0, 1]`, ".score.sparse[0][0]: 0.5 is not an index"},
		{`[0, 0]`, ".score.sparse[0]: has 2 items, want [row, col, value]"},
		{`[0, 0, "1/0"]`, `.score.sparse[0][2]: "1/0" is not a number`},
		{entry + ", " + entry, "is listed twice"},
	}
	for _, c := range cases {
		src := good[:i] + c.to + good[j:]
		_, err := transformer.DecodeJSON([]byte(src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.to, err, c.want)
		}
	}
	for _, c := range []struct{ from, to, want string }{
		{`"score": {"sparse": [`, `"score": {"dense": [`, `unknown field "dense"`},
		{`"score": {"sparse": [`, `"score": {"sparse": null, "x": [`, `unknown field "x"`},
	} {
		src := strings.Replace(good, c.from, c.to, 1)
		_, err := transformer.DecodeJSON([]byte(src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.to, err, c.want)
		}
	}
	end := strings.Index(good[i:], "]}") + i + 2 // the end of the sparse matrix
	for _, c := range []struct{ to, want string }{
		{`"x"`, "not a matrix or a sparse matrix"},
		{`{}`, `sparse matrix without "sparse" entries`},
		{`null`, "missing matrix"},
		{`[[1]]`, "has 1 rows"},
	} {
		src := good[:i-len(`{"sparse": [`)] + c.to + good[end:]
		_, err := transformer.DecodeJSON([]byte(src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.to, err, c.want)
		}
	}
}

// TestStoredParams checks the parameter count of sparse heads: a compiled
// head stores a few entries per residual coordinate it reads or writes, far
// fewer than its d² dense entries.
func TestStoredParams(t *testing.T) {
	for name, p := range examplePrograms(t) {
		m, err := compile.Compile(nil, p, compile.Options{MultiHead: true})
		if err != nil {
			t.Fatal(err)
		}
		dense, stored := m.NumParams(), m.NumStoredParams()
		if stored > dense || (m.NumHeads() > 0 && stored == dense) {
			t.Errorf("%s: %d parameters stored sparsely, %d dense", name, stored, dense)
		}
		t.Logf("%-28s width %3d heads %3d parameters %8d stored %7d", name, m.Width, m.NumHeads(), dense, stored)
	}
}

func TestSparseSafetensorsErrors(t *testing.T) {
	m, err := compile.Compile(nil, examples.MustProgram("dyck1_depth2.brasp"), compile.Options{MultiHead: true})
	if err != nil {
		t.Fatal(err)
	}
	good, err := transformer.EncodeSafetensorsSparse(m)
	if err != nil {
		t.Fatal(err)
	}
	hlen := binary.LittleEndian.Uint64(good)
	var hdr map[string]json.RawMessage
	if err := json.Unmarshal(good[8:8+hlen], &hdr); err != nil {
		t.Fatal(err)
	}
	name := ""
	var info struct {
		Shape   []int `json:"shape"`
		Offsets []int `json:"data_offsets"`
	}
	for n, raw := range hdr {
		if strings.HasSuffix(n, ".indices") {
			if err := json.Unmarshal(raw, &info); err == nil && info.Shape[0] >= 2 {
				name = n
				break
			}
		}
	}
	if name == "" {
		t.Fatalf("no sparse score tensor in the sparse file: %s", good[8:8+hlen])
	}
	at := func(k int) int { return 8 + int(hlen) + info.Offsets[0] + 8*k }
	set := func(k int, f float64) []byte {
		b := bytes.Clone(good)
		binary.LittleEndian.PutUint64(b[at(k):], math.Float64bits(f))
		return b
	}
	dup := bytes.Clone(good)
	copy(dup[at(2):at(4)], good[at(0):at(2)])
	cases := []struct {
		file []byte
		want string
	}{
		{set(0, 99), "is not an index in 0.."},
		{set(1, -1), "is not an index in 0.."},
		{set(0, 0.5), "is not an index in 0.."},
		{dup, "is listed twice"},
		{bytes.Replace(good, []byte(name), []byte(name[:len(name)-1]+"z"), 1), "is missing"},
	}
	for k, c := range cases {
		_, err := transformer.DecodeSafetensors(c.file)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("case %d: got %v, want an error containing %q", k, err, c.want)
		}
	}
}
