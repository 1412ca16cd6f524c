package decompile_test

import (
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/brasp/brasptest"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/exact"
	"github.com/brasp-dev/brasp/ltlf"
	"github.com/brasp-dev/brasp/position"
	"github.com/brasp-dev/brasp/transformer"
	"github.com/brasp-dev/brasp/transformer/compile"
	"github.com/brasp-dev/brasp/transformer/decompile"
)

// constructions are the compiler's constructions a model over propositions
// is decompiled from.
var constructions = []compile.Options{{}, {MultiHead: true}, {PositionTables: true}, {MultiHead: true, PositionTables: true}, {LayerNorm: true}}

// viaValuations decompiles a model over at most 12 propositions through its
// model over the valuations, the route the coordinate-wise one replaces.
func viaValuations(t *testing.T, m *transformer.Model, opts decompile.Options) (*brasp.Program, error) {
	t.Helper()
	lm, err := m.OverValuations()
	if err != nil {
		t.Fatal(err)
	}
	p, err := decompile.Decompile(nil, lm, opts)
	if err != nil {
		if !errors.Is(err, budget.ErrLimit) {
			t.Fatal(err)
		}
		return nil, err
	}
	if p, err = brasp.FromValuationLetters(p, m.Props); err != nil {
		t.Fatal(err)
	}
	return p, nil
}

// sameAsValuations checks that p has the language of the valuation route's
// program, when that route is within its default limits (it reports
// whether it was).
func sameAsValuations(t *testing.T, what string, m *transformer.Model, opts decompile.Options, d *symbolic.DFA, show func() string) bool {
	t.Helper()
	q, err := viaValuations(t, m, opts)
	if err != nil {
		t.Logf("%s: the valuation route refuses: %v", what, err)
		return false
	}
	sameLanguage(t, what+": decompiled and through the valuations", d, programDFA(t, q), show)
	return true
}

// programDFA is a program's exact language over its propositions.
func programDFA(t *testing.T, p *brasp.Program) *symbolic.DFA {
	t.Helper()
	d, err := exact.SymbolicProgramDFA(nil, p)
	if err != nil {
		t.Fatalf("%v\n%s", err, brasp.Format(p))
	}
	return d
}

// sameLanguage fails unless a and b accept the same traces.
func sameLanguage(t *testing.T, what string, a, b *symbolic.DFA, show func() string) {
	t.Helper()
	ce, err := symbolic.Compare(nil, a, b)
	if err != nil {
		t.Fatal(err)
	}
	if ce != nil {
		t.Fatalf("%s: they differ on %v (accepted %v, %v)\n%s", what, ce.Trace, ce.AcceptA, ce.AcceptB, show())
	}
}

// agreeOnTraces checks the program against the model's own forward pass on
// n random traces. The traces are words of one model over all their
// distinct steps (Model.OverSteps of the traces end to end), run by one
// Batch (the fast pass, whose verdicts are Runner.Accepts'): the model is
// converted and validated once, not once per trace, and classes met on one
// trace are not recomputed on the next.
func agreeOnTraces(t *testing.T, name string, m *transformer.Model, p *brasp.Program, rng *rand.Rand, n, maxLen int) {
	t.Helper()
	traces := make([][][]uint64, n)
	var all [][]uint64
	for k := range traces {
		traces[k] = brasptest.RandomSteps(rng, len(m.Props), 1+rng.IntN(maxLen))
		all = append(all, traces[k]...)
	}
	lm, word, err := m.OverSteps(all)
	if err != nil {
		t.Fatal(err)
	}
	words := make([][]int, n)
	for k, steps := range traces {
		words[k], word = word[:len(steps)], word[len(steps):]
	}
	r, err := transformer.NewRunner(lm)
	if err != nil {
		t.Fatal(err)
	}
	b := r.NewBatch(transformer.FastOptions{})
	for k, steps := range traces {
		want, err := b.Accept(words[k])
		if err != nil {
			t.Fatal(err)
		}
		if got := p.AcceptsSteps(steps); got != want {
			t.Fatalf("%s on %s: the model says %v, the decompiled program %v\n%s", name,
				traceString(m.Props, steps), want, got, brasp.Format(p))
		}
	}
}

// agreeOnSteps checks the program against the model (its fast pass, or its
// dense pass) on one trace.
func agreeOnSteps(t *testing.T, name string, m *transformer.Model, p *brasp.Program, steps [][]uint64, dense bool) {
	t.Helper()
	lm, w, err := m.OverSteps(steps)
	if err != nil {
		t.Fatal(err)
	}
	accepts := lm.Accepts
	if dense {
		accepts = lm.AcceptsDense
	}
	want, err := accepts(nil, w)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.AcceptsSteps(steps); got != want {
		t.Fatalf("%s on %s: the model says %v, the decompiled program %v\n%s", name,
			traceString(m.Props, steps), want, got, brasp.Format(p))
	}
}

func traceString(props []string, steps [][]uint64) string {
	var parts []string
	for _, s := range steps {
		parts = append(parts, transformer.StepName(props, s))
	}
	return strings.Join(parts, "")
}

// TestPropositionRoutesAgree compiles random programs over 1 to 5
// propositions with every construction and decompiles the model both
// coordinate-wise and through its valuations: both programs and the source
// have the same language, and the program agrees with the model on random
// traces. Models with layer norms are decompiled through the valuations.
func TestPropositionRoutesAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 1))
	routes := map[string]int{}
	for n := range 40 {
		k := 1 + rng.IntN(5)
		src := brasptest.RandomProgram(rng, brasptest.Options{Propositions: k, Ops: 2 + rng.IntN(5), Predicates: n%3 == 0})
		copts := constructions[n%len(constructions)]
		m, err := compile.Compile(nil, src, copts)
		if err != nil {
			t.Fatalf("%v\n%s", err, brasp.Format(src))
		}
		dopts := decompile.Options{Smaller: n%4 == 3}
		p, info, err := decompile.DecompileInfo(nil, m, dopts)
		if err != nil {
			t.Fatalf("%+v: %v\n%s", copts, err, brasp.Format(src))
		}
		want := decompile.RouteCoordinates
		if copts.LayerNorm {
			want = decompile.RouteValuations
		}
		if info.Route != want {
			t.Fatalf("%+v: route %q, want %q", copts, info.Route, want)
		}
		routes[info.Route]++
		show := func() string {
			return fmt.Sprintf("construction %+v\nsource:\n%s\ndecompiled:\n%s", copts, brasp.Format(src), brasp.Format(p))
		}
		d := programDFA(t, p)
		sameLanguage(t, "decompiled and source", d, programDFA(t, src), show)
		sameAsValuations(t, "random program", m, dopts, d, show)
		agreeOnTraces(t, fmt.Sprintf("%+v", copts), m, p, rng, 20, 12)
	}
	if routes[decompile.RouteCoordinates] == 0 || routes[decompile.RouteValuations] == 0 {
		t.Fatalf("routes taken: %v", routes)
	}
}

// TestPropositionTestdata decompiles the compiled models of the .ltlf test
// formulas coordinate-wise: each program has the formula's language, and
// the same as the valuation route's program.
func TestPropositionTestdata(t *testing.T) {
	files, err := filepath.Glob("../../ltlf/testdata/*.ltlf")
	if err != nil || len(files) == 0 {
		t.Fatalf("ltlf testdata: %v, %v", files, err)
	}
	rng := rand.New(rand.NewPCG(15, 2))
	for i, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		f, _, m := formulaModel(t, file, src, constructions[i%(len(constructions)-1)])
		want, err := ltlf.ToDFA(nil, f)
		if err != nil {
			t.Fatal(err)
		}
		p, info, err := decompile.DecompileInfo(nil, m, decompile.Options{})
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if info.Route != decompile.RouteCoordinates {
			t.Fatalf("%s: route %q", file, info.Route)
		}
		show := func() string { return fmt.Sprintf("%s\n%s", src, brasp.Format(p)) }
		d := programDFA(t, p)
		sameLanguage(t, file+": decompiled and formula", d, want, show)
		if len(f.Props) <= transformer.MaxValuationProps {
			sameAsValuations(t, file, m, decompile.Options{}, d, show)
		}
		agreeOnTraces(t, file, m, p, rng, 20, 15)
	}
}

// manyPropositions are formulas over 13 to 30 propositions.
func manyPropositions() map[string]string {
	conj := func(n int, f func(i int) string) string {
		var parts []string
		for i := range n {
			parts = append(parts, f(i))
		}
		return strings.Join(parts, " & ")
	}
	return map[string]string{
		"response7": conj(7, func(i int) string { return fmt.Sprintf("G(p%d -> F q%d)", i, i) }),
		"gfand20":   conj(20, func(i int) string { return fmt.Sprintf("GF p%d", i) }),
		"fand30": "F(" + conj(15, func(i int) string { return fmt.Sprintf("p%d", i) }) + ") & F(" +
			conj(15, func(i int) string { return fmt.Sprintf("q%d", i) }) + ")",
		"mixed30": conj(4, func(i int) string { return fmt.Sprintf("G(a%d -> X[!] b%d)", i, i) }) + " & G(" +
			strings.ReplaceAll(conj(11, func(i int) string { return fmt.Sprintf("c%d", i) }), "&", "|") + ") & F(" +
			conj(11, func(i int) string { return fmt.Sprintf("d%d", i) }) + ")",
		"until14": "(" + conj(7, func(i int) string { return fmt.Sprintf("(x%d U y%d)", i, i) }) + ") | G(x0 -> Y y0)",
	}
}

// TestManyPropositions decompiles models of formulas over 14 to 30
// propositions, beyond the valuation route: the program has the formula's
// language and agrees with the model on random long traces.
func TestManyPropositions(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 3))
	for name, s := range manyPropositions() {
		t.Run(name, func(t *testing.T) {
			f, err := ltlf.ParseString(s)
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Props) <= transformer.MaxValuationProps {
				t.Fatalf("%d propositions", len(f.Props))
			}
			prog, err := ltlf.ToBRASP(f)
			if err != nil {
				t.Fatal(err)
			}
			want, err := ltlf.ToDFA(nil, f)
			if err != nil {
				t.Fatal(err)
			}
			// Both constructions usually decompile to the same program
			// text, whose language is then computed once.
			langs := map[string]*symbolic.DFA{}
			for _, copts := range []compile.Options{{}, {PositionTables: true}} {
				m, err := compile.Compile(nil, prog, copts)
				if err != nil {
					t.Fatal(err)
				}
				p, err := decompile.Decompile(nil, m, decompile.Options{})
				if err != nil {
					t.Fatalf("%+v: %v", copts, err)
				}
				text := brasp.Format(p)
				show := func() string { return fmt.Sprintf("%+v\n%s\n%s", copts, s, text) }
				d, ok := langs[text]
				if !ok {
					d = programDFA(t, p)
					langs[text] = d
				}
				sameLanguage(t, "decompiled and formula", d, want, show)
				agreeOnTraces(t, name, m, p, rng, 30, 60)
			}
		})
	}
}

// TestManyPropositionsLayerNorm: a layer-norm model over more than 12
// propositions is refused with a message saying why (neither route
// decompiles it).
func TestManyPropositionsLayerNorm(t *testing.T) {
	_, _, m := formulaModel(t, "response7", []byte(manyPropositions()["response7"]), compile.Options{LayerNorm: true})
	_, err := decompile.Decompile(nil, m, decompile.Options{})
	if err == nil || !strings.Contains(err.Error(), "layer norm") || !strings.Contains(err.Error(), "at most 12 propositions") {
		t.Fatalf("got %v, want a refusal naming the layer norm and the valuations' bound", err)
	}
}

// TestPropositionProductLimit: a coordinate that reads many propositions
// at once is refused at decompile-product beyond 12 propositions, and
// decompiled through the valuations within 12.
func TestPropositionProductLimit(t *testing.T) {
	for _, k := range []int{8, 20} {
		m := denseModel(k)
		b := budget.New(t.Context(), budget.Settings{"decompile-product": 64})
		p, info, err := decompile.DecompileInfo(b, m, decompile.Options{})
		if k > transformer.MaxValuationProps {
			var le *budget.Error
			if !errors.As(err, &le) || le.Limit.Name != "decompile-product" || !strings.Contains(err.Error(), "--limit decompile-product=") {
				t.Fatalf("k=%d: got %v, want the decompile-product limit", k, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("k=%d: %v", k, err)
		}
		if info.Route != decompile.RouteValuations {
			t.Fatalf("k=%d: route %q", k, info.Route)
		}
		agreeOnTraces(t, "dense", m, p, rand.New(rand.NewPCG(uint64(k), 4)), 100, 10)
	}
}

// denseModel is a model over k propositions whose first coordinate counts
// the true propositions (every embedding row touches it): a head attends
// to the earlier position with the largest count, and the model accepts
// when the last position's count plus that one is at least k.
func denseModel(k int) *transformer.Model {
	r := func(n int64) *big.Rat { return big.NewRat(n, 1) }
	zero := func() transformer.Matrix {
		m := make(transformer.Matrix, 3)
		for i := range m {
			m[i] = transformer.Vec{r(0), r(0), r(0)}
		}
		return m
	}
	m := &transformer.Model{Width: 3, Labels: []string{"count", "one", "best"},
		EmbeddingBias: transformer.Vec{r(0), r(1), r(0)}}
	for p := range k {
		m.Props = append(m.Props, fmt.Sprintf("p%d", p))
		m.Embedding = append(m.Embedding, transformer.Vec{r(1), r(0), r(0)})
	}
	score, value := zero(), zero()
	score[1][0] = r(1) // one(i) · count(j)
	value[2][0] = r(1) // best := count(j)
	m.Layers = []transformer.Layer{{Heads: []transformer.Head{{Mask: position.MaskPast, Tiebreak: position.Rightmost, Score: score, Value: value}}}}
	m.Output = transformer.Output{Weight: transformer.Vec{r(1), r(0), r(1)}, Bias: r(int64(-k))}
	return m
}

// sparseModel is a random hand-written model over k propositions whose
// embedding rows overlap: every coordinate is touched by up to three
// propositions with small integer weights, and the heads and FFN units
// read a few coordinates each.
func sparseModel(rng *rand.Rand, k, width, layers int) *transformer.Model {
	w := func() *big.Rat { return big.NewRat(int64(rng.IntN(5)-2), int64(1+rng.IntN(2))) }
	vec := func() transformer.Vec {
		v := make(transformer.Vec, width)
		for c := range v {
			v[c] = new(big.Rat)
		}
		return v
	}
	mat := func(rows int) transformer.Matrix {
		m := make(transformer.Matrix, rows)
		for i := range m {
			m[i] = vec()
		}
		return m
	}
	m := &transformer.Model{Width: width, EmbeddingBias: vec()}
	for c := range width {
		m.Labels = append(m.Labels, fmt.Sprintf("x%d", c))
		m.EmbeddingBias[c] = w()
	}
	for p := range k {
		m.Props = append(m.Props, fmt.Sprintf("p%d", p))
		m.Embedding = append(m.Embedding, vec())
	}
	for c := range width {
		for range 1 + rng.IntN(3) {
			m.Embedding[rng.IntN(k)][c] = w()
		}
	}
	masks := position.Masks
	for range layers {
		var l transformer.Layer
		for range 1 + rng.IntN(2) {
			hd := transformer.Head{Mask: masks[rng.IntN(len(masks))], Tiebreak: position.Tiebreak(rng.IntN(2)), Score: mat(width), Value: mat(width)}
			for range 1 + rng.IntN(2) {
				hd.Score[rng.IntN(width)][rng.IntN(width)] = w()
			}
			hd.Value[rng.IntN(width)][rng.IntN(width)] = big.NewRat(1, 1)
			l.Heads = append(l.Heads, hd)
		}
		if rng.IntN(3) > 0 {
			units := 1 + rng.IntN(3)
			f := &transformer.FFN{W1: make(transformer.Matrix, units), B1: make(transformer.Vec, units), B2: vec()}
			f.W2 = make(transformer.Matrix, width)
			for u := range units {
				f.W1[u] = vec()
				for range 1 + rng.IntN(2) {
					f.W1[u][rng.IntN(width)] = w()
				}
				f.B1[u] = w()
			}
			for c := range width {
				f.W2[c] = make(transformer.Vec, units)
				for u := range units {
					f.W2[c][u] = new(big.Rat)
				}
			}
			for u := range units {
				f.W2[rng.IntN(width)][u] = w()
			}
			l.FFN = f
		}
		m.Layers = append(m.Layers, l)
	}
	m.Output = transformer.Output{Weight: vec(), Bias: w()}
	for range 2 {
		m.Output.Weight[rng.IntN(width)] = w()
	}
	return m
}

// TestHandwrittenPropositionModels decompiles hand-written models whose
// embedding rows overlap: within 12 propositions the program has the
// language of the valuation route's, beyond it the program agrees with
// the model on random traces. A model the coordinate-wise route refuses
// must fail with a named limit, never give a wrong answer.
func TestHandwrittenPropositionModels(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 5))
	exactly := 0
	for n := range 60 {
		k := 2 + rng.IntN(5)
		if n%3 == 0 {
			k = 13 + rng.IntN(8)
		}
		m := sparseModel(rng, k, 3+rng.IntN(4), 1+rng.IntN(2))
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		p, info, err := decompile.DecompileInfo(nil, m, decompile.Options{Smaller: n%2 == 1})
		if err != nil {
			if !errors.Is(err, budget.ErrLimit) {
				t.Fatalf("model %d: %v", n, err)
			}
			continue
		}
		if info.Route != decompile.RouteCoordinates {
			t.Fatalf("model %d: route %q", n, info.Route)
		}
		if k <= 4 {
			allTraces(t, fmt.Sprintf("model %d", n), m, p, 6-k)
			show := func() string { return string(transformer.EncodeJSON(m)) + "\n" + brasp.Format(p) }
			// Exactly when the program's expressions are small: the
			// bimachine builds a diagram per subexpression occurrence.
			lim := budget.New(t.Context(), budget.Settings{"exact-atoms": 16})
			if len(brasp.Format(p)) > 8000 {
				continue
			}
			if d, err := exact.SymbolicProgramDFA(lim, p); err == nil {
				exactly += b2i(sameAsValuations(t, fmt.Sprintf("model %d", n), m, decompile.Options{}, d, show))
			}
		}
		agreeOnTraces(t, fmt.Sprintf("model %d", n), m, p, rng, 40, 10)
	}
	t.Logf("%d models compared exactly with the valuation route", exactly)
	if exactly < 5 {
		t.Fatalf("only %d models compared exactly", exactly)
	}
	for _, k := range []int{5, 10} {
		m := denseModel(k)
		p, err := decompile.Decompile(nil, m, decompile.Options{})
		if err != nil {
			t.Fatal(err)
		}
		agreeOnTraces(t, "dense", m, p, rng, 200, 8)
	}
	// Beyond: the first coordinate's 2^16 combinations are tabulated, but
	// synthesising its bits would take more than decompile-work.
	_, err := decompile.Decompile(nil, denseModel(16), decompile.Options{})
	var le *budget.Error
	if !errors.As(err, &le) || le.Limit.Name != "decompile-work" {
		t.Fatalf("16 propositions read at once: got %v, want the decompile-work limit", err)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// allTraces checks the program against the model's dense forward pass on
// every trace up to maxLen steps.
func allTraces(t *testing.T, name string, m *transformer.Model, p *brasp.Program, maxLen int) {
	t.Helper()
	brasptest.AllWords(1<<len(m.Props), maxLen, func(w []int) {
		steps := make([][]uint64, len(w))
		for i, v := range w {
			steps[i] = []uint64{uint64(v)}
		}
		agreeOnSteps(t, name, m, p, steps, true)
	})
}

// BenchmarkDecompilePropositions decompiles the compiled models of
// formulas over 10, 14 and 30 propositions coordinate-wise, and the one
// over 10 also through its 1,024 valuations.
func BenchmarkDecompilePropositions(b *testing.B) {
	formulas := manyPropositions()
	formulas["response5"] = "G(p0 -> F q0) & G(p1 -> F q1) & G(p2 -> F q2) & G(p3 -> F q3) & G(p4 -> F q4)"
	for _, name := range []string{"response5", "response7", "mixed30"} {
		f, _, m := formulaModel(b, name, []byte(formulas[name]), compile.Options{})
		b.Run(fmt.Sprintf("%s/%dprops", name, len(f.Props)), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := decompile.Decompile(nil, m, decompile.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		if len(f.Props) > transformer.MaxValuationProps {
			continue
		}
		b.Run(fmt.Sprintf("%s/%dprops/valuations", name, len(f.Props)), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				lm, err := m.OverValuations()
				if err != nil {
					b.Fatal(err)
				}
				p, err := decompile.Decompile(nil, lm, decompile.Options{})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := brasp.FromValuationLetters(p, m.Props); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestPropositionTransducers compiles transducers over propositions (a
// random acceptor's last two operations choose one of three outputs) and
// decompiles them coordinate-wise: the program's output word equals the
// model's on every trace up to three steps and on random long ones.
func TestPropositionTransducers(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 7))
	for n := range 12 {
		k := 1 + rng.IntN(3)
		src := brasp.Format(brasptest.RandomProgram(rng, brasptest.Options{Propositions: k, Ops: 3 + rng.IntN(3)}))
		p, err := brasp.Parse("random", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		nv := len(p.Vectors)
		a, b := p.Vectors[nv-1].Name, p.Vectors[nv-2].Name
		var lines []string
		for _, l := range strings.Split(strings.TrimSpace(src), "\n") {
			if !strings.HasPrefix(l, "output ") && !strings.HasPrefix(l, "accept ") {
				lines = append(lines, l)
			}
		}
		src = strings.Join(lines, "\n") + fmt.Sprintf("\nOut_x(i) := %s(i) & %s(i)\nOut_y(i) := %s(i) & !%s(i)\nOut_z(i) := !%s(i)\noutput x:Out_x y:Out_y z:Out_z\n", a, b, a, b, a)
		tr, err := brasp.Parse("transducer", []byte(src))
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		m, err := compile.Compile(nil, tr, compile.Options{MultiHead: n%2 == 1})
		if err != nil {
			t.Fatal(err)
		}
		q, info, err := decompile.DecompileInfo(nil, m, decompile.Options{Smaller: n%3 == 2})
		if err != nil {
			t.Fatal(err)
		}
		if info.Route != decompile.RouteCoordinates || !q.IsTransducer() || q.Props == nil {
			t.Fatalf("route %q, transducer %v, propositions %v", info.Route, q.IsTransducer(), q.Props)
		}
		check := func(steps [][]uint64) {
			lm, w, err := m.OverSteps(steps)
			if err != nil {
				t.Fatal(err)
			}
			want, err := lm.Transduce(nil, w)
			if err != nil {
				t.Fatal(err)
			}
			got, err := q.RunSteps(steps).Transduce()
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("on %s the model outputs %v, the decompiled program %v\n%s\n%s", traceString(m.Props, steps), want, got, src, brasp.Format(q))
			}
		}
		brasptest.AllWords(1<<k, 3, func(w []int) {
			steps := make([][]uint64, len(w))
			for i, v := range w {
				steps[i] = []uint64{uint64(v)}
			}
			check(steps)
		})
		for range 20 {
			check(brasptest.RandomSteps(rng, k, 1+rng.IntN(30)))
		}
	}
}

// TestPropositionLimitsRaised: limits raised to the largest values do not
// wrap around; a table of 2^40 combinations is still refused, at
// decompile-work.
func TestPropositionLimitsRaised(t *testing.T) {
	b := budget.New(t.Context(), budget.Settings{"decompile-product": 1<<63 - 1})
	_, err := decompile.Decompile(b, denseModel(40), decompile.Options{})
	var le *budget.Error
	if !errors.As(err, &le) || le.Limit.Name != "decompile-work" {
		t.Fatalf("got %v, want the decompile-work limit", err)
	}
}

// formulaModel parses an LTLf formula and compiles its B-RASP program
// (ltlf.ToBRASP) with copts: the formula, its program and the model.
func formulaModel(t testing.TB, name string, src []byte, copts compile.Options) (*ltlf.Formula, *brasp.Program, *transformer.Model) {
	t.Helper()
	f, err := ltlf.Parse(name, src)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := ltlf.ToBRASP(f)
	if err != nil {
		t.Fatal(err)
	}
	m, err := compile.Compile(nil, prog, copts)
	if err != nil {
		t.Fatal(err)
	}
	return f, prog, m
}
