package brasp

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/internal/testkit"
	"github.com/brasp-dev/brasp/position"
)

// --- a small random-program generator, local to this package's tests ---

// symbolPool holds the symbols random programs draw their alphabets from,
// including multi-character and quoted ones.
var symbolPool = []string{"a", "b", "c", "ab", "#", "(", ")", "x y", "?"}

// genProgram builds a random checked program with about nops operations:
// every tie-break, every mask (strict and non-strict), scores and values
// mixing (i) and (j), position predicates, and acceptor or transducer
// outputs. It uses the Builder, so it also exercises Builder.Program.
func genProgram(t testing.TB, rng *rand.Rand, nops int) *Program {
	t.Helper()
	nsym := 1 + rng.IntN(3)
	var syms []string
	if rng.IntN(3) == 0 {
		for _, k := range rng.Perm(len(symbolPool))[:nsym] {
			syms = append(syms, symbolPool[k])
		}
	} else {
		syms = []string{"a", "b", "c"}[:nsym]
	}
	alpha, err := alphabet.New(syms...)
	if err != nil {
		t.Fatal(err)
	}
	b := NewBuilder(alpha)
	preds := []Predicate{{Kind: First}, {Kind: Last}, {Kind: Mid}, {Kind: Mod, R: 1, M: 2}, {Kind: Mod, R: 0, M: 3}}
	for _, pr := range preds {
		if rng.IntN(3) == 0 {
			b.Predicate(pr)
		}
	}
	var expr func(depth int, allowJ bool) Expr
	expr = func(depth int, allowJ bool) Expr {
		switch r := rng.IntN(10); {
		case depth <= 0 || r < 4:
			if rng.IntN(12) == 0 {
				return Bool(rng.IntN(2) == 0)
			}
			k := rng.IntN(b.Len())
			if allowJ && rng.IntN(2) == 0 {
				return b.J(k)
			}
			return b.I(k)
		case r < 6:
			return Not(expr(depth-1, allowJ))
		case r < 8:
			return And(expr(depth-1, allowJ), expr(depth-1, allowJ))
		default:
			return Or(expr(depth-1, allowJ), expr(depth-1, allowJ))
		}
	}
	names := []string{"P", "A", "Y", "S_r", "X?", "P_A", "P_V1", "P_0", "P_1"}
	for n := 0; n < nops; n++ {
		name := names[rng.IntN(len(names))]
		if rng.IntN(3) == 0 {
			b.Positionwise(name, expr(3, false))
			continue
		}
		tb := position.Tiebreak(rng.IntN(2))
		m := position.Masks[rng.IntN(len(position.Masks))]
		b.Attend(name, tb, m, expr(3, true), expr(3, true), expr(2, false))
	}
	switch rng.IntN(6) {
	case 0:
		b.SetAccept(rng.IntN(b.Len()))
	case 1:
		out, _ := alphabet.New("x", "y", "#")
		var vecs []int
		for range out {
			vecs = append(vecs, rng.IntN(b.Len()))
		}
		b.SetTransducer(out, vecs)
	}
	p, err := b.Program()
	if err != nil {
		t.Fatalf("generated program does not validate: %v", err)
	}
	return p
}

func randomWords(rng *rand.Rand, k, count, maxLen int) [][]int {
	out := make([][]int, count)
	for c := range out {
		w := make([]int, 1+rng.IntN(maxLen))
		for i := range w {
			w[i] = rng.IntN(k)
		}
		out[c] = w
	}
	return out
}

// testWords is the word set of an equivalence test: all words up to length
// maxLen and some random words up to length 200.
func testWords(rng *rand.Rand, p *Program, maxLen, nrandom int) [][]int {
	return append(testkit.Words(len(p.Alphabet), 1, maxLen), randomWords(rng, len(p.Alphabet), nrandom, 200)...)
}

// referenceTraces runs p on every word with the reference interpreter, once,
// for the several comparisons of checkNormalForms.
func referenceTraces(p *Program, words [][]int) []*Trace {
	out := make([]*Trace, len(words))
	for k, w := range words {
		out[k] = p.RunReference(w)
	}
	return out
}

// assertEquivalentTraces checks that got computes, on every word, the same
// output as want and the same values for every vector of want (which got
// must keep under the same name). want's traces come from the reference
// interpreter (the definition); the fast one runs got, so the test also
// exercises it on the new shapes of programs.
func assertEquivalentTraces(t *testing.T, what string, want, got *Program, words [][]int, traces []*Trace) {
	t.Helper()
	if err := Validate(got); err != nil {
		t.Fatalf("%s: result does not validate: %v\n%s", what, err, Format(got))
	}
	if !got.Alphabet.Equal(want.Alphabet) {
		t.Fatalf("%s: alphabet %v, want %v", what, got.Alphabet, want.Alphabet)
	}
	kept := make([]int, len(want.Vectors))
	for k, v := range want.Vectors {
		if kept[k] = got.Lookup(v.Name); kept[k] < 0 {
			t.Fatalf("%s: vector %s was dropped\n%s", what, v.Name, Format(got))
		}
	}
	// The constructions never deepen a vector: every new operation reads
	// what the original one read.
	for k, v := range want.Vectors {
		if dw, dg := want.Depth(k), got.Depth(kept[k]); dg > dw {
			t.Fatalf("%s: attention depth of %s grew from %d to %d", what, v.Name, dw, dg)
		}
	}
	outputs := func(p *Program) []int {
		if p.IsTransducer() {
			return p.Output.Vectors
		}
		return []int{p.Output.Accept}
	}
	wantOut, gotOut := outputs(want), outputs(got)
	if len(wantOut) != len(gotOut) || want.IsTransducer() != got.IsTransducer() ||
		(want.IsTransducer() && !want.Output.Symbols.Equal(got.Output.Symbols)) {
		t.Fatalf("%s: output %+v, want %+v", what, got.Output, want.Output)
	}
	run := NewRunner(got)
	for n, w := range words {
		tw, tg := traces[n], run.Run(w)
		for k, v := range want.Vectors {
			if !slices.Equal(tw.Bits[k], tg.Bits[kept[k]]) {
				t.Fatalf("%s: vector %s differs on %q: %v, want %v\n--- input\n%s--- result\n%s",
					what, v.Name, want.Alphabet.FormatWord(w), tg.Vector(kept[k]), tw.Vector(k), Format(want), Format(got))
			}
		}
		for o := range wantOut {
			if !slices.Equal(tw.Bits[wantOut[o]], tg.Bits[gotOut[o]]) {
				t.Fatalf("%s: output %d differs on %q\n--- input\n%s--- result\n%s",
					what, o, want.Alphabet.FormatWord(w), Format(want), Format(got))
			}
		}
		if tw.Accept() != tg.Accept() {
			t.Fatalf("%s: acceptance differs on %q", what, want.Alphabet.FormatWord(w))
		}
	}
}

// assertUnaryValue fails unless every value predicate of p reads only (j).
func assertUnaryValue(t *testing.T, what string, p *Program) {
	t.Helper()
	for _, v := range p.Vectors {
		if v.Kind == AttentionVector && UsesVar(v.Att.Value, VarI) {
			t.Fatalf("%s: value of %s reads (i): %s", what, v.Name, FormatVector(v))
		}
	}
}

// assertUnaryScore fails unless every score predicate of p reads only (j).
func assertUnaryScore(t *testing.T, what string, p *Program) {
	t.Helper()
	for _, v := range p.Vectors {
		if v.Kind == AttentionVector && UsesVar(v.Att.Score, VarI) {
			t.Fatalf("%s: score of %s reads (i): %s", what, v.Name, FormatVector(v))
		}
	}
}

// assertRoundTrip checks that the printed program parses back.
func assertRoundTrip(t *testing.T, what string, p *Program) {
	t.Helper()
	src := Format(p)
	q, err := Parse(what, []byte(src))
	if err != nil {
		t.Fatalf("%s: printed program does not parse: %v\n%s", what, err, src)
	}
	if diff := diffPrograms(p, q); diff != "" {
		t.Fatalf("%s: printed program parses to a different program: %s\n%s", what, diff, src)
	}
}

func examplePrograms(t *testing.T) map[string]*Program {
	t.Helper()
	files, err := filepath.Glob("../examples/*.brasp")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples found: %v", err)
	}
	out := map[string]*Program{}
	for _, f := range files {
		out[filepath.Base(f)] = testkit.Load(t, f, Parse)
	}
	return out
}

const scoreLimit = 1 << 12

// normalForms applies each transformation to p and checks it.
func checkNormalForms(t *testing.T, name string, p *Program, words [][]int) (uv, us, both *Program) {
	t.Helper()
	traces := referenceTraces(p, words)
	uv = UnaryValue(p)
	assertUnaryValue(t, name+" UnaryValue", uv)
	assertEquivalentTraces(t, name+" UnaryValue", p, uv, words, traces)
	assertRoundTrip(t, name+" UnaryValue", uv)

	us, err := UnaryScore(budget.New(context.Background(), budget.Settings{"unary-score-copies": scoreLimit}), p)
	if err != nil {
		t.Fatalf("%s UnaryScore: %v", name, err)
	}
	assertUnaryScore(t, name+" UnaryScore", us)
	assertEquivalentTraces(t, name+" UnaryScore", p, us, words, traces)
	assertRoundTrip(t, name+" UnaryScore", us)

	both, err = UnaryScore(budget.New(context.Background(), budget.Settings{"unary-score-copies": scoreLimit}), uv)
	if err != nil {
		t.Fatalf("%s UnaryScore∘UnaryValue: %v", name, err)
	}
	assertUnaryValue(t, name+" both", both)
	assertUnaryScore(t, name+" both", both)
	assertEquivalentTraces(t, name+" both", p, both, words, traces)

	s := Simplify(both)
	if s.Output.Accept >= 0 || s.IsTransducer() {
		// Simplify drops dead vectors; compare outputs only.
		assertSameOutput(t, name+" Simplify", p, s, words)
	}
	return uv, us, both
}

// assertSameOutput checks that two programs over the same alphabet agree on
// their output vectors (which need not have the same names).
func assertSameOutput(t *testing.T, what string, want, got *Program, words [][]int) {
	t.Helper()
	if err := Validate(got); err != nil {
		t.Fatalf("%s: result does not validate: %v", what, err)
	}
	run := NewRunner(got)
	for _, w := range words {
		tw, tg := want.RunReference(w), run.Run(w)
		if want.IsTransducer() {
			for o := range want.Output.Vectors {
				if !slices.Equal(tw.Bits[want.Output.Vectors[o]], tg.Bits[got.Output.Vectors[o]]) {
					t.Fatalf("%s: output %d differs on %q", what, o, want.Alphabet.FormatWord(w))
				}
			}
		} else if !slices.Equal(tw.Bits[want.Output.Accept], tg.Bits[got.Output.Accept]) {
			t.Fatalf("%s: output differs on %q\n%s---\n%s", what, want.Alphabet.FormatWord(w), Format(want), Format(got))
		}
	}
}

func TestNormalFormsExamples(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for name, p := range examplePrograms(t) {
		t.Run(name, func(t *testing.T) {
			maxLen := 7
			if len(p.Alphabet) > 3 {
				maxLen = 5
			}
			words := testWords(rng, p, maxLen, 20)
			uv, us, both := checkNormalForms(t, name, p, words)
			t.Logf("%s: %d vectors; UnaryValue %d; UnaryScore %d; both %d; both+Simplify %d",
				name, len(p.Vectors), len(uv.Vectors), len(us.Vectors), len(both.Vectors), len(Simplify(both).Vectors))
		})
	}
}

func TestNormalFormsRandom(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 60
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for c := 0; c < n; c++ {
		p := genProgram(t, rng, 1+rng.IntN(8))
		maxLen := 7
		if len(p.Alphabet) == 3 {
			maxLen = 5
		}
		words := testWords(rng, p, maxLen, 3)
		checkNormalForms(t, fmt.Sprintf("random program %d", c), p, words)
	}
}

// TestNormalFormsKinds covers each attention kind (both tie-breaks, every
// mask) with a value and a score that mix (i) and (j), and position
// predicates, exhaustively.
func TestNormalFormsKinds(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, tb := range []string{"leftmost", "rightmost"} {
		for _, m := range []string{"1", "j<i", "i<j", "j<=i", "i<=j"} {
			src := fmt.Sprintf(`Q_a(i)
Q_b(i)
first(i)
last(i)
MOD_0_2(i)
B(i) := leftmost [i<j, 1] Q_a(j) : last(i)
P(i) := %s [%s, Q_a(i) & Q_b(j) | !Q_a(i) & B(j) | MOD_0_2(i) & first(j)] Q_a(i) & B(j) | !(B(i) | Q_b(j)) : B(i) | first(i)
`, tb, m)
			p, err := Parse("kinds", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			checkNormalForms(t, tb+" "+m, p, testWords(rng, p, 7, 10))
		}
	}
}

// TestUnaryValueShape checks the construction of Prop. B.1 on one operation.
func TestUnaryValueShape(t *testing.T) {
	p, err := Parse("v", []byte(`Q_a(i)
Q_b(i)
P(i) := rightmost [j<i, Q_b(j)] Q_a(i) & Q_a(j) | !Q_b(j) : Q_b(i)
P_A(i) := P(i)
`))
	if err != nil {
		t.Fatal(err)
	}
	got := Format(UnaryValue(p))
	want := `Q_a(i)
Q_b(i)
P_A_1(i) := rightmost [j<i, Q_b(j)] 1 : 0
P_V1(i) := rightmost [j<i, Q_b(j)] Q_a(j) : 0
P_V2(i) := rightmost [j<i, Q_b(j)] !Q_b(j) : 0
P(i) := (P_A_1(i) & ((Q_a(i) & P_V1(i)) | P_V2(i))) | (!P_A_1(i) & Q_b(i))
P_A(i) := P(i)
`
	if got != want {
		t.Errorf("UnaryValue:\n%s\nwant\n%s", got, want)
	}
}

// TestUnaryScoreShape checks the construction of Lemma B.2 on one operation.
func TestUnaryScoreShape(t *testing.T) {
	p, err := Parse("s", []byte(`Q_a(i)
Q_b(i)
P(i) := leftmost [i<=j, Q_a(i) & Q_b(j) | !Q_b(i) & Q_a(j)] Q_a(j) : Q_b(i)
`))
	if err != nil {
		t.Fatal(err)
	}
	q, err := UnaryScore(budget.New(context.Background(), budget.Settings{"unary-score-copies": 4}), p)
	if err != nil {
		t.Fatal(err)
	}
	want := `Q_a(i)
Q_b(i)
P_00(i) := leftmost [i<=j, Q_a(j)] Q_a(j) : Q_b(i)
P_01(i) := leftmost [i<=j, 0] Q_a(j) : Q_b(i)
P_10(i) := leftmost [i<=j, Q_b(j) | Q_a(j)] Q_a(j) : Q_b(i)
P_11(i) := leftmost [i<=j, Q_b(j)] Q_a(j) : Q_b(i)
P(i) := (P_00(i) & !Q_a(i) & !Q_b(i)) | (P_01(i) & !Q_a(i) & Q_b(i)) | (P_10(i) & Q_a(i) & !Q_b(i)) | (P_11(i) & Q_a(i) & Q_b(i))
`
	if got := Format(q); got != want {
		t.Errorf("UnaryScore:\n%s\nwant\n%s", got, want)
	}
}

func TestUnaryScoreLimit(t *testing.T) {
	src := `Q_a(i)
Q_b(i)
B(i) := Q_a(i) | Q_b(i)
P(i) := leftmost [1, Q_a(i) & Q_b(j) | B(i) & Q_a(j) | Q_b(i)] Q_a(j) : 0
R(i) := rightmost [1, Q_a(i) | B(i) & Q_a(j) | P(i)] Q_a(j) : 0
`
	p, err := Parse("limit", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		limit int
		want  string
	}{
		{0, "the unary-score normal form (operation P reads 3 vectors at i: 2^3 copies) exceeds the limit unary-score-copies=0 operations (needs 8) (raise it with --limit unary-score-copies=N)"},
		{7, "the unary-score normal form (operation P reads 3 vectors at i: 2^3 copies) exceeds the limit unary-score-copies=7 operations (needs 8) (raise it with --limit unary-score-copies=N)"},
		{8, "the unary-score normal form (operation R reads 3 vectors at i: 2^3 copies) exceeds the limit unary-score-copies=8 operations (needs 16) (raise it with --limit unary-score-copies=N)"},
		{15, "the unary-score normal form (operation R reads 3 vectors at i: 2^3 copies) exceeds the limit unary-score-copies=15 operations (needs 16) (raise it with --limit unary-score-copies=N)"},
		{16, ""},
	}
	for _, c := range cases {
		q, err := UnaryScore(budget.New(context.Background(), budget.Settings{"unary-score-copies": int64(c.limit)}), p)
		if c.want == "" {
			if err != nil {
				t.Errorf("limit %d: %v", c.limit, err)
			} else if n := len(q.Vectors); n != len(p.Vectors)+16 {
				t.Errorf("limit %d: %d vectors, want %d", c.limit, n, len(p.Vectors)+16)
			}
			continue
		}
		if err == nil || err.Error() != c.want {
			t.Errorf("limit %d: error %v, want %q", c.limit, err, c.want)
		}
		if !errors.Is(err, budget.ErrLimit) {
			t.Errorf("limit %d: %v does not match budget.ErrLimit", c.limit, err)
		}
		if q != nil {
			t.Errorf("limit %d: returned a program with the error", c.limit)
		}
	}

	// A score with 70 (i)-atoms must fail at once, not overflow or hang.
	var b strings.Builder
	b.WriteString("Q_a(i)\n")
	var atoms []string
	for k := 0; k < 70; k++ {
		fmt.Fprintf(&b, "A%d(i) := Q_a(i)\n", k)
		atoms = append(atoms, fmt.Sprintf("A%d(i)", k))
	}
	fmt.Fprintf(&b, "P(i) := leftmost [1, %s & Q_a(j)] 1 : 0\n", strings.Join(atoms, " & "))
	big, err := Parse("big", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	_, err = UnaryScore(budget.New(context.Background(), budget.Settings{"unary-score-copies": 1 << 30}), big)
	want := "the unary-score normal form (operation P reads 70 vectors at i: 2^70 copies) exceeds the limit unary-score-copies=1073741824 operations (needs 4611686018427387904) (raise it with --limit unary-score-copies=N)"
	if err == nil || err.Error() != want || !errors.Is(err, budget.ErrLimit) {
		t.Errorf("70 atoms: error %v, want %q", err, want)
	}
	// UnaryValue is linear, so it has no limit; it leaves this op alone.
	if uv := UnaryValue(big); len(uv.Vectors) != len(big.Vectors) {
		t.Errorf("UnaryValue changed an operation whose value reads no (i)")
	}
}

// TestFreshNames checks that new vectors never take a name of the input,
// even a name defined later, and never a Q_ or predicate name.
func TestFreshNames(t *testing.T) {
	p, err := Parse("fresh", []byte(`Q_a(i)
Q_x(i) := leftmost [1, Q_a(i) & Q_a(j)] Q_a(i) : 0
P_"#"(i) := leftmost [j<i, Q_x(i) | Q_a(j)] Q_a(i) & Q_a(j) : 1
VQ_x_A(i) := Q_x(i)
P_"#"_0(i) := P_"#"(i)
`))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	words := testWords(rng, p, 6, 5)
	uv, us, both := checkNormalForms(t, "fresh", p, words)
	for _, q := range []*Program{uv, us, both} {
		for _, v := range q.Vectors {
			if p.Lookup(v.Name) < 0 && (strings.HasPrefix(v.Name, "Q_") || isPredicateName(v.Name) || reserved[v.Name]) {
				t.Errorf("new vector named %s", v.Name)
			}
		}
	}
	if uv.Lookup("VQ_x_A_1") < 0 || us.Lookup(`P_#_0_1`) < 0 {
		t.Errorf("unexpected fresh names:\n%s\n%s", Format(uv), Format(us))
	}
}

func TestDeadCodeAndSimplify(t *testing.T) {
	p, err := Parse("dead", []byte(`Q_a(i)
Q_b(i)
first(i)
last(i)
U(i) := leftmost [1, first(j)] Q_b(j) : 0
D(i) := !U(i) & 1 | 0
E(i) := !!Q_a(i) & (last(i) | 0)
output E
`))
	if err != nil {
		t.Fatal(err)
	}
	dc := DeadCode(p)
	if got, want := Format(dc), "Q_a(i)\nQ_b(i)\nlast(i)\nE(i) := !!Q_a(i) & (last(i) | 0)\noutput E\n"; got != want {
		t.Errorf("DeadCode:\n%s\nwant\n%s", got, want)
	}
	s := Simplify(p)
	if got, want := Format(s), "Q_a(i)\nQ_b(i)\nlast(i)\nE(i) := Q_a(i) & last(i)\noutput E\n"; got != want {
		t.Errorf("Simplify:\n%s\nwant\n%s", got, want)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	words := testWords(rng, p, 6, 5)
	assertSameOutput(t, "DeadCode", p, dc, words)
	assertSameOutput(t, "Simplify", p, s, words)
	if got := Format(p); !strings.Contains(got, "D(i)") {
		t.Errorf("DeadCode modified its input")
	}
}

// TestSimplifyExpr checks constant folding against evaluation on every
// assignment of two variables.
func TestSimplifyExpr(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var gen func(d int) Expr
	gen = func(d int) Expr {
		switch r := rng.IntN(8); {
		case d == 0 || r < 2:
			if rng.IntN(2) == 0 {
				return Bool(rng.IntN(2) == 0)
			}
			k := rng.IntN(2)
			return &Ref{Name: fmt.Sprint(k), Vec: k}
		case r < 4:
			return Not(gen(d - 1))
		case r < 6:
			return And(gen(d-1), gen(d-1))
		}
		return Or(gen(d-1), gen(d-1))
	}
	for c := 0; c < 2000; c++ {
		e := gen(5)
		s := Fold(e)
		for a := 0; a < 4; a++ {
			at := func(vec int, _ Var) bool { return a>>vec&1 == 1 }
			if Eval(e, at) != Eval(s, at) {
				t.Fatalf("simplify(%s) = %s differs at %02b", FormatExpr(e), FormatExpr(s), a)
			}
		}
		Walk(s, func(x Expr) {
			if _, ok := x.(*Literal); ok && x != s {
				t.Fatalf("simplify(%s) = %s keeps a constant inside", FormatExpr(e), FormatExpr(s))
			}
		})
	}
}

// TestNormalFormsDoNotModifyInput checks that the transformations leave
// their input as it was.
func TestNormalFormsDoNotModifyInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for c := 0; c < 50; c++ {
		p := genProgram(t, rng, 6)
		before := Format(p)
		UnaryValue(p)
		if _, err := UnaryScore(budget.New(context.Background(), budget.Settings{"unary-score-copies": scoreLimit}), p); err != nil {
			t.Fatal(err)
		}
		Simplify(p)
		if after := Format(p); after != before {
			t.Fatalf("input modified:\n%s\nbecame\n%s", before, after)
		}
		if err := Validate(p); err != nil {
			t.Fatal(err)
		}
	}
}

// TestUnaryScoreMalformed checks that a malformed program is an error, not
// a panic.
func TestUnaryScoreMalformed(t *testing.T) {
	p, err := Parse("m", []byte("Q_a(i)\nP(i) := leftmost [1, Q_a(i) & Q_a(j)] 1 : 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	p.File = ""
	p.Vectors[1].Att.Score = nil
	if _, err := UnaryScore(budget.New(context.Background(), budget.Settings{"unary-score-copies": 8}), p); err == nil || err.Error() != "P: missing the score" {
		t.Errorf("error %v, want P: missing the score", err)
	}
}
