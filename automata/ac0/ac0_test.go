package ac0_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/ac0"
	"github.com/brasp-dev/brasp/automata/regex"
	"github.com/brasp-dev/brasp/automata/regex/regextest"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/exact"
	"github.com/brasp-dev/brasp/internal/testkit"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
	"github.com/brasp-dev/brasp/transformer/decompile"
)

// ac0Cases are regular languages in AC0 that are not star-free: (aa)*,
// (aa)* over larger alphabets, even length ending in b, block languages,
// lengths modulo m intersected with star-free conditions.
var ac0Cases = []struct{ name, alpha, re string }{
	{"aa_star", "a", "(aa)*"},
	{"aa_star_ab", "a b", "(aa)*"},
	{"aa_star_abc", "a b c", "(aa)*"},
	{"even_length", "a b", "(..)*"},
	{"even_ending_b", "a b", "(..)* & .*b"},
	{"blocks_ab_bc", "a b c", "((a|b)(b|c))*"},
	{"blocks_aa_bb", "a b", "(aa|bb)*"},
	{"blocks_ab_ba_then_any", "a b", "((ab|ba)(a|b))*"},
	{"len1mod3_contains_ab", "a b", "(...)*. & .*ab.*"},
	{"len2mod4_starts_b", "a b", "(....)*.. & b.*"},
	{"len0mod3_no_aa", "a b", "(...)* & ~(.*aa.*)"},
	{"len_odd_or_has_c", "a b c", "(..)*. | .*c.*"},
	{"odd_positions_a", "a b", "(a.)*a?"},
	{"len0mod5", "a", "(aaaaa)*"},
	{"len0mod6_ends_ab", "a b", "(......)* & .*ab"},
}

// checkProgram checks that the program uses only MOD predicates, runs like
// the DFA on every word up to length maxLen and on random long words, and
// is exactly equivalent to it.
func checkProgram(t *testing.T, d *automata.DFA, p *brasp.Program, maxLen int, rng *rand.Rand) {
	t.Helper()
	for _, v := range p.Vectors {
		if v.Kind == brasp.PredicateVector && v.Pred.Kind != brasp.Mod {
			t.Fatalf("the program uses the position predicate %s", v.Name)
		}
	}
	r := brasp.NewRunner(p)
	forWords(d, maxLen, rng, func(w []int) {
		if got, want := r.Run(w).Accept(), d.Accepts(w); got != want {
			t.Fatalf("program on %q: %v, DFA: %v\n%s", d.Alphabet.FormatWord(w), got, want, brasp.Format(p))
		}
	})
	dp, err := exact.ProgramDFA(nil, p)
	if err != nil {
		t.Fatal(err)
	}
	if eq, w, _, err := exact.Equivalent(dp, d); err != nil || !eq {
		t.Fatalf("program not equivalent to the DFA (err %v) on %q\n%s", err, d.Alphabet.FormatWord(w), brasp.Format(p))
	}
}

// forWords calls f on every non-empty word up to length maxLen and on 20
// random words of length 30 to 200.
func forWords(d *automata.DFA, maxLen int, rng *rand.Rand, f func([]int)) {
	k := len(d.Alphabet)
	var rec func(w []int)
	rec = func(w []int) {
		if len(w) > 0 {
			f(w)
		}
		if len(w) == maxLen {
			return
		}
		for a := range k {
			rec(append(w, a))
		}
	}
	rec(nil)
	for range 20 {
		w := make([]int, 30+rng.IntN(171))
		for i := range w {
			w[i] = rng.IntN(k)
		}
		f(w)
	}
}

// checkModel compiles the program, checks that its position terms are
// rational sinusoids only (reading the JSON), runs it like the DFA and
// decompiles it exactly back to the DFA's language.
func checkModel(t *testing.T, d *automata.DFA, p *brasp.Program, maxLen int, rng *rand.Rand, decompiled bool) *transformer.Model {
	t.Helper()
	m, err := compile.Compile(nil, p, compile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkSinusoidalJSON(t, transformer.EncodeJSON(m))
	run, err := transformer.NewRunner(m)
	if err != nil {
		t.Fatal(err)
	}
	forWords(d, maxLen, rng, func(w []int) {
		got, err := run.Accepts(w)
		if err != nil {
			t.Fatal(err)
		}
		if want := d.Accepts(w); got != want {
			t.Fatalf("model on %q: %v, DFA: %v", d.Alphabet.FormatWord(w), got, want)
		}
	})
	if !decompiled {
		return m
	}
	dm, err := exact.ModelDFA(nil, m, decompile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if eq, w, _, err := exact.Equivalent(dm, d); err != nil || !eq {
		t.Fatalf("decompiled model not equivalent to the DFA (err %v) on %q", err, d.Alphabet.FormatWord(w))
	}
	return m
}

// checkSinusoidalJSON fails unless every position term of the model file is
// sin or cos with a rational frequency.
func checkSinusoidalJSON(t *testing.T, data []byte) {
	t.Helper()
	var file struct {
		Position json.RawMessage `json:"position"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	rational := func(raw json.RawMessage) {
		s := string(raw)
		var str string
		if json.Unmarshal(raw, &str) == nil {
			s = str
		}
		if _, ok := new(big.Rat).SetString(s); !ok {
			t.Fatalf("position frequency %s is not a rational number", raw)
		}
	}
	var terms []struct {
		Kind      string          `json:"kind"`
		Frequency json.RawMessage `json:"frequency"`
	}
	if err := json.Unmarshal(file.Position, &terms); err == nil {
		if len(terms) == 0 {
			t.Fatal("the model has no position terms")
		}
		for _, term := range terms {
			if term.Kind != "sin" && term.Kind != "cos" {
				t.Fatalf("position term of kind %q: only sin and cos are allowed", term.Kind)
			}
			rational(term.Frequency)
		}
		return
	}
	var short struct {
		Kind        string            `json:"kind"`
		Frequencies []json.RawMessage `json:"frequencies"`
	}
	if err := json.Unmarshal(file.Position, &short); err != nil || short.Kind != "sinusoidal" {
		t.Fatalf("position embedding %s is neither a list of terms nor sinusoidal", file.Position)
	}
	for _, f := range short.Frequencies {
		rational(f)
	}
}

func TestAC0Cases(t *testing.T) {
	for _, tc := range ac0Cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rng := testkit.CaseRand(1, tc.name)
			d := regextest.DFA(t, tc.alpha, tc.re)
			c, err := automata.Classify(nil, d)
			if err != nil {
				t.Fatal(err)
			}
			if c.StarFree || !c.AC0 {
				t.Fatalf("%s: star-free %v, AC0 %v: not a case for this test", tc.re, c.StarFree, c.AC0)
			}
			res, err := ac0.DFAToBRASP(nil, d)
			if err != nil {
				t.Fatal(err)
			}
			if res.StabilityIndex != c.StabilityIndex {
				t.Errorf("stability index %d, classify says %d", res.StabilityIndex, c.StabilityIndex)
			}
			checkProgram(t, d, res.Program, 8, rng)
			m := checkModel(t, d, res.Program, 6, rng, true)
			t.Logf("%s: s=%d |T_s|=%d block states=%d images=%d levels=%d vectors=%d layers=%d width=%d",
				tc.name, res.StabilityIndex, res.BlockAlphabet, res.BlockStates, res.Images, res.CascadeLevels,
				len(res.Program.Vectors), len(m.Layers), m.Width)
		})
	}
}

// TestRefusesExactlyNotAC0 runs the construction on languages of every
// class: it succeeds exactly when classify says AC0, and its refusal carries
// a witness that the DFA confirms.
func TestRefusesExactlyNotAC0(t *testing.T) {
	cases := []struct{ alpha, re string }{
		{"a b", "(b*ab*a)*b*"}, // even number of a's: PARITY
		{"a b", "((a|b)(a|b))*"},
		{"a b", "(ab)*"},
		{"a b", "a*b*"},
		{"a b c", "(a*ba*b)*a* & (..)*"},
		{"a b", "(b*ab*ab*ab*)*"}, // MOD 3 counting of a's
		{"a b", "((aa)*b)*"},
	}
	for _, tc := range cases {
		d := regextest.DFA(t, tc.alpha, tc.re)
		checkRefusal(t, tc.re, d)
	}
	// 200 random DFAs, in four parallel chunks of 50.
	for chunk := range 4 {
		t.Run(fmt.Sprintf("random%d", chunk), func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(3, 4+uint64(chunk)))
			for range 50 {
				checkRefusal(t, "random", randomDFA(rng, 2+rng.IntN(5), 2))
			}
		})
	}
}

func checkRefusal(t *testing.T, name string, d *automata.DFA) {
	t.Helper()
	c, err := automata.Classify(nil, d)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ac0.DFAToBRASP(nil, d)
	var notAC0 *ac0.NotAC0Error
	switch {
	case c.AC0 && err != nil:
		t.Fatalf("%s: classify says AC0 but the construction fails: %v", name, err)
	case !c.AC0 && !errors.As(err, &notAC0):
		t.Fatalf("%s: classify says not AC0 but the construction gives %v, %v", name, res, err)
	case !c.AC0:
		checkWitness(t, notAC0.Classification)
		if !strings.Contains(err.Error(), "not in AC0") {
			t.Errorf("refusal message %q", err)
		}
	default:
		dp, err := exact.ProgramDFA(nil, res.Program)
		if err != nil {
			t.Fatalf("%s (s = %d, |T_s| = %d, star-free %v, %d states): %v\n%s", name, res.StabilityIndex, res.BlockAlphabet, c.StarFree, c.Minimal.NumStates(), err, automata.Format(c.Minimal))
		}
		if eq, _, _, _ := exact.Equivalent(dp, d); !eq {
			t.Fatalf("%s: program not equivalent", name)
		}
	}
}

// checkWitness runs the minimal DFA on u·w^n·v for n = 0..2·period.
func checkWitness(t *testing.T, c *automata.Classification) {
	t.Helper()
	w := c.NotAC0By
	if w == nil {
		t.Fatal("no witness")
	}
	if len(w.Word) != c.StabilityIndex || w.Period < 2 {
		t.Fatalf("witness word of length %d (stability index %d), period %d", len(w.Word), c.StabilityIndex, w.Period)
	}
	for n := range 2*w.Period + 1 {
		word := append([]int(nil), w.Prefix...)
		for range n {
			word = append(word, w.Word...)
		}
		word = append(word, w.Suffix...)
		got := c.Minimal.Accepts(word)
		switch n % w.Period {
		case 0:
			if got != w.AcceptedAtZero {
				t.Fatalf("witness: n = %d accepted %v", n, got)
			}
		case 1:
			if got == w.AcceptedAtZero {
				t.Fatalf("witness: n = %d accepted %v", n, got)
			}
		}
	}
}

// randomDFA is automata.RandomDFA over the letters a, b, ... (k of them).
func randomDFA(rng *rand.Rand, n, k int) *automata.DFA {
	return automata.RandomDFA(rng, testkit.Letters(k), n)
}

// randomPositional returns a random DFA that also counts its position
// modulo m: state (q, c) reads a to (f_c(q, a), c+1 mod m), with f_c a
// random function; those whose classification is AC0 but not star-free
// are the cases of TestRandom.
func randomPositional(rng *rand.Rand, states, m, k int, extensive bool) *automata.DFA {
	a, _ := alphabet.New([]string{"a", "b", "c", "d"}[:k]...)
	d := automata.NewDFA(a, states*m)
	f := make([][][]int, m)
	for c := range m {
		f[c] = make([][]int, states)
		for q := range states {
			f[c][q] = make([]int, k)
			for x := range k {
				// Extensive maps (f(q) ≥ q, here q or q+1) compose to extensive maps, so
				// the blocks act aperiodically and the language is in AC0;
				// otherwise mostly resets, so that it tends to be.
				if extensive {
					f[c][q][x] = min(states-1, q+rng.IntN(2))
				} else if rng.IntN(3) == 0 {
					f[c][q][x] = q
				} else {
					f[c][q][x] = rng.IntN(states)
				}
			}
		}
	}
	for q := range states {
		for c := range m {
			s := q*m + c
			d.Accept[s] = rng.IntN(2) == 0
			for x := range k {
				d.Delta[s][x] = f[c][q][x]*m + (c+1)%m
			}
		}
	}
	return d
}

// randomAC0 draws random DFAs until one is classified AC0 but not
// star-free, with a minimal DFA of between minStates and maxStates states.
// With extensiveOnly, every draw has extensive maps beside the counter
// (fast to classify, always in AC0).
func randomAC0(t testing.TB, rng *rand.Rand, minStates, maxStates int, extensiveOnly bool) (*automata.DFA, int) {
	for tries := 1; ; tries++ {
		m := 2 + rng.IntN(3)
		extensive := extensiveOnly || rng.IntN(2) == 0
		states := 1 + rng.IntN(max(1, maxStates/m))
		if extensive {
			states = max(1, (minStates+rng.IntN(maxStates-minStates+1))/m)
		}
		d := randomPositional(rng, states, m, 2+rng.IntN(2), extensive)
		c, err := automata.Classify(nil, d)
		if err != nil {
			continue
		}
		if n := c.Minimal.NumStates(); c.AC0 && !c.StarFree && n >= minStates && n <= maxStates {
			return c.Minimal, tries
		}
		if tries > 100000 {
			t.Fatal("no random AC0 DFA found")
		}
	}
}

func TestRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	n := 40
	if testing.Short() {
		n = 10
	}
	for k := range n {
		d, _ := randomAC0(t, rng, 2, 10, false)
		res, err := ac0.DFAToBRASP(nil, d)
		if err != nil {
			t.Fatalf("random DFA %d:\n%s\n%v", k, automata.Format(d), err)
		}
		t.Logf("random %d: %d states, s=%d |T_s|=%d vectors=%d", k, d.NumStates(), res.StabilityIndex, res.BlockAlphabet, len(res.Program.Vectors))
		checkProgram(t, d, res.Program, 7, rng)
		if k < 6 && len(res.Program.Vectors) <= 40 {
			checkModel(t, d, res.Program, 5, rng, true)
		}
	}
}

func ExampleDFAToBRASP() {
	a, _ := alphabet.New("a", "b")
	r, _ := regex.ParseExpr(a, "(aa)*")
	d, _ := r.DFA(nil)
	res, _ := ac0.DFAToBRASP(nil, d)
	fmt.Printf("stability index %d\n%s", res.StabilityIndex, brasp.Format(res.Program))
	// Output:
	// stability index 2
	// Q_a(i)
	// Q_b(i)
	// MOD_1_2(i)
	// H1_0(i) := MOD_1_2(i) & Q_a(i)
	// G1_0(i) := rightmost [j<i, 1] H1_0(j) : 0
	// MOD_0_2(i)
	// H2_0(i) := MOD_0_2(i) & (G1_0(i) & Q_a(i))
	// BL1_1(i) := rightmost [j<i, MOD_0_2(j) & !H2_0(j)] 0 : 1
	// BA_q0(i) := BL1_1(i)
	// S_d0(i) := BA_q0(i) & H2_0(i)
	// Y(i) := MOD_0_2(i) & S_d0(i)
}
