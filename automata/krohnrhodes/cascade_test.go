package krohnrhodes

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/internal/testkit"
	"github.com/brasp-dev/brasp/position"
)

// TestDecomposeA3 checks the paper's Figure (App. B.4): A_3 decomposes into
// three two-state identity–reset levels, and the global automaton is the one
// of part (c), with the homomorphism φ to A_3 written in parentheses there.
func TestDecomposeA3(t *testing.T) {
	d := loadDFA(t, "a3.dfa")
	c, err := Decompose(nil, d)
	if err != nil {
		t.Fatal(err)
	}
	g, err := c.Global(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Levels) != 3 {
		t.Fatalf("%d levels, want 3:\n%s", len(c.Levels), c)
	}
	for l, lv := range c.Levels {
		if len(lv.States) != 2 {
			t.Errorf("level %d has %d states, want 2", l+1, len(lv.States))
		}
	}
	// Part (c) of the figure: level states A/B, C/D, E/F; φ in parentheses.
	type node struct {
		phi  int
		l, r string // successors on L and R
	}
	figure := map[string]node{
		"ACE": {0, "ACE", "BCE"}, "BCE": {1, "ACE", "BDE"}, "ADE": {1, "ACE", "BDE"}, "BDE": {2, "ADE", "BDF"},
		"ACF": {1, "ACE", "BCF"}, "BCF": {2, "ACF", "BDF"}, "ADF": {2, "ACF", "BDF"}, "BDF": {3, "ADF", "BDF"},
	}
	if len(g.States) != len(figure) {
		t.Fatalf("%d global states, want %d", len(g.States), len(figure))
	}
	// The isomorphism is forced by the start states (both automata are
	// deterministic and reachable from the start).
	iso := map[int]string{g.Start: "ACE"}
	queue := []int{g.Start}
	L, R := d.Alphabet.Index("L"), d.Alphabet.Index("R")
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		f := figure[iso[i]]
		if d.States[g.Phi[i]] != string(rune('0'+f.phi)) {
			t.Errorf("φ(%s) = %s, want %d", iso[i], d.States[g.Phi[i]], f.phi)
		}
		for _, e := range []struct {
			sym  int
			want string
		}{{L, f.l}, {R, f.r}} {
			h := g.Delta[i][e.sym]
			if name, ok := iso[h]; ok {
				if name != e.want {
					t.Errorf("%s --%s--> %s, want %s", iso[i], d.Alphabet[e.sym], name, e.want)
				}
				continue
			}
			iso[h] = e.want
			queue = append(queue, h)
		}
	}
	// Part (b): level states named by the figure's letters, and the resets.
	letter := func(l, s int) string {
		for i, name := range iso {
			if g.States[i][l] == s {
				return name[l : l+1]
			}
		}
		return "?"
	}
	var resets []string
	for l := range c.Levels {
		for _, r := range g.Resets[l] {
			above := ""
			for k, s := range r.Above {
				above += letter(k, s)
			}
			resets = append(resets, above+","+d.Alphabet[r.Symbol]+"->"+letter(l, r.Target))
		}
	}
	slices.Sort(resets)
	want := []string{",L->A", ",R->B", "A,L->C", "AC,L->E", "B,R->D", "BD,R->F"}
	if !slices.Equal(resets, want) {
		t.Errorf("resets %v, want %v (the figure's non-self-loop transitions)", resets, want)
	}
	// Figure (b) and the reset list fully determine the printed cascade.
	out := c.String()
	for _, s := range []string{"cascade of 3 identity-reset levels emulating a 4-state DFA (8 reachable global states)",
		"1.1 = {1,2,3}", "reset to 3.1 on R when levels above are (1.1,2.1)"} {
		if !strings.Contains(out, s) {
			t.Errorf("Format lacks %q:\n%s", s, out)
		}
	}
}

// TestA3BRASP checks the compiled program of A_3 and that it uses only
// rightmost strictly future-masked attention.
func TestA3BRASP(t *testing.T) {
	d := loadDFA(t, "a3.dfa")
	p, _, err := DFAToBRASP(nil, d)
	if err != nil {
		t.Fatal(err)
	}
	checkProgram(t, d, p, 8, 200, rand.New(rand.NewPCG(1, 1)))
	src := brasp.Format(p)
	// Level 3 (Lemma B.7 in context form) keeps its state unless it reads L
	// in (1.0,2.0) (C_3) or R in (1.1,2.1) (C_4), and is reset to 3.1 on the
	// latter: the resets of the paper's Figure.
	for _, s := range []string{"L1_0(i) := rightmost [j<i, 1] !Q_R(j) : 1",
		"C_3(i) := L1_0(i) & L2_0(i)",
		"C_6(i) := (L1_1(i) & L2_0(i)) | (L1_0(i) & L2_1(i))",
		"C_4(i) := L1_1(i) & L2_1(i)",
		"L3_1(i) := rightmost [j<i, !((C_3(j) & Q_R(j)) | (C_6(j) & (Q_L(j) | Q_R(j))) | (C_4(j) & Q_L(j)))] L1_1(j) & L2_1(j) & Q_R(j) : 0"} {
		if !strings.Contains(src, s) {
			t.Errorf("program lacks %q:\n%s", s, src)
		}
	}
	// The printed program parses back to a program with the same behaviour.
	q, err := brasp.Parse("a3.brasp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	checkProgram(t, d, q, 6, 50, rand.New(rand.NewPCG(1, 2)))
}

// checkProgram compares p with d on all non-empty words up to maxLen and on
// 50 random words of length up to longLen, and checks that p only uses
// rightmost strictly future-masked attention. Such a program is causal (its
// vectors at position i depend only on the first i symbols), so the output
// vector at position i of a run on w decides the prefix of w of length i: one
// run per word of length maxLen covers all shorter words too.
func checkProgram(t *testing.T, d *automata.DFA, p *brasp.Program, maxLen, longLen int, rng *rand.Rand) {
	t.Helper()
	for _, v := range p.Vectors {
		if v.Kind == brasp.AttentionVector && (v.Att.Tiebreak != position.Rightmost || v.Att.Mask != position.MaskFuture) {
			t.Fatalf("vector %s uses %s [%s]", v.Name, v.Att.Tiebreak, v.Att.Mask)
		}
	}
	check := programChecker(t, d, p)
	for _, w := range testkit.Words(len(d.Alphabet), 0, maxLen) {
		if len(w) == maxLen {
			check(w)
		}
	}
	checkRandomWords(t, d, check, longLen, rng)
}

// checkRandomWords runs check on 50 random non-empty words of length up to
// longLen.
func checkRandomWords(t *testing.T, d *automata.DFA, check func([]int), longLen int, rng *rand.Rand) {
	t.Helper()
	k := len(d.Alphabet)
	for range 50 {
		w := make([]int, 1+rng.IntN(longLen))
		for i := range w {
			w[i] = rng.IntN(k)
		}
		check(w)
	}
}

// programChecker returns a function that runs p on a word and compares its
// output at every position with d's verdict on the prefix.
func programChecker(t *testing.T, d *automata.DFA, p *brasp.Program) func([]int) {
	runner := brasp.NewRunner(p)
	return func(w []int) {
		t.Helper()
		tr := runner.Run(w)
		q := d.Start
		for i, a := range w {
			q = d.Delta[q][a]
			if tr.Value(p.Output.Accept, i) != d.Accept[q] {
				t.Fatalf("program and DFA differ on %q:\n%s\n%s", d.Alphabet.FormatWord(w[:i+1]), automata.Format(d), brasp.Format(p))
			}
		}
		if tr.Accept() != d.Accepts(w) {
			t.Fatalf("program and DFA differ on %q", d.Alphabet.FormatWord(w))
		}
	}
}

// checkCascade runs the cascade product from its level tables (the emulation
// test) against the DFA on all words up to maxLen, state by state.
func checkCascade(t *testing.T, d *automata.DFA, c *Cascade, maxLen int) {
	t.Helper()
	if err := c.Verify(nil); err != nil {
		t.Fatal(err)
	}
	for _, w := range testkit.Words(len(d.Alphabet), 0, maxLen) {
		tuple := c.Start
		q := d.Start
		for _, a := range w {
			tuple = c.StepLevels(tuple, a)
			q = d.Delta[q][a]
			if x, ok := c.Map(tuple); !ok || x != q {
				t.Fatalf("cascade leaves the reachable states or maps to the wrong state on %v", w)
			}
		}
		if c.Accepts(w) != d.Accepts(w) {
			t.Fatalf("cascade and DFA differ on %v", w)
		}
	}
}

// edgeCases records which of the notes' edge cases a decomposition exercises.
type edgeCases struct {
	tileNotImage, noSingletonImages, heightAboveNMinus1, overlappingTiles bool
}

func edgeCasesOf(t *testing.T, d *automata.DFA) edgeCases {
	h, err := newHolonomy(nil, budget.New(context.Background(), nil).Meter(CascadeBytes, "test"), d)
	if err != nil {
		t.Fatal(err)
	}
	var e edgeCases
	e.heightAboveNMinus1 = h.levels > d.NumStates()-1
	e.noSingletonImages = true
	for _, s := range h.o.Sets {
		if len(s) == 1 {
			e.noSingletonImages = false
		}
	}
	for p := range h.o.Sets {
		// Images of p: the orbit sets reachable from p.
		reach := map[int]bool{p: true}
		queue := []int{p}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for _, y := range h.o.Succ[x] {
				if !reach[y] {
					reach[y] = true
					queue = append(queue, y)
				}
			}
		}
		for i, ti := range h.tiles[p] {
			if !reach[ti] {
				e.tileNotImage = true
			}
			for _, tj := range h.tiles[p][i+1:] {
				for _, x := range h.sets[ti] {
					if slices.Contains(h.sets[tj], x) {
						e.overlappingTiles = true
					}
				}
			}
		}
	}
	return e
}

func TestEdgeCaseFiles(t *testing.T) {
	a3 := edgeCasesOf(t, loadDFA(t, "a3.dfa"))
	if !a3.overlappingTiles {
		t.Error("A_3 should have overlapping tiles")
	}
	fa := loadDFA(t, "first_a.dfa")
	e := edgeCasesOf(t, fa)
	if !e.noSingletonImages || !e.tileNotImage {
		t.Errorf("first_a: %+v", e)
	}
	tall := loadDFA(t, "tall.dfa")
	if e := edgeCasesOf(t, tall); !e.heightAboveNMinus1 {
		t.Errorf("tall.dfa: %+v", e)
	}
	for _, d := range []*automata.DFA{fa, tall} {
		c, err := Decompose(nil, d)
		if err != nil {
			t.Fatal(err)
		}
		checkCascade(t, d, c, 8)
		checkCascadeProgram(t, d, c, 8, rand.New(rand.NewPCG(3, 3)))
	}
}

// checkCascadeProgram checks CascadeToBRASP's program on all words up to
// maxLen and on two samples of 50 random words up to length 200: one drawn
// from rng, one from a source of its own. Only the first draws from rng, so
// the callers' samples stay as they were.
func checkCascadeProgram(t *testing.T, d *automata.DFA, c *Cascade, maxLen int, rng *rand.Rand) {
	t.Helper()
	p, err := CascadeToBRASP(c)
	if err != nil {
		t.Fatal(err)
	}
	checkProgram(t, d, p, maxLen, 200, rng)
	own := rand.New(rand.NewPCG(uint64(d.NumStates()), uint64(len(p.Vectors))))
	checkRandomWords(t, d, programChecker(t, d, p), 200, own)
}

// randomCounterFree returns a random minimal counter-free DFA with between
// minStates and maxStates states, from one of several families.
func randomCounterFree(rng *rand.Rand, minStates, maxStates int) *automata.DFA {
	for {
		var d *automata.DFA
		k := 1 + rng.IntN(3)
		if maxStates > 7 {
			k = 1 + rng.IntN(2) // three-letter cascades of 8+ states get slow to check
		}
		size := minStates + rng.IntN(maxStates-minStates+1)
		switch rng.IntN(4) {
		case 0: // order-preserving letters
			d = randomAperiodicish(rng, size+rng.IntN(3), k)
		case 1: // small uniform DFAs, filtered below
			d = randomDFA(rng, min(size, 5), k)
		case 2: // products of order-preserving automata: partial orders
			a := randomAperiodicish(rng, 2+rng.IntN(3), k)
			b := randomAperiodicish(rng, 2+rng.IntN(4), k)
			d, _ = automata.Product(a, b, func(x, y bool) bool { return x != y })
		default: // letters that are constant, identity or order-preserving
			n := size + rng.IntN(3)
			d = randomAperiodicish(rng, n, k)
			for a := range k {
				switch rng.IntN(4) {
				case 0:
					r := rng.IntN(n)
					for q := range n {
						d.Delta[q][a] = r
					}
				case 1:
					for q := range n {
						d.Delta[q][a] = q
					}
				}
			}
		}
		d, err := automata.Minimize(nil, d)
		if err != nil {
			panic(err) // a few states
		}
		if d.NumStates() < minStates || d.NumStates() > maxStates {
			continue
		}
		if o, err := automata.NewImageOrbit(nil, d); err == nil {
			if o.CountingWitness() == nil {
				return d
			}
		}
	}
}

// TestKrohnRhodesRandom decomposes hundreds of random counter-free minimal
// DFAs of up to 12 states, checks each cascade by emulation and each B-RASP
// program on all words up to length 8 and random words up to length 200, and requires the sample to exercise every edge case of the
// notes.
var krIterations = 300

func TestKrohnRhodesRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	var seen edgeCases
	sizes := map[int]int{}
	for i := range krIterations {
		hi := 2 + i%11
		d := randomCounterFree(rng, max(2, hi-2), hi)
		sizes[d.NumStates()]++
		c, err := Decompose(nil, d)
		if err != nil {
			t.Fatalf("%v\n%s", err, automata.Format(d))
		}
		maxLen := map[int]int{1: 10, 2: 8, 3: 5}[len(d.Alphabet)]
		checkCascade(t, d, c, maxLen)
		checkCascadeProgram(t, d, c, maxLen, rng)
		e := edgeCasesOf(t, d)
		seen.tileNotImage = seen.tileNotImage || e.tileNotImage
		seen.noSingletonImages = seen.noSingletonImages || e.noSingletonImages
		seen.heightAboveNMinus1 = seen.heightAboveNMinus1 || e.heightAboveNMinus1
		seen.overlappingTiles = seen.overlappingTiles || e.overlappingTiles
	}
	if seen != (edgeCases{true, true, true, true}) {
		t.Errorf("edge cases not all exercised: %+v", seen)
	}
	big := 0
	for n, c := range sizes {
		if n >= 8 {
			big += c
		}
	}
	if big < 80 {
		t.Errorf("too few large DFAs: %v", sizes)
	}
	t.Logf("DFA sizes: %v", sizes)
}

func TestDecomposeRefusesCounters(t *testing.T) {
	for _, name := range []string{"aa_star.dfa", "parity.dfa", "tomita3.dfa", "tomita5.dfa", "tomita6.dfa"} {
		d := loadDFA(t, name)
		_, err := Decompose(nil, d)
		var nc *NotCounterFreeError
		if !errors.As(err, &nc) {
			t.Fatalf("%s: got %v, want NotCounterFreeError", name, err)
		}
		w := nc.Witness
		tr := d.WordTransformation(w.Word)
		x := w.State
		for range w.Period {
			x = tr[x]
		}
		if w.Period < 2 || tr[w.State] == w.State || x != w.State {
			t.Errorf("%s: bad witness %+v", name, w)
		}
		if _, _, err := DFAToBRASP(nil, d); !errors.As(err, &nc) {
			t.Errorf("%s: DFAToBRASP: %v", name, err)
		}
	}
	// A counter-free language whose given DFA has a counter is decomposed
	// after minimisation: two copies of the "ends in a" automaton swapped by b.
	d, _ := automata.Parse("x.dfa", []byte("alphabet a b\nstart p0\naccept p1 q1\np0 a p1\np1 a p1\np0 b q0\np1 b q0\nq0 a q1\nq1 a q1\nq0 b p0\nq1 b p0\n"))
	if _, err := Decompose(nil, d); err == nil {
		t.Error("non-minimal DFA with a counter decomposed")
	}
	p, _, err := DFAToBRASP(nil, d)
	if err != nil {
		t.Fatal(err)
	}
	checkProgram(t, d, p, 8, 100, rand.New(rand.NewPCG(4, 4)))
}

func TestDecomposeLimits(t *testing.T) {
	d := loadDFA(t, "a3.dfa")
	var le *budget.Error
	// The cascade and its program need no global states; enumerating them
	// (Global, Verify, Format's explicit form) is what cascade-bytes bounds
	// after Decompose.
	small, err := Decompose(nil, d)
	if err != nil {
		t.Fatal(err)
	}
	tiny := budget.New(context.Background(), budget.Settings{"cascade-bytes": 500})
	if _, err := small.Global(tiny); !errors.As(err, &le) || le.Limit != CascadeBytes {
		t.Errorf("cascade limit: %v", err)
	}
	if err := small.Verify(tiny); !errors.As(err, &le) || le.Limit != CascadeBytes {
		t.Errorf("cascade limit: %v", err)
	}
	var out strings.Builder
	if err := small.Format(tiny, &out); err != nil || !strings.Contains(out.String(), "--limit cascade-bytes=N") || !strings.Contains(out.String(), "when the chain passes") {
		t.Errorf("Format over the limit (%v):\n%s", err, out.String())
	}
	// Within the limit, the explicit form.
	if err := small.Verify(nil); err != nil {
		t.Error(err)
	}
	if out := small.String(); !strings.Contains(out, "reachable global states)") || strings.Contains(out, "when the chain passes") {
		t.Errorf("Format within the limit:\n%s", out)
	}
	if p, err := CascadeToBRASP(small); err != nil {
		t.Error(err)
	} else {
		checkProgram(t, d, p, 8, 100, rand.New(rand.NewPCG(5, 6)))
	}
	if _, err := Decompose(budget.New(context.Background(), budget.Settings{"orbit-bytes": 100}), d); !errors.As(err, &le) || le.Limit != automata.OrbitBytes {
		t.Errorf("image limit: %v", err)
	}
	one, _ := automata.Parse("one.dfa", []byte("alphabet a\nstart s\naccept s\ns a s\n"))
	c, err := Decompose(nil, one)
	if err != nil || len(c.Levels) != 0 {
		t.Fatalf("one-state DFA: %v", err)
	}
	p, err := CascadeToBRASP(c)
	if err != nil {
		t.Fatal(err)
	}
	checkProgram(t, one, p, 5, 10, rand.New(rand.NewPCG(5, 5)))
}

// TestKrohnRhodesLarge converts random minimal counter-free DFAs of 20 and
// 30 states, whose cascades have too many global states to list, and checks
// the cascade product (run from the level inputs alone) and the program on
// all words up to length 7 and random words up to length 200. The programs
// must not depend on global states: the limit on them is set below their
// number.
func TestKrohnRhodesLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large DFAs")
	}
	for _, n := range []int{20, 30} {
		t.Run(strconv.Itoa(n)+"-states", func(t *testing.T) {
			t.Parallel()
			largeCascades(t, n, rand.New(rand.NewPCG(41, 42+uint64(n))))
		})
	}
}

// largeCascades decomposes the counter-free DFAs of n states of
// TestKrohnRhodesLarge and checks their cascades and programs.
func largeCascades(t *testing.T, n int, rng *rand.Rand) {
	for _, d := range counterFreeOfSize(7, n, 4) {
		c, err := Decompose(nil, d)
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		if n == 30 {
			var le *budget.Error
			if _, err := c.Global(budget.New(context.Background(), budget.Settings{"cascade-bytes": 64 << 10})); !errors.As(err, &le) || le.Limit != CascadeBytes {
				t.Errorf("n=30: expected more than 64 KiB of global states: %v", err)
			}
		}
		p, err := CascadeToBRASP(c)
		if err != nil {
			t.Fatal(err)
		}
		checkProgram(t, d, p, 7, 200, rng)
		for _, w := range testkit.Words(2, 0, 7) {
			if len(w) == 7 || len(w) == 0 {
				tuple, q := c.Start, d.Start
				for _, a := range w {
					tuple, q = c.StepLevels(tuple, a), d.Delta[q][a]
					if x, ok := c.Map(tuple); !ok || x != q {
						t.Fatalf("n=%d: the cascade maps %v to the wrong state", n, w)
					}
				}
			}
		}
		p2, _, err := DFAToBRASP(nil, d)
		if err != nil {
			t.Fatal(err)
		}
		if len(p2.Vectors) != len(p.Vectors) {
			t.Errorf("DFAToBRASP of a minimal DFA: %d vectors, CascadeToBRASP %d", len(p2.Vectors), len(p.Vectors))
		}
		t.Logf("n=%d: %d levels, %d contexts, %d vectors", n, len(c.Levels), c.Contexts(), len(p.Vectors))
	}
}
