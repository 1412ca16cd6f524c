package brasp_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/internal/cputime"
)

const untilProgram = `# a U b, read at the first position
propositions a b "x.y"
Later(i) := leftmost [i<j, !P_a(j) | P_b(j)] P_b(j) : 0
Until(i) := P_b(i) | (P_a(i) & Later(i))
Holds(i) := leftmost [1, 1] Until(j) : P_"x.y"(i)
`

func steps(t *testing.T, props []string, s string) [][]uint64 {
	t.Helper()
	var out [][]uint64
	for _, step := range strings.Split(s, ";") {
		bits := make([]uint64, 1)
		for _, name := range strings.Split(step, ",") {
			if name == "" {
				continue
			}
			k := -1
			for i, p := range props {
				if p == name {
					k = i
				}
			}
			if k < 0 {
				t.Fatalf("no proposition %q", name)
			}
			bits[0] |= 1 << k
		}
		out = append(out, bits)
	}
	return out
}

func TestPropositionsParseFormatRun(t *testing.T) {
	p, err := brasp.Parse("until.brasp", []byte(untilProgram))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(p.Props, " "); got != "a b x.y" {
		t.Fatalf("props %q", got)
	}
	if len(p.Alphabet) != 0 {
		t.Fatalf("alphabet %v, want none", p.Alphabet)
	}
	printed := brasp.Format(p)
	if !strings.HasPrefix(printed, "propositions a b \"x.y\"\nLater(i)") {
		t.Errorf("printed:\n%s", printed)
	}
	again, err := brasp.Parse("printed.brasp", []byte(printed))
	if err != nil || brasp.Format(again) != printed {
		t.Fatalf("round trip: %v\n%s", err, printed)
	}
	for trace, want := range map[string]bool{
		"b": true, "a;a;b": true, "a;;b": false, "a;a": false, "": false, "x.y": false, "a,b": true, ";b": false,
	} {
		st := steps(t, p.Props, trace)
		if got := p.AcceptsSteps(st); got != want {
			t.Errorf("%q: fast %v, want %v", trace, got, want)
		}
		if got := p.RunStepsReference(st).Accept(); got != want {
			t.Errorf("%q: reference %v, want %v", trace, got, want)
		}
	}
	table := brasp.FormatTable(p.RunSteps(steps(t, p.Props, "a,x.y;;b")))
	if !strings.HasPrefix(table, "input   {a,\"x.y\"} {} {b}\n") {
		t.Errorf("table:\n%s", table)
	}
}

func TestPropositionsErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"Q_a(i)\npropositions a\n", "2:1: the propositions line must come before every declaration and operation"},
		{"propositions a\npropositions b\n", "2:1: second propositions line (the first is at 1:1)"},
		{"propositions a a\n", "1:16: proposition a declared twice (first at 1:14)"},
		{"propositions a\nQ_b(i)\n", "2:1: Q_b(i): a program over propositions reads traces, not symbols"},
		{"propositions a\nX(i) := P_b(i)\n", "2:9: undefined: P_b (add b to the propositions line)"},
		{"propositions a\nP_a(i) := 1\n", "2:1: P_a redefined (first defined at 1:14)"},
		{"propositions a (\n", "1:16: unexpected ( after statement"},
		{"propositions\n", "1:1: empty program: no proposition and no operation, so there is no output vector"},
	} {
		_, err := brasp.Parse("f.brasp", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), "f.brasp:"+c.want) {
			t.Errorf("%q: got %v, want %s", c.src, err, c.want)
		}
	}
	// No propositions at all: every step is empty.
	p, err := brasp.Parse("f.brasp", []byte("propositions\nX(i) := 1\n"))
	if err != nil || !p.AcceptsSteps([][]uint64{nil, nil}) || p.AcceptsSteps(nil) {
		t.Errorf("empty propositions line: %v", err)
	}
}

// TestPropositionsInterpreters checks, on random programs over
// propositions, that the fast interpreter equals the reference on every
// vector, and that the program over the valuations (ToValuationLetters)
// computes the same vectors on the corresponding words.
func TestPropositionsInterpreters(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 300; n++ {
		k := 1 + rng.IntN(3)
		p := brasptest.RandomProgram(rng, brasptest.Options{Propositions: k, Ops: 2 + rng.IntN(8), Predicates: n%3 == 0})
		alpha := make(alphabet.Alphabet, 1<<k)
		for v := range alpha {
			alpha[v] = strings.Repeat("x", v+1)
		}
		q, err := brasp.ToValuationLetters(p, alpha)
		if err != nil {
			t.Fatal(err)
		}
		back, err := brasp.FromValuationLetters(q, p.Props)
		if err != nil {
			t.Fatal(err)
		}
		for m := 0; m < 10; m++ {
			st := brasptest.RandomSteps(rng, k, 1+rng.IntN(150))
			w := make([]int, len(st))
			for i, s := range st {
				w[i] = int(s[0])
			}
			fast, ref, letters := p.RunSteps(st), p.RunStepsReference(st), q.Run(w)
			// The compact trace: the distinct steps and an index per position.
			c := &brasp.CompactSteps{}
			ids := map[uint64]int{}
			for _, s := range st {
				k, ok := ids[s[0]]
				if !ok {
					k = len(c.Set)
					ids[s[0]] = k
					c.Set = append(c.Set, s)
				}
				c.Narrow = append(c.Narrow, byte(k))
			}
			compact := brasp.NewRunner(p).RunCompact(c)
			if b := back.AcceptsSteps(st); b != fast.Accept() {
				t.Fatalf("read back from the valuations: %v, program %v\n%s", b, fast.Accept(), brasp.Format(back))
			}
			for v := range p.Vectors {
				name := p.Vectors[v].Name
				lv := q.Lookup(name)
				for i := range st {
					if fast.Value(v, i) != compact.Value(v, i) {
						t.Fatalf("vector %s at %d: fast %v compact %v\n%s", name, i+1, fast.Value(v, i), compact.Value(v, i), brasp.Format(p))
					}
					if fast.Value(v, i) != ref.Value(v, i) || fast.Value(v, i) != letters.Value(lv, i) {
						t.Fatalf("vector %s at %d: fast %v reference %v letters %v\n%s", name, i+1,
							fast.Value(v, i), ref.Value(v, i), letters.Value(lv, i), brasp.Format(p))
					}
				}
			}
		}
	}
}

func TestToValuationLettersLimit(t *testing.T) {
	props := make([]string, brasp.MaxValuationProps+1)
	for i := range props {
		props[i] = "p" + strings.Repeat("x", i)
	}
	b := brasp.NewPropositionBuilder(props)
	b.SetAccept(0)
	p, err := b.Program()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := brasp.ToValuationLetters(p, nil); err == nil || !strings.Contains(err.Error(), "13 propositions") {
		t.Errorf("got %v", err)
	}
}

// BenchmarkRunSteps runs a 26-proposition program (12 operations, scores and
// values read at j only, so no per-group work) on random
// traces, and a program with only its inputs (the cost of reading the
// steps): the CPU time per step should not grow with the length.
func BenchmarkRunSteps(b *testing.B) {
	rng := rand.New(rand.NewPCG(26, 12))
	p := brasptest.RandomProgram(rng, brasptest.Options{Propositions: 26, Ops: 12, JOnly: true})
	inputsOnly := brasptest.RandomProgram(rng, brasptest.Options{Propositions: 26, Ops: 1, Attention: -1})
	for _, n := range []int{1 << 10, 1 << 16} {
		steps := brasptest.RandomSteps(rng, 26, n)
		for name, prog := range map[string]*brasp.Program{"program": p, "inputs-only": inputsOnly} {
			b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
				r := brasp.NewRunner(prog)
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				cpu0, ok := cputime.Thread()
				for b.Loop() {
					r.RunSteps(steps)
				}
				// Thread CPU time: the figure to read on a loaded machine.
				if cpu1, ok1 := cputime.Thread(); ok && ok1 {
					b.ReportMetric(float64((cpu1-cpu0).Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/step")
				}
			})
		}
	}
}
