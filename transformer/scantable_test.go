package transformer_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/examples"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
)

// TestScanTablesAgree checks the tabulated scans of the fast pass on
// compiled models (the example programs and random ones, every variant of
// the compiler), words stored a byte each as brasp run stores them: the
// verdict or output of the model agrees with its program on every word up
// to a length and on random long words, and on the long words the
// activations at every position are those of the pass with the tables
// switched off (every move computed), with tables so small that they give
// up in the middle of a scan, with a move table that drops only the
// table of pairs, and with tables as large as on a word of millions of
// symbols (moves on four positions tabulated for up to 16 ids).
func TestScanTablesAgree(t *testing.T) {
	progs, err := examples.Programs()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(29, 1))
	names := []string{}
	for name := range progs {
		names = append(names, name)
	}
	for k := range 12 {
		p := brasptest.RandomProgram(rng, brasptest.Options{Alphabet: 2 + k%3, Ops: 4 + k%6})
		name := fmt.Sprintf("random%d", k)
		progs[name] = p
		names = append(names, name)
	}
	long := []int{1501, 20003} // not multiples of a scan's stride
	if testing.Short() {
		long = []int{1501}
	}
	for _, name := range names {
		p := progs[name]
		if len(p.Alphabet) > 256 {
			continue
		}
		for _, o := range compile.Variants {
			m, err := compile.Compile(nil, p, o)
			if err != nil {
				t.Fatalf("%s %s: %v", name, o, err)
			}
			r, err := transformer.NewRunner(m)
			if err != nil {
				t.Fatal(err)
			}
			label := name + " " + o.String()
			maxLen := 1
			for total, pow := 0, 1; ; maxLen++ {
				pow *= len(p.Alphabet)
				if total += pow; total > 600 || maxLen > 8 {
					break
				}
			}
			brasptest.AllWords(len(p.Alphabet), maxLen-1, func(w []int) {
				checkScanWord(t, label, p, r, w, false)
			})
			for _, n := range long {
				checkScanWord(t, label, p, r, brasptest.RandomWord(rng, len(p.Alphabet), n), true)
			}
		}
	}
}

// checkScanWord runs r on w (stored a byte each) and compares its verdict
// or output with p's; with tables, also its activations with those of the
// pass without tables and with tiny ones.
func checkScanWord(t *testing.T, label string, p *brasp.Program, r *transformer.Runner, w []int, tables bool) {
	t.Helper()
	bs := make([]byte, len(w))
	for i, s := range w {
		bs[i] = byte(s)
	}
	a, err := r.RunBytes(bs)
	if err != nil {
		t.Fatalf("%s: on a word of length %d: %v", label, len(w), err)
	}
	tr := brasp.NewRunner(p).Run(w)
	m := r.Model()
	if p.IsTransducer() {
		want, errP := tr.Transduce()
		o := m.Outputs(a)
		var got []int
		var errM error
		for i := range w {
			var g int
			if g, errM = o.At(i); errM != nil {
				break
			}
			got = append(got, g)
		}
		if (errP != nil) != (errM != nil) || errP == nil && fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s: on %q the program outputs %v (%v), the model %v (%v)", label, short(p, w), want, errP, got, errM)
		}
	} else if got, err := m.Verdict(a); err != nil || got != tr.Accept() {
		t.Fatalf("%s: on %q the program says %v, the model %v (%v)", label, short(p, w), tr.Accept(), got, err)
	}
	if !tables {
		return
	}
	for _, limits := range [][3]int{{0, 0, 1 << 12}, {40, 3, 1 << 12}, {300, 1 << 12, 1 << 12}, {1 << 18, 1 << 12, 1 << 20}} {
		restore := transformer.SetScanLimits(limits[0], limits[1])
		restoreFloor := transformer.SetScanTableFloor(limits[2])
		b, err := r.RunBytes(bs)
		restore()
		restoreFloor()
		if err != nil {
			t.Fatal(err)
		}
		for i := range w {
			if !a.SameAt(i, b, i) {
				t.Fatalf("%s: on a word of length %d the activations at position %d differ with scan tables of %d entries (floor %d)", label, len(w), i+1, limits[0], limits[2])
			}
		}
	}
}

// short writes w, cut after 40 symbols.
func short(p *brasp.Program, w []int) string {
	if len(w) > 40 {
		return p.Alphabet.FormatWord(w[:40]) + "…"
	}
	return p.Alphabet.FormatWord(w)
}
