package automata

import (
	"context"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata/internal/transform"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/internal/testkit"
)

// checkWitnesses verifies every witness of c by running the minimal DFA.
func checkWitnesses(t *testing.T, name string, c *Classification) {
	t.Helper()
	m := c.Minimal
	checkCounting := func(kind string, w *CountingWitness) {
		tr := m.WordTransformation(w.Word)
		q := w.State
		if w.Period < 2 || tr[q] == q {
			t.Errorf("%s: %s witness: w does not move the state", name, kind)
		}
		x := q
		for range w.Period {
			x = tr[x]
		}
		if x != q {
			t.Errorf("%s: %s witness: q·w^k ≠ q", name, kind)
		}
		if m.Run(m.Start, w.Prefix) != q {
			t.Errorf("%s: %s witness: prefix does not lead to the state", name, kind)
		}
		for n := range 3*w.Period + 1 {
			word := slices.Clone(w.Prefix)
			for range n {
				word = append(word, w.Word...)
			}
			word = append(word, w.Suffix...)
			want := w.AcceptedAtZero == (n%w.Period == 0)
			if n%w.Period > 1 {
				continue // only n ≡ 0 and n ≡ 1 are promised
			}
			if m.Accepts(word) != want {
				t.Errorf("%s: %s witness fails at n = %d", name, kind, n)
			}
		}
	}
	if !c.StarFree {
		if c.NotStarFreeBy == nil {
			t.Fatalf("%s: no star-free witness", name)
		}
		checkCounting("star-free", c.NotStarFreeBy)
	}
	if !c.AC0 {
		if c.NotAC0By == nil || len(c.NotAC0By.Word) != c.StabilityIndex {
			t.Fatalf("%s: bad AC0 witness", name)
		}
		checkCounting("AC0", c.NotAC0By)
	}
	if w := c.NotStutterBy; w != nil {
		single := append(append(slices.Clone(w.Prefix), w.Symbol), w.Suffix...)
		double := append(append(slices.Clone(w.Prefix), w.Symbol, w.Symbol), w.Suffix...)
		if m.Accepts(single) == m.Accepts(double) || m.Accepts(double) != w.Doubled {
			t.Errorf("%s: stutter witness fails", name)
		}
	}
}

func TestClassifyGolden(t *testing.T) {
	for _, c := range []struct {
		file               string
		starFree, sti, ac0 bool
		states             int
	}{
		{"ab_plus.dfa", true, false, true, 4},
		{"a_plus_b_plus_plus.dfa", true, true, true, 4},
		{"aa_star.dfa", false, false, true, 2},
		{"parity.dfa", false, false, false, 2},
		{"dyck12.dfa", true, false, true, 4},
		{"a3.dfa", true, false, true, 4},
		{"tomita1.dfa", true, true, true, 2},
		{"tomita2.dfa", true, false, true, 3},
		{"tomita3.dfa", false, false, true, 5},
		{"tomita4.dfa", true, false, true, 4},
		{"tomita5.dfa", false, false, false, 4},
		{"tomita6.dfa", false, false, false, 3},
		{"tomita7.dfa", true, true, true, 5},
		{"first_a.dfa", true, true, true, 3},
	} {
		d := loadDFA(t, c.file)
		cl, err := Classify(nil, d)
		if err != nil {
			t.Fatal(err)
		}
		if cl.StarFree != c.starFree || cl.StutterInvariant != c.sti || cl.AC0 != c.ac0 || cl.Minimal.NumStates() != c.states {
			t.Errorf("%s: star-free %v, stutter-invariant %v, AC0 %v, %d states; want %v %v %v %d\n%s",
				c.file, cl.StarFree, cl.StutterInvariant, cl.AC0, cl.Minimal.NumStates(), c.starFree, c.sti, c.ac0, c.states, cl.Format())
		}
		checkWitnesses(t, c.file, cl)
	}
}

func TestClassifyFormat(t *testing.T) {
	cl, err := Classify(nil, loadDFA(t, "aa_star.dfa"))
	if err != nil {
		t.Fatal(err)
	}
	out := cl.Format()
	for _, want := range []string{
		"star-free: no\n  witness: w = \"a\" counts modulo 2: with u = ε and v = ε, u·w^n·v is accepted for n ≡ 0 and rejected for n ≡ 1 (mod 2)\n",
		"stutter-invariant: no\n  witness: u = ε, a = \"a\", v = ε: \"aa\" is accepted, \"a\" is rejected\n",
		"ac0: yes\n", "dfa-states: 2\n",
		"transformer, strict masking, rational sinusoidal position embeddings: yes",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	cl, _ = Classify(nil, loadDFA(t, "parity.dfa"))
	if out := cl.Format(); !strings.Contains(out, "ac0: no\n  witness: w = \"b\" counts modulo 2 (|w| = 1") {
		t.Errorf("parity:\n%s", out)
	}
}

// TestAperiodicAgainstMonoid compares the orbit-based star-freeness test with
// the brute-force check of every element of the transition monoid, on
// thousands of random minimal DFAs, and the AC0 test with a brute-force
// stable-semigroup check.
func TestAperiodicAgainstMonoid(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	counts := map[bool]int{}
	shortWords := map[int][][]int{1: testkit.Words(1, 0, 3), 2: testkit.Words(2, 0, 3), 3: testkit.Words(3, 0, 3)}
	for i := range 2000 {
		var d *DFA
		if i%2 == 0 {
			d = randomDFA(rng, 1+rng.IntN(5), 1+rng.IntN(2))
		} else {
			d = randomAperiodicish(rng, 1+rng.IntN(7), 1+rng.IntN(3))
		}
		m := minimize(t, d)
		mon, err := TransitionMonoid(nil, m)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := mon.Aperiodic()
		cl, err := Classify(nil, d)
		if err != nil {
			t.Fatal(err)
		}
		counts[want]++
		if cl.StarFree != want {
			t.Fatalf("orbit test says star-free=%v, monoid says %v:\n%s", cl.StarFree, want, Format(m))
		}
		// Stutter invariance by brute force: u a v vs u a a v on short words.
		sti := true
		short := shortWords[len(m.Alphabet)]
		for _, u := range short {
			for a := range m.Alphabet {
				x := m.Delta[m.Run(m.Start, u)][a]
				for _, v := range short {
					if m.Accept[m.Run(x, v)] != m.Accept[m.Run(m.Delta[x][a], v)] {
						sti = false
					}
				}
			}
		}
		if sti != cl.StutterInvariant {
			t.Fatalf("stutter invariance %v, brute force %v:\n%s", cl.StutterInvariant, sti, Format(m))
		}
		// AC0 by brute force: T_s as the monoid elements reachable by words of
		// length exactly s (layers of the Cayley graph); T_s·T_s = T_s.
		if !want {
			s := cl.StabilityIndex
			ts := layerOfMonoid(mon, m, s)
			ac0 := true
			for e := range ts {
				if cyclePoint(mon.Elements[e]) >= 0 {
					ac0 = false
				}
			}
			if ac0 != cl.AC0 {
				t.Fatalf("AC0 %v, brute force %v", cl.AC0, ac0)
			}
			if !maps.Equal(ts, layerOfMonoid(mon, m, 2*s)) {
				t.Fatalf("T_s ≠ T_2s for s = %d", s)
			}
		}
		checkWitnesses(t, "random", cl)
	}
	if counts[true] < 300 || counts[false] < 300 {
		t.Errorf("unbalanced sample: %v", counts)
	}
}

// randomAperiodicish is RandomNearlyAperiodic over k letters.
func randomAperiodicish(rng *rand.Rand, n, k int) *DFA {
	return RandomNearlyAperiodic(rng, testkit.Letters(k), n)
}

// layerOfMonoid returns the indices of the monoid elements induced by words
// of length exactly l.
func layerOfMonoid(mon *Monoid, m *DFA, l int) map[int]bool {
	index := map[string]int{}
	for i, e := range mon.Elements {
		index[transform.Key(e)] = i
	}
	letters := m.letterMaps()
	layer := map[int]bool{0: true}
	for range l {
		next := map[int]bool{}
		for e := range layer {
			for _, a := range letters {
				next[index[transform.Key(transform.Compose(mon.Elements[e], a))]] = true
			}
		}
		layer = next
	}
	return layer
}

func TestClassifyAC0Limit(t *testing.T) {
	c, err := Classify(budget.New(context.Background(), budget.Settings{"monoid-bytes": 1}), loadDFA(t, "tomita5.dfa"))
	if err != nil {
		t.Fatal(err)
	}
	if c.AC0Undecided == nil || c.AC0 || c.StarFree {
		t.Fatalf("%+v", c)
	}
	if out := c.Format(); !strings.Contains(out, "ac0: unknown (the stable semigroup exceeds the limit monoid-bytes=1 bytes (needs ") || !strings.Contains(out, "--limit monoid-bytes=N") {
		t.Errorf("Format:\n%s", out)
	}
	// The transformer variant that rests on AC0 is unknown too, not "no".
	if out := c.Format(); !strings.Contains(out, "transformer, strict masking, rational sinusoidal position embeddings: unknown (whether it is in AC0 is unknown: ") {
		t.Errorf("Format:\n%s", out)
	}
	if v := c.TransformerVariants()[2]; v.Recognises || v.Unknown == "" {
		t.Errorf("variant %+v", v)
	}
}

func TestShowWordQuotedSymbols(t *testing.T) {
	alpha := alphabet.Alphabet{"{}", "{p}", "{p,q}"}
	if got, want := ShowWord(alpha, []int{1, 2}), `"{p}" "{p,q}"`; got != want {
		t.Errorf("ShowWord = %s, want %s", got, want)
	}
	if got, want := ShowWord(alphabet.Alphabet{"a", "b"}, []int{0, 1}), `"ab"`; got != want {
		t.Errorf("ShowWord = %s, want %s", got, want)
	}
}
