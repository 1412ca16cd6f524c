package softmax_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/examples"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
	"github.com/brasp-dev/brasp/transformer/softmax"
)

func compiled(t testing.TB, name string, o compile.Options) *transformer.Model {
	t.Helper()
	m, err := compile.Compile(nil, examples.MustProgram(name), o)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// agrees reports whether the softmax model gives the hard model's verdict
// (or output word) on w.
func agrees(t *testing.T, sm *softmax.Model, w []int) bool {
	t.Helper()
	if sm.Hard.IsTransducer() {
		want, err1 := sm.Hard.Transduce(nil, w)
		got, err2 := sm.Transduce(w)
		if err1 != nil || err2 != nil {
			return (err1 != nil) == (err2 != nil)
		}
		for i := range want {
			if want[i] != got[i] {
				return false
			}
		}
		return true
	}
	want, err := sm.Hard.Accepts(nil, w)
	if err != nil {
		t.Fatal(err)
	}
	got, err := sm.Accepts(w)
	if err != nil {
		t.Fatal(err)
	}
	return want == got
}

// TestCertifiedAgreement: on every word up to the certified length (all
// words for short N, random ones up to N otherwise) the softmax model
// agrees with the hard model, for examples, both constructions, and random
// programs.
func TestCertifiedAgreement(t *testing.T) {
	const N = 16
	type item struct {
		name string
		m    *transformer.Model
	}
	var items []item
	for _, name := range []string{"dyck1_depth2.brasp", "stair3.brasp", "associative_recall.brasp", "induction_heads.brasp", "ab_plus.brasp"} {
		for _, o := range []compile.Options{{}, {MultiHead: true}} {
			items = append(items, item{name + " " + o.String(), compiled(t, name, o)})
		}
	}
	// Table position terms: the reachable embeddings include every position
	// of the tables' prefix.
	tables, err := brasp.Parse("tables.brasp", []byte("Q_a(i)\nQ_b(i)\nPERIODIC_00_10(i)\nPERIODIC_1_011(i)\nPERIODIC_01_0(i)\nbad(i) := (PERIODIC_00_10(i) | PERIODIC_01_0(i)) & !Q_b(i)\nY(i) := rightmost [j<i, bad(j) | PERIODIC_1_011(j)] Q_a(j) : PERIODIC_1_011(i) | PERIODIC_01_0(i)\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []compile.Options{{PositionTables: true}, {MultiHead: true, PositionTables: true}} {
		m, err := compile.Compile(nil, tables, o)
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, item{"tables " + o.String(), m})
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for k := range 12 {
		p := brasptest.RandomProgram(rng, brasptest.Options{Ops: 4, Predicates: k%3 == 0})
		m, err := compile.Compile(nil, p, compile.Options{MultiHead: k%2 == 0})
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, item{"random " + brasp.Format(p), m})
	}
	// A small limit keeps the test fast; the reachable-set over-approximation
	// of deep sequential models outgrows it, and the export says so.
	settings := budget.Settings{}
	if err := settings.Set("softmax-bytes=4M"); err != nil {
		t.Fatal(err)
	}
	certified := 0
	for _, it := range items {
		sm, err := softmax.Export(budget.New(context.Background(), settings), it.m, N)
		var le *budget.Error
		if errors.As(err, &le) {
			t.Logf("%s: %v", it.name, err)
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", it.name, err)
		}
		certified++
		c := sm.Certificate
		if !(c.OutputError < c.OutputMargin) || c.MaxLength != N {
			t.Fatalf("%s: certificate error %g, margin %g", it.name, c.OutputError, c.OutputMargin)
		}
		brasptest.AllWords(len(it.m.Alphabet), 5, func(w []int) {
			if !agrees(t, sm, w) {
				t.Fatalf("%s: softmax (scale %g) disagrees on %q", it.name, sm.Scale, it.m.Alphabet.FormatWord(w))
			}
		})
		for range 30 {
			w := brasptest.RandomWord(rng, len(it.m.Alphabet), 1+rng.IntN(N))
			if !agrees(t, sm, w) {
				t.Fatalf("%s: softmax (scale %g) disagrees on %q", it.name, sm.Scale, it.m.Alphabet.FormatWord(w))
			}
		}
		data, err := softmax.Encode(sm)
		if err != nil {
			t.Fatal(err)
		}
		back, err := softmax.Decode(data)
		if err != nil || back.Scale != sm.Scale || back.MaxLength != N {
			t.Fatalf("%s: round trip: %v", it.name, err)
		}
	}
	if certified < len(items)*2/3 {
		t.Fatalf("only %d of %d models certified within the limit", certified, len(items))
	}
}

// TestFailsPastSmallN: certified for N = 2 only, the Dyck-1 model errs on
// some longer word: the position bias outgrows the score gap.
func TestFailsPastSmallN(t *testing.T) {
	m := compiled(t, "dyck1_depth2.brasp", compile.Options{MultiHead: true})
	sm, err := softmax.Export(nil, m, 2)
	if err != nil {
		t.Fatal(err)
	}
	brasptest.AllWords(2, 2, func(w []int) {
		if !agrees(t, sm, w) {
			t.Fatalf("disagrees on %q within N", m.Alphabet.FormatWord(w))
		}
	})
	rng := rand.New(rand.NewPCG(1, 1))
	for range 2000 {
		w := brasptest.RandomWord(rng, 2, 3+rng.IntN(60))
		if !agrees(t, sm, w) {
			return
		}
	}
	t.Fatal("no disagreement found past N = 2")
}

func TestRefusals(t *testing.T) {
	m := compiled(t, "dyck1_depth2.brasp", compile.Options{LayerNorm: true})
	if _, err := softmax.Export(nil, m, 10); err == nil || !strings.Contains(err.Error(), "layer norm") {
		t.Fatalf("layer norm: %v", err)
	}
	if _, err := softmax.Export(nil, compiled(t, "dyck1_depth2.brasp", compile.Options{}), 0); err == nil {
		t.Fatal("max length 0 accepted")
	}
}

func FuzzDecode(f *testing.F) {
	sm, err := softmax.Export(nil, compiled(f, "ab_plus.brasp", compile.Options{MultiHead: true}), 4)
	if err != nil {
		f.Fatal(err)
	}
	data, err := softmax.Encode(sm)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(`{"format": "brasp-softmax/1"}`))
	f.Add([]byte(strings.Replace(string(data), `"scale": `, `"scale": -`, 1)))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := softmax.Decode(data)
		if err != nil {
			return
		}
		again, err := softmax.Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := softmax.Decode(again); err != nil {
			t.Fatalf("re-encoded model does not decode: %v", err)
		}
		if _, err := m.Accepts([]int{0}); err != nil && m.Hard.Transduction == nil {
			t.Fatal(err)
		}
	})
}
