package compile_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/exact"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
	"github.com/brasp-dev/brasp/transformer/decompile"
)

// tablePrograms are programs with PERIODIC predicates, in the forms a
// table can take: purely periodic, a prefix then a period, a one-entry
// period, and several tables with different prefixes and periods read both
// at i and (through attention) at j.
var tablePrograms = map[string]string{
	"even":         "Q_a(i)\nQ_b(i)\nPERIODIC_01(i)\n",
	"first_only":   "Q_a(i)\nQ_b(i)\nPERIODIC_1_0(i)\n",
	"table_ends_b": "Q_a(i)\nQ_b(i)\nPERIODIC_0110_1(i)\nY(i) := PERIODIC_0110_1(i) & Q_b(i)\n",
	"two_tables": `Q_a(i)
Q_b(i)
PERIODIC_00_10(i)
PERIODIC_1_011(i)
bad(i) := PERIODIC_00_10(i) & !Q_b(i)
seen(i) := rightmost [j<i, bad(j) | PERIODIC_1_011(j)] Q_a(j) : 0
Y(i) := !seen(i) & (PERIODIC_1_011(i) | Q_a(i))
`,
}

// randomTableProgram is a program over a, b with two random tables and
// MOD, first and last beside them.
func randomTableProgram(rng *rand.Rand) string {
	table := func() string {
		bits := func(n int) string {
			var b strings.Builder
			for range n {
				b.WriteByte("01"[rng.IntN(2)])
			}
			return b.String()
		}
		if rng.IntN(3) == 0 {
			return "PERIODIC_" + bits(1+rng.IntN(5))
		}
		return "PERIODIC_" + bits(1+rng.IntN(5)) + "_" + bits(1+rng.IntN(5))
	}
	t1, t2 := table(), table()
	if t1 == t2 {
		t2 = "MOD_1_3"
	}
	return fmt.Sprintf(`Q_a(i)
Q_b(i)
first(i)
%[1]s(i)
%[2]s(i)
A(i) := rightmost [j<i, %[1]s(j) | first(j)] Q_a(j) : %[2]s(i)
B(i) := leftmost [i<j, %[2]s(j)] Q_b(j) : %[1]s(i)
Y(i) := (A(i) & !%[2]s(i)) | (B(i) & Q_b(i))
`, t1, t2)
}

// TestPositionTables compiles programs with PERIODIC predicates to models
// with table position terms (every construction), checks that the files
// carry tables, that every forward pass (fast float, fast exact, dense,
// batch, trace) agrees with the program on all words up to a length and on
// random long ones, that both file formats give back the model exactly and
// its float passes read from them agree too, and that decompiling the model
// gives back PERIODIC predicates and a program exactly equivalent to the
// source.
func TestPositionTables(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 5))
	srcs := map[string]string{}
	for name, src := range tablePrograms {
		srcs[name] = src
	}
	for k := range 6 {
		srcs[fmt.Sprintf("random%d", k)] = randomTableProgram(rng)
	}
	// In name order: the programs share rng, so a failure replays only if
	// they draw from it in the same order every run.
	for _, name := range slices.Sorted(maps.Keys(srcs)) {
		src := srcs[name]
		p, err := brasp.Parse(name+".brasp", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, src)
		}
		want, err := exact.ProgramDFA(nil, p)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range compile.Variants {
			o.PositionTables = true
			what := name + " " + o.String()
			m, err := compile.Compile(nil, p, o)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			kinds := positionKinds(t, m)
			if !kinds["table"] || kinds["first"] != strings.Contains(src, "first(i)") {
				t.Fatalf("%s: position kinds %v", what, kinds)
			}
			if kinds["sin"] != strings.Contains(src, "MOD_") {
				t.Fatalf("%s: position kinds %v, sinusoids only for MOD", what, kinds)
			}
			fromJSON, err := transformer.DecodeJSON(transformer.EncodeJSON(m))
			if err != nil {
				t.Fatalf("%s: JSON: %v", what, err)
			}
			st, err := transformer.EncodeSafetensors(m)
			if err != nil {
				t.Fatal(err)
			}
			fromST, err := transformer.DecodeSafetensors(st)
			if err != nil {
				t.Fatalf("%s: safetensors: %v", what, err)
			}
			// The files hold the model exactly (every rational), so the
			// exact passes of a model read back are those of m: they run
			// on m, the float passes on all three.
			for file, mm := range map[string]*transformer.Model{"JSON": fromJSON, "safetensors": fromST} {
				if !bytes.Equal(transformer.EncodeJSON(mm), transformer.EncodeJSON(m)) {
					t.Fatalf("%s: the %s round trip changed the model", what, file)
				}
			}
			checkAllPasses(t, what, p, m, 7, 12, rng, true)
			for _, mm := range []*transformer.Model{fromJSON, fromST} {
				checkAllPasses(t, what, p, mm, 7, 12, rng, false)
			}
			q, err := decompile.Decompile(nil, m, decompile.Options{})
			if err != nil {
				t.Fatalf("%s: decompile: %v", what, err)
			}
			if !brasp.HasPeriodic(q) {
				t.Fatalf("%s: the decompiled program has no PERIODIC predicate:\n%s", what, brasp.Format(q))
			}
			got, err := exact.ProgramDFA(nil, q)
			if err != nil {
				t.Fatal(err)
			}
			if eq, w, _, _ := exact.Equivalent(got, want); !eq {
				t.Fatalf("%s: the decompiled program differs from the source on %q", what, p.Alphabet.FormatWord(w))
			}
		}
	}
}

// positionKinds returns the kinds of the model file's position terms.
func positionKinds(t *testing.T, m *transformer.Model) map[string]bool {
	t.Helper()
	var file struct {
		Position []struct {
			Kind string `json:"kind"`
		} `json:"position"`
	}
	if err := json.Unmarshal(transformer.EncodeJSON(m), &file); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, term := range file.Position {
		kinds[term.Kind] = true
	}
	return kinds
}

// checkAllPasses runs the forward passes of m on all words up to maxLen and
// random ones up to length 300 and compares each with the program: the
// float passes (fast and batch), and with exactPasses also the exact ones (fast,
// and dense and trace on the short words and every fourth random one).
func checkAllPasses(t *testing.T, what string, p *brasp.Program, m *transformer.Model, maxLen, random int, rng *rand.Rand, exactPasses bool) {
	t.Helper()
	r, err := transformer.NewRunner(m)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	batch := r.NewBatch(transformer.FastOptions{})
	// The exact fast pass on a runner of its own (Model.Forward's, built
	// once rather than per word), sharing nothing with the float passes.
	re, err := transformer.NewRunner(m)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	rp := brasp.NewRunner(p) // Program.Accepts's runner, built once
	check := func(w []int, slow bool) {
		want := rp.Run(w).Accept()
		fail := func(pass string, got bool, err error) {
			if err != nil || got != want {
				t.Fatalf("%s: on %q the program says %v, the %s pass %v (%v)", what, p.Alphabet.FormatWord(w), want, pass, got, err)
			}
		}
		got, err := r.Accepts(w)
		fail("fast", got, err)
		got, err = batch.Accept(w)
		fail("batch", got, err)
		if !exactPasses {
			return
		}
		a, err := re.Forward(w, transformer.FastOptions{})
		fail("exact fast", err == nil && m.OutputScore(a).Sign() >= 0, err)
		if slow {
			got, err = r.AcceptsDense(w)
			fail("dense", got, err)
			tr, err := m.Trace(nil, w)
			if err != nil {
				t.Fatalf("%s: trace on %q: %v", what, p.Alphabet.FormatWord(w), err)
			}
			if len(tr.Layers) > 0 {
				for i := range w {
					if !equalVec(tr.Layers[len(tr.Layers)-1].Post[i], a.At(i)) {
						t.Fatalf("%s: on %q the trace and the exact pass differ at position %d", what, p.Alphabet.FormatWord(w), i+1)
					}
				}
			}
		}
	}
	brasptest.AllWords(len(p.Alphabet), maxLen, func(w []int) { check(w, len(w) <= 5) })
	for k := range random {
		check(brasptest.RandomWord(rng, len(p.Alphabet), 1+rng.IntN(300)), k%4 == 0)
	}
}

func equalVec(x, y transformer.Vec) bool {
	if len(x) != len(y) {
		return false
	}
	for k := range x {
		if x[k].Cmp(y[k]) != 0 {
			return false
		}
	}
	return true
}
