package ltl

import (
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/internal/testkit"
	"github.com/brasp-dev/brasp/position"
)

// TestToBRASPRandom: on thousands of random formulas with every operator and
// predicate, every vector of the converted program agrees with its
// subformula at every position of every word up to length 7 (over two
// letters; length 5 over three) and of random words of length 65 to 214, and
// the output vector's attention depth is the formula's temporal depth.
func TestToBRASPRandom(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	opt := genOptions{ops: allOps, predicates: true}
	for _, tc := range []struct {
		alpha  []string
		maxLen int
		trials int
	}{{[]string{"a", "b"}, 7, 1500}, {[]string{"a", "b", "#"}, 5, 1000}} {
		p := NewPool(mustAlphabet(tc.alpha...))
		for trial := 0; trial < tc.trials; trial++ {
			f := randomFormula(r, p, 1+r.IntN(10), opt)
			prog, vec, err := toBRASP(f)
			if err != nil {
				t.Fatalf("%s: %v", Format(f), err)
			}
			if got := prog.Depth(prog.Output.Accept); got != f.Depth() {
				t.Fatalf("%s: attention depth %d, temporal depth %d", Format(f), got, f.Depth())
			}
			nodes := f.Nodes()
			ev := NewEvaluator(f)
			run := brasp.NewRunner(prog)
			check := func(w []int) {
				tr := ev.Evaluate(w)
				pt := run.Run(w)
				for _, g := range nodes {
					if _, ok := vec[g]; !ok && g.Op.Arity() == 0 && g != f {
						continue // a constant, written as a literal
					}
					for i := range w {
						if tr.Value(g, i) != pt.Value(vec[g], i) {
							t.Fatalf("%s: subformula %s and vector %s differ on %v at %d\n%s",
								Format(f), Format(g), prog.Vectors[vec[g]].Name, w, i, brasp.Format(prog))
						}
					}
				}
				if ev.Accepts(w) != pt.Accept() {
					t.Fatalf("%s: acceptance differs on %v", Format(f), w)
				}
			}
			testkit.EachWord(len(tc.alpha), 1, tc.maxLen, check)
			for range 2 {
				check(randomWord(r, len(tc.alpha), 65+r.IntN(150)))
			}
		}
	}
}

// TestToBRASPPaper converts the paper's formulas and STAIR_1..6, checks the
// programs against the direct recognizers, the depth, and that since-only
// formulas use only rightmost strict-future-masked attention (Thm 5.1).
func TestToBRASPPaper(t *testing.T) {
	t.Parallel()
	type tc struct {
		file  string
		depth int
		want  func(string) bool
	}
	cases := []tc{}
	for _, c := range paperLanguages {
		cases = append(cases, tc{c.file, c.depth, c.want})
	}
	for k := 1; k <= 6; k++ {
		cases = append(cases, tc{stairFile(k), k, stairRecognizer(k)})
	}
	for _, c := range cases {
		f := loadTestdata(t, c.file)
		prog, err := ToBRASP(f)
		if err != nil {
			t.Fatal(err)
		}
		if d := prog.AttentionDepth(); d != c.depth {
			t.Errorf("%s: attention depth %d, want %d", c.file, d, c.depth)
		}
		for _, v := range prog.Vectors {
			if v.Kind == brasp.AttentionVector && (v.Att.Tiebreak != position.Rightmost || v.Att.Mask != position.MaskFuture) {
				t.Errorf("%s: %s is not rightmost future-masked", c.file, v.Name)
			}
		}
		run := brasp.NewRunner(prog)
		if checkLanguage(t, f, func(w []int) bool { return run.Run(w).Accept() }, c.want, 8) == 0 {
			t.Errorf("%s: vacuous", c.file)
		}
		// Back to LTL: only rightmost [j<i] attention, so the depth is
		// exactly preserved (§5.4), and the language too.
		g, err := FromBRASP(nil, prog)
		if err != nil {
			t.Fatal(err)
		}
		if g.Depth() != c.depth {
			t.Errorf("%s: LTL → B-RASP → LTL has depth %d, want %d", c.file, g.Depth(), c.depth)
		}
		checkLanguage(t, g, NewEvaluator(g).Accepts, c.want, 7)
	}
}
