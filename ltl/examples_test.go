package ltl_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/examples"
	"github.com/brasp-dev/brasp/ltl"
)

// TestExamplesToLTL converts every example acceptor of /examples to LTL,
// checks that the formula accepts exactly what the program accepts on all
// words up to length 6, that it converts back to an equivalent program, and
// logs its DAG and tree sizes (go test -run ExamplesToLTL -v).
func TestExamplesToLTL(t *testing.T) {
	for _, name := range examples.Names() {
		if !strings.HasSuffix(name, ".brasp") {
			continue
		}
		prog := examples.MustProgram(name)
		if prog.IsTransducer() {
			if _, err := ltl.FromBRASP(nil, prog); err == nil {
				t.Errorf("%s: a transducer converted to one formula", name)
			}
			fs, err := ltl.FromBRASPVectors(nil, prog)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			for _, k := range prog.Output.Vectors {
				t.Logf("%-28s output %-6s depth %d→%d  DAG %4d  tree %d", name, prog.Vectors[k].Name,
					prog.Depth(k), fs[k].Depth(), fs[k].DAGSize(), fs[k].TreeSize())
			}
			continue
		}
		f, err := ltl.FromBRASP(nil, prog)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("%-28s depth %d→%d  DAG %4d  tree %d", name, prog.AttentionDepth(), f.Depth(), f.DAGSize(), f.TreeSize())
		if f.Depth() > 2*prog.AttentionDepth() {
			t.Errorf("%s: depth %d from attention depth %d", name, f.Depth(), prog.AttentionDepth())
		}
		ev := ltl.NewEvaluator(f)
		run := brasp.NewRunner(prog)
		back, err := ltl.ToBRASP(f)
		if err != nil {
			t.Fatal(err)
		}
		runBack := brasp.NewRunner(back)
		maxLen := 6
		if len(prog.Alphabet) > 3 {
			maxLen = 5
		}
		brasptest.AllWords(len(prog.Alphabet), maxLen, func(w []int) {
			want := run.Run(w).Accept()
			if ev.Accepts(w) != want || runBack.Run(w).Accept() != want {
				t.Fatalf("%s on %s: program %v, formula %v, formula's program %v", name,
					prog.Alphabet.FormatWord(w), want, ev.Accepts(w), runBack.Run(w).Accept())
			}
		})
	}
}

// TestStairProgramsToLTL: the STAIR_k programs of examples.StairProgram,
// k = 1..6, convert to formulas defining STAIR_k. Their last operation
// attends with no mask, which the paper's construction translates with two
// nested temporal operators, so the depth is k+1.
func TestStairProgramsToLTL(t *testing.T) {
	for k := 1; k <= 6; k++ {
		prog, err := examples.StairProgram(k)
		if err != nil {
			t.Fatal(err)
		}
		f, err := ltl.FromBRASP(nil, prog)
		if err != nil {
			t.Fatal(err)
		}
		if f.Depth() != k+1 {
			t.Errorf("STAIR_%d: depth %d, want %d", k, f.Depth(), k+1)
		}
		ev := ltl.NewEvaluator(f)
		accepted := 0
		brasptest.AllWords(3, 8, func(w []int) {
			want := examples.InStair(w, k)
			if ev.Accepts(w) != want {
				t.Fatalf("STAIR_%d on %v: formula %v", k, w, !want)
			}
			if want {
				accepted++
			}
		})
		if accepted == 0 {
			t.Errorf("STAIR_%d: vacuous", k)
		}
		t.Logf("STAIR_%d: depth %d, DAG %d, tree %d: %s", k, f.Depth(), f.DAGSize(), f.TreeSize(), abbreviate(ltl.Format(f)))
	}
}

func abbreviate(s string) string {
	if len(s) > 200 {
		return s[:200] + fmt.Sprintf("… (%d bytes)", len(s))
	}
	return s
}

// TestGeneratedExamplesToLTL converts the generated families — Dyck-k of
// depth D and STAIR_k for larger k — and checks them against their direct
// recognizers on all short words; it logs the output sizes.
func TestGeneratedExamplesToLTL(t *testing.T) {
	t.Parallel()
	for _, kd := range [][2]int{{1, 2}, {1, 4}, {2, 2}, {2, 3}, {3, 3}} {
		prog, err := examples.DyckProgram(kd[0], kd[1])
		if err != nil {
			t.Fatal(err)
		}
		f, err := ltl.FromBRASP(nil, prog)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("Dyck-%d depth %d: %d operations, attention depth %d → temporal depth %d, DAG %d, tree %d",
			kd[0], kd[1], len(prog.Vectors), prog.AttentionDepth(), f.Depth(), f.DAGSize(), f.TreeSize())
		ev := ltl.NewEvaluator(f)
		maxLen := map[int]int{1: 10, 2: 6, 3: 4}[kd[0]]
		brasptest.AllWords(2*kd[0], maxLen, func(w []int) {
			if ev.Accepts(w) != examples.InDyck(w, kd[1]) {
				t.Fatalf("Dyck-%d depth %d on %v", kd[0], kd[1], w)
			}
		})
	}
	for _, k := range []int{10, 20} {
		prog, _ := examples.StairProgram(k)
		f, err := ltl.FromBRASP(nil, prog)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("STAIR_%d: attention depth %d → temporal depth %d, DAG %d, tree %d", k, prog.AttentionDepth(), f.Depth(), f.DAGSize(), f.TreeSize())
		ev := ltl.NewEvaluator(f)
		r := rand.New(rand.NewPCG(uint64(k), 1))
		for range 200 {
			w := brasptest.RandomWord(r, 3, 1+r.IntN(3*k))
			for i := range w { // mostly a's, so that STAIR_k is often hit
				if r.IntN(4) > 0 {
					w[i] = 0
				}
			}
			if ev.Accepts(w) != examples.InStair(w, k) {
				t.Fatalf("STAIR_%d on %v", k, w)
			}
		}
	}
}
