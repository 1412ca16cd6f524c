package nonstrict_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/regex"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/exact"
	"github.com/brasp-dev/brasp/examples"
	"github.com/brasp-dev/brasp/ltl"
	"github.com/brasp-dev/brasp/ltl/nonstrict"
)

var forms = []nonstrict.Masks{nonstrict.NonStrict, nonstrict.Causal}

// input is one language under test, in the representation it came in.
type input struct {
	name    string
	dfa     *automata.DFA // its DFA (ε may be accepted: ignored)
	formula *ltl.Formula  // set for .ltl input
	program *brasp.Program
}

// convert runs the converter for the input's kind.
func (in input) convert(m nonstrict.Masks) (*ltl.Formula, error) {
	opts := nonstrict.Options{Masks: m}
	switch {
	case in.formula != nil:
		return nonstrict.FromFormula(nil, in.formula, opts)
	case in.program != nil:
		return nonstrict.FromProgram(nil, in.program, opts)
	}
	return nonstrict.FromDFA(nil, in.dfa, opts)
}

// checkEquivalent fails unless d and e accept the same non-empty words.
func checkEquivalent(t *testing.T, what string, d, e *automata.DFA) {
	t.Helper()
	eq, w, aAcc, err := exact.Equivalent(d, e)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if !eq {
		t.Errorf("%s: not equivalent on %s (input accepts: %v)", what, automata.ShowWord(automata.MergeAlphabets(d.Alphabet, e.Alphabet), w), aAcc)
	}
}

// checkInput converts in into both forms when its language is
// stutter-invariant and star-free, and checks the formula, the program and
// the transformer exactly against the input; otherwise it checks the
// refusal and its witness against classify. It returns whether the
// language was accepted for conversion.
func checkInput(t *testing.T, in input, models bool) bool {
	t.Helper()
	c, err := automata.Classify(nil, in.dfa)
	if err != nil {
		t.Fatalf("%s: classify: %v", in.name, err)
	}
	ok := c.StarFree && c.StutterInvariant
	for _, m := range forms {
		f, err := in.convert(m)
		if !ok {
			checkRefusal(t, in, c, m, err)
			continue
		}
		if err != nil {
			t.Fatalf("%s --masks %s: %v", in.name, m, err)
		}
		checkOutput(t, fmt.Sprintf("%s --masks %s", in.name, m), in.dfa, f, m, models)
	}
	return ok
}

// checkOutput checks the three forms of one output exactly against d.
func checkOutput(t *testing.T, what string, d *automata.DFA, f *ltl.Formula, m nonstrict.Masks, models bool) {
	t.Helper()
	if err := nonstrict.CheckFormula(f, m); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	fd, err := exact.FormulaDFA(nil, f)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	checkEquivalent(t, what+" (ltl)", d, fd)
	p, err := nonstrict.ToProgram(f, m)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	checkProgramMasks(t, what, p, m)
	pd, err := exact.ProgramDFA(nil, p)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	checkEquivalent(t, what+" (brasp)", d, pd)
	if p.AttentionDepth() != f.Depth() {
		t.Errorf("%s: attention depth %d, temporal depth %d", what, p.AttentionDepth(), f.Depth())
	}
	if models {
		checkModel(t, what, d, p, m)
	}
}

// checkProgramMasks prints p, parses it back (what a user of the output
// reads) and checks the masks of the parsed program.
func checkProgramMasks(t *testing.T, what string, p *brasp.Program, m nonstrict.Masks) {
	t.Helper()
	q, err := brasp.Parse("out.brasp", []byte(brasp.Format(p)))
	if err != nil {
		t.Fatalf("%s: the output does not parse: %v", what, err)
	}
	if err := nonstrict.CheckProgram(q, m); err != nil {
		t.Errorf("%s: %v", what, err)
	}
	for _, v := range q.Vectors {
		if v.Kind != brasp.AttentionVector {
			continue
		}
		text := brasp.FormatVector(v)
		allowed := strings.Contains(text, "rightmost [j<=i,")
		if m == nonstrict.NonStrict {
			allowed = allowed || strings.Contains(text, "[j<=i,") || strings.Contains(text, "[i<=j,")
		}
		if !allowed {
			t.Errorf("%s: operation %s is not allowed with --masks %s", what, text, m)
		}
	}
}

// checkRefusal checks that err is the refusal classify predicts, with the
// witness worded as classify words it and true of the input.
func checkRefusal(t *testing.T, in input, c *automata.Classification, m nonstrict.Masks, err error) {
	t.Helper()
	var na *nonstrict.NotApplicableError
	if !errors.As(err, &na) {
		t.Fatalf("%s --masks %s: got %v, want a refusal", in.name, m, err)
	}
	alpha := c.Minimal.Alphabet
	var want string
	var yes, no []int
	if w := c.NotStarFreeBy; w != nil {
		want = "not star-free: " + w.Describe(alpha)
		yes, no = w.Words()
		if !w.AcceptedAtZero {
			yes, no = no, yes
		}
	} else {
		want = "not stutter-invariant: " + c.NotStutterBy.Describe(alpha)
		yes, no = c.NotStutterBy.Words()
	}
	if !strings.HasPrefix(err.Error(), want+";") {
		t.Errorf("%s: refusal %q, want it to start with %q", in.name, err, want)
	}
	if !strings.Contains(c.Format(), strings.TrimPrefix(strings.TrimPrefix(want, "not star-free: "), "not stutter-invariant: ")) {
		t.Errorf("%s: classify does not word the witness as %q:\n%s", in.name, want, c.Format())
	}
	if !in.dfa.Accepts(yes) || in.dfa.Accepts(no) {
		t.Errorf("%s: witness fails: %v accepted %v, %v accepted %v", in.name, yes, in.dfa.Accepts(yes), no, in.dfa.Accepts(no))
	}
}

// loadExample reads one embedded example as an input.
func loadExample(t *testing.T, name string) (input, bool) {
	t.Helper()
	src, err := examples.Source(name)
	if err != nil {
		t.Fatal(err)
	}
	in := input{name: name}
	switch path.Ext(name) {
	case ".brasp":
		var p *brasp.Program
		if p, err = brasp.Parse(name, src); err != nil {
			t.Fatal(err)
		}
		if p.IsTransducer() {
			return in, false
		}
		in.program = p
		in.dfa, err = exact.ProgramDFA(nil, p)
	case ".ltl":
		in.formula, err = ltl.ParseFile(name, src)
		if err != nil {
			t.Fatal(err)
		}
		in.dfa, err = exact.FormulaDFA(nil, in.formula)
	case ".re":
		var r *regex.Regex
		if r, err = regex.Parse(name, src); err == nil {
			in.dfa, err = r.DFA(nil)
		}
	case ".dfa":
		in.dfa, err = automata.Parse(name, src)
	default:
		return in, false
	}
	if errors.Is(err, exact.ErrNotRegular) {
		return in, false // Mid: no DFA, nothing to convert
	}
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return in, true
}

// TestExamples converts every embedded example whose language is
// stutter-invariant and star-free, in both forms, and checks the refusal
// of every other one.
func TestExamples(t *testing.T) {
	converted := 0
	for _, name := range examples.AllNames() {
		in, ok := loadExample(t, name)
		if !ok {
			continue
		}
		start := time.Now()
		if checkInput(t, in, true) {
			converted++
			t.Logf("%s: converted (%v)", name, time.Since(start))
		}
	}
	if converted < 2 {
		t.Errorf("only %d examples are stutter-invariant and star-free", converted)
	}
}

// TestLiterature: the shapes of the stutter-invariance literature.
func TestLiterature(t *testing.T) {
	for _, c := range []struct {
		alpha, re string
		yes       bool
	}{
		{"a b", "(a+b+)+", true},
		{"a b", "(a+b+)*", true},
		{"a b", ".*a.*b.*", true},
		{"a b c", ".*a.*b.*c.*", true},
		{"a b c d", ".*a.*b.*c.*d.*", true},
		{"a b c", "~(.*a.*b.*) & .*c.*", true},
		{"a b c", "(a|b)*c+(a|b)*", true},
		{"a b", "(a|b)*", true},
		{"a b c", "((a|b)+c+)+", true},
		{"a b", "a+b+a+", true},
		{"a b", "(ab)+", false},
		{"a b", "(aa)*", false},
		{"a b", "a.*", true},
		{"a b", ".*b", true},
		{"a b", "a*", true},
		{"a b", "b*a", false},
		{"a b", "~(.*aa.*)", false},
	} {
		alpha := alphabet.Alphabet(strings.Fields(c.alpha))
		r, err := regex.ParseExpr(alpha, c.re)
		if err != nil {
			t.Fatal(err)
		}
		d, err := r.DFA(nil)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		got := checkInput(t, input{name: c.re, dfa: d}, true)
		t.Logf("%s: %v", c.re, time.Since(start))
		if got != c.yes {
			t.Errorf("%s: converted %v, want %v", c.re, got, c.yes)
		}
	}
}

// randomRegex draws a regular expression over k letters with about size
// operators, using complement as often as star so that many are star-free.
func randomRegex(rng *rand.Rand, k, size int) *regex.Node {
	if size <= 1 {
		switch rng.IntN(6) {
		case 0:
			return &regex.Node{Op: regex.OpAny}
		case 1:
			return regex.Star(&regex.Node{Op: regex.OpAny})
		}
		return regex.Sym(rng.IntN(k))
	}
	switch rng.IntN(7) {
	case 0:
		return regex.Plus(randomRegex(rng, k, size-1))
	case 1:
		return regex.Compl(randomRegex(rng, k, size-1))
	case 2:
		return regex.Star(randomRegex(rng, k, size-1))
	}
	l := 1 + rng.IntN(size-1)
	x, y := randomRegex(rng, k, l), randomRegex(rng, k, size-l)
	switch rng.IntN(3) {
	case 0:
		return regex.Union(x, y)
	case 1:
		return regex.Inter(x, y)
	}
	return regex.Concat(x, y)
}

// TestRandomRegexes converts random regular expressions: the
// stutter-invariant star-free ones in both forms, checked exactly; the
// others refused exactly as classify says.
func TestRandomRegexes(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 3))
	yes, no := 0, 0
	for k := 0; yes < 25 || no < 25; k++ {
		if k > 2000 {
			t.Fatalf("only %d convertible and %d refused random regexes in %d", yes, no, k)
		}
		alpha := brasptest.Alphabet(2 + k%2)
		r := &regex.Regex{Alphabet: alpha, Root: randomRegex(rng, len(alpha), 2+rng.IntN(7))}
		d, err := r.DFA(nil)
		if err != nil {
			t.Fatal(err)
		}
		if m, err := automata.Minimize(nil, d); err != nil || m.NumStates() < 3 {
			continue // trivial languages
		}
		c, err := automata.Classify(nil, d)
		if err != nil {
			t.Fatal(err)
		}
		good := c.StarFree && c.StutterInvariant
		if good && yes >= 25 || !good && no >= 25 {
			continue
		}
		if checkInput(t, input{name: regex.FormatExpr(r), dfa: d}, yes < 8) {
			yes++
		} else {
			no++
		}
		if t.Failed() {
			return
		}
	}
}

// TestRandomStutterInvariant: the languages of random formulas with only
// non-strict operators are stutter-invariant (T is the identity on them, up
// to first/last) and star-free; their minimal DFAs go the Krohn–Rhodes
// route, and the formulas themselves the direct one.
func TestRandomStutterInvariant(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 4))
	ops1 := []ltl.Op{ltl.OpNot, ltl.OpOnce, ltl.OpHistorically, ltl.OpEventually, ltl.OpGlobally}
	ops2 := []ltl.Op{ltl.OpAnd, ltl.OpOr, ltl.OpSinceNS, ltl.OpUntilNS}
	var gen func(pool *ltl.Pool, size int) *ltl.Formula
	gen = func(pool *ltl.Pool, size int) *ltl.Formula {
		if size <= 1 {
			return pool.Symbol(rng.IntN(len(pool.Alphabet())))
		}
		if rng.IntN(3) == 0 {
			return pool.Unary(ops1[rng.IntN(len(ops1))], gen(pool, size-1))
		}
		l := 1 + rng.IntN(size-1)
		return pool.Binary(ops2[rng.IntN(len(ops2))], gen(pool, l), gen(pool, size-l))
	}
	for k := 0; k < 20; k++ {
		pool := ltl.NewPool(brasptest.Alphabet(2 + k%2))
		f := gen(pool, 3+rng.IntN(6))
		d, err := exact.FormulaDFA(nil, f)
		if err != nil {
			t.Fatal(err)
		}
		name := ltl.Format(f)
		if !checkInput(t, input{name: name + " (dfa)", dfa: d}, k < 4) {
			t.Fatalf("%s: refused", name)
		}
		checkInput(t, input{name: name, dfa: d, formula: f}, false)
		if t.Failed() {
			return
		}
	}
}

// randomDFA is automata.RandomDFA over the letters a, b, ... (k of them).
func randomDFA(rng *rand.Rand, n, k int) *automata.DFA {
	return automata.RandomDFA(rng, brasptest.Alphabet(k), n)
}

// TestRandomDFAs: refusal exactly when classify says no, on random DFAs
// (most of which are neither star-free nor stutter-invariant).
func TestRandomDFAs(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 5))
	yes := 0
	for k := range 150 {
		d := randomDFA(rng, 2+rng.IntN(4), 2+k%2)
		if checkInput(t, input{name: fmt.Sprintf("random DFA %d", k), dfa: d}, false) {
			yes++
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("%d of 150 random DFAs converted", yes)
}
