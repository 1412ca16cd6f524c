package mona

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/exact"
	"github.com/brasp-dev/brasp/examples"
	"github.com/brasp-dev/brasp/internal/testkit"
	"github.com/brasp-dev/brasp/ltl"
	"github.com/brasp-dev/brasp/ltl/ltltest"
)

// needMONA skips the test when mona is missing outside CI and fails it in
// CI, where .ci/run installs it.
func needMONA(t *testing.T) {
	t.Helper()
	if Available() {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatal("mona is not installed, but CI is set (.ci/run installs the Debian package mona)")
	}
	t.Skip("mona is not installed (apt-get install mona)")
}

// suiteFormula is one formula of the cross-check suite.
type suiteFormula struct {
	name string
	f    *ltl.Formula
}

// stairFormula is STAIR_k as in ltl/testdata: g_1 = a, g_t = a & (c since
// g_{t-1}), and g_k | (1 since g_k).
func stairFormula(k int) *ltl.Formula {
	pool := ltl.NewPool(examples.StairAlphabet)
	a, c := pool.Symbol(0), pool.Symbol(2)
	g := a
	for t := 2; t <= k; t++ {
		g = pool.And(a, pool.Since(c, g))
	}
	return pool.Or(g, pool.Since(pool.True(), g))
}

// suite is the paper's formulas φ1–φ4 (the Mid formula is skipped: Mid is not
// regular), STAIR_1..16, Dyck-1 of depth 1..3 (as formulas, by Theorem 3.3
// from the Dyck programs) and n random formulas.
func suite(t *testing.T, n int) []suiteFormula {
	var out []suiteFormula
	for _, name := range []string{"phi1", "phi2", "phi3", "phi4"} {
		f := testkit.Load(t, filepath.Join("..", "..", "ltl", "testdata", name+".ltl"), ltl.ParseFile)
		out = append(out, suiteFormula{name, f})
	}
	for k := 1; k <= 16; k++ {
		out = append(out, suiteFormula{fmt.Sprintf("stair%d", k), stairFormula(k)})
	}
	for depth := 1; depth <= 3; depth++ {
		p, err := examples.DyckProgram(1, depth)
		if err != nil {
			t.Fatal(err)
		}
		f, err := ltl.FromBRASP(nil, p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, suiteFormula{fmt.Sprintf("dyck1_depth%d", depth), f})
	}
	rng := rand.New(rand.NewPCG(3, 5))
	for i := range n {
		pool := ltl.NewPool(brasptest.Alphabet(2 + i%2))
		out = append(out, suiteFormula{fmt.Sprintf("random%d", i), ltltest.RandomFormula(rng, pool, 4+rng.IntN(9), false)})
	}
	return out
}

// TestAgreesWithMONA checks that MONA and exact.FormulaDFA give the same
// language on the whole suite, and that both agree with the LTL evaluator on
// a sample of words.
func TestAgreesWithMONA(t *testing.T) {
	needMONA(t)
	n := 300
	if testing.Short() {
		n = 40
	}
	// MONA runs as a process per formula: eight at a time.
	sfs := suite(t, n)
	type result struct {
		ours, theirs *automata.DFA
		err          error
	}
	results := make([]result, len(sfs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i, sf := range sfs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			r := &results[i]
			if r.ours, r.err = exact.FormulaDFA(nil, sf.f); r.err != nil {
				return
			}
			prog, err := Translate(sf.f)
			if err != nil {
				r.err = err
				return
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			r.theirs, _, r.err = Run(ctx, prog, sf.f.Alphabet())
		}()
	}
	wg.Wait()
	for i, sf := range sfs {
		ours, theirs := results[i].ours, results[i].theirs
		if results[i].err != nil {
			t.Fatalf("%s: %v", sf.name, results[i].err)
		}
		eq, w, oursAcc, err := exact.Equivalent(ours, theirs)
		if err != nil {
			t.Fatal(err)
		}
		if !eq {
			t.Errorf("%s: %s: ours %v, MONA %v on %q", sf.name, ltl.Format(sf.f), oursAcc, !oursAcc, ours.Alphabet.FormatWord(w))
			continue
		}
		ev := ltl.NewEvaluator(sf.f)
		brasptest.AllWords(len(ours.Alphabet), 5, func(w []int) {
			if ev.Accepts(w) != ours.Accepts(w) {
				t.Errorf("%s: evaluator and DFA differ on %q", sf.name, ours.Alphabet.FormatWord(w))
			}
		})
	}
}

// both builds the formula's DFA with exact and with MONA, timing each.
func both(t *testing.T, sf suiteFormula) (ours, theirs *automata.DFA, tOurs, tMONA time.Duration) {
	t.Helper()
	start := time.Now()
	ours, err := exact.FormulaDFA(nil, sf.f)
	tOurs = time.Since(start)
	if err != nil {
		t.Fatalf("%s: %v", sf.name, err)
	}
	prog, err := Translate(sf.f)
	if err != nil {
		t.Fatalf("%s: %v", sf.name, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	theirs, tMONA, err = Run(ctx, prog, sf.f.Alphabet())
	if err != nil {
		t.Fatalf("%s: %v\n%s", sf.name, err, prog)
	}
	return ours, theirs, tOurs, tMONA
}

// TestTiming logs our time (wall clock of exact.FormulaDFA, best of three)
// and MONA's (CPU time of the mona process, which includes starting it; the
// startup baseline is logged too) per formula of the suite, and the median
// ratio. It runs only when asked:
//
//	MONA_TIMING=1 go test ./exact/mona -run TestTiming -v
func TestTiming(t *testing.T) {
	needMONA(t)
	if os.Getenv("MONA_TIMING") == "" {
		t.Skip("set MONA_TIMING=1 to measure")
	}
	baseline := time.Hour
	for range 5 {
		_, d, err := Run(context.Background(), "m2l-str;\nvar2 P0;\nex1 n: n = max($);\n", brasptest.Alphabet(1))
		if err != nil {
			t.Fatal(err)
		}
		baseline = min(baseline, d)
	}
	t.Logf("mona startup baseline (CPU time on a trivial formula, best of 5): %v", baseline)
	var ratios, net []float64
	var lines []string
	for _, sf := range suite(t, 100) {
		// Best of three for ours (the first run pays for warm-up).
		_, _, best, tm := both(t, sf)
		for range 2 {
			start := time.Now()
			if _, err := exact.FormulaDFA(nil, sf.f); err != nil {
				t.Fatal(err)
			}
			best = min(best, time.Since(start))
		}
		ratios = append(ratios, float64(best)/float64(tm))
		// Against MONA's time above its startup baseline (at least 1 µs).
		net = append(net, float64(best)/float64(max(tm-baseline, time.Microsecond)))
		if !strings.HasPrefix(sf.name, "random") || len(lines) < 30 {
			lines = append(lines, fmt.Sprintf("%-14s DAG %4d  ours %10v  mona %10v  ratio %.4f", sf.name, sf.f.DAGSize(), best, tm, float64(best)/float64(tm)))
		}
	}
	for _, l := range lines {
		t.Log(l)
	}
	slices.Sort(ratios)
	t.Logf("median ratio ours/mona over %d formulas: %.4f (max %.4f)", len(ratios), ratios[len(ratios)/2], ratios[len(ratios)-1])
	slices.Sort(net)
	t.Logf("median ratio ours/(mona - startup baseline): %.4f (max %.4f)", net[len(net)/2], net[len(net)-1])
}

// TestNearMiss: a wrong translation is caught. STAIR_4 against MONA's
// STAIR_5 gives the shortest counterexample aaaa, accepted by ours only.
func TestNearMiss(t *testing.T) {
	needMONA(t)
	ours, _, _, _ := both(t, suiteFormula{"stair4", stairFormula(4)})
	_, theirs, _, _ := both(t, suiteFormula{"stair5", stairFormula(5)})
	eq, w, oursAcc, err := exact.Equivalent(ours, theirs)
	if err != nil || eq || !oursAcc || ours.Alphabet.FormatWord(w) != "aaaa" {
		t.Fatalf("got %v %q %v %v", eq, ours.Alphabet.FormatWord(w), oursAcc, err)
	}
}
