package decompile

import (
	"errors"
	"fmt"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/transformer"
)

// The limits of the decompiler's enumeration, raisable with --limit
// NAME=N; the exact arithmetic also stops at transformer.RationalBits.
var (
	maxClasses = budget.Define("decompile-classes", 4096, "vectors",
		"reachable activation vectors of one layer in the decompiler (Lemma 4.3)")
	maxCombos = budget.Define("decompile-combos", 1<<16, "combinations",
		"(own vector, attended vectors) combinations the decompiler examines per layer")
	maxScores = budget.Define("decompile-scores", 512, "scores",
		"distinct attention scores of one head in the decompiler")
	maxPeriod = budget.Define("decompile-period", 1024, "positions",
		"period of a position embedding the decompiler turns into MOD predicates")
	maxWork = budget.Define("decompile-work", 1<<28, "operations",
		"exact multiplications and truth-table cells of one decompilation")
)

// Options configures Decompile. The zero value is the depth-preserving
// translation.
type Options struct {
	// Smaller selects the proof's smaller translation: the argmax of each
	// head is found bit by bit over the order-preserving encoding of its
	// scores (⌈log₂|F|⌉ attention operations per head). Otherwise the
	// shallower one is used: one attention operation per score value, all
	// reading the previous layer, so the program's attention depth equals
	// the model's number of attention layers (§5.4).
	Smaller bool
}

// ErrInfiniteImage is wrapped by the error for a position embedding whose
// image is not finite: Lemma 4.3 (finitely many activation values) then
// fails, and no B-RASP program can simulate the model.
var ErrInfiniteImage = errors.New("position embedding with infinite image")

// Info describes the finite sets the decompilation enumerated (Lemma 4.3).
type Info struct {
	// Classes[l] is the number of reachable activation vectors after layer
	// l (Classes[0]: after the embedding).
	Classes []int
	// Scores[l][h] is the number of distinct attention scores of head h of
	// layer l+1 on reachable vectors.
	Scores [][]int
	// Combos[l] is the number of (own vector, attended vectors) combinations
	// of layer l+1 that can occur.
	Combos []int

	// Route is how the model was decompiled: RouteVectors for a model over
	// symbols; RouteCoordinates or RouteValuations for a model over
	// propositions (the fields above then describe the model over the
	// valuations, those below the coordinate-wise route).
	Route string
	// Values[l] is the number of (coordinate, value) pairs the
	// coordinate-wise route found after layer l (Values[0]: after the
	// embedding), over the coordinates the output depends on.
	Values []int
	// Tables is the number of functions the coordinate-wise route
	// tabulated, and Widest the largest product of value sets among them.
	Tables, Widest int
}

// Decompile translates a transformer into a B-RASP program that accepts
// exactly the words the model accepts, or for a transducer outputs exactly
// what it outputs (Thm 4.2, with the extensions of §4.3, §5.2, §5.3 and
// App. C), within the budget. See the package documentation.
func Decompile(b *budget.Budget, m *transformer.Model, opts Options) (*brasp.Program, error) {
	p, _, err := DecompileInfo(b, m, opts)
	return p, err
}

// DecompileInfo is Decompile that also reports the sizes of the enumerated
// value sets.
func DecompileInfo(b *budget.Budget, m *transformer.Model, opts Options) (*brasp.Program, *Info, error) {
	if m == nil {
		return nil, nil, fmt.Errorf("decompile: no model")
	}
	for k := range m.Position {
		switch m.Position[k].Kind {
		case transformer.PosSin, transformer.PosCos, transformer.PosFirst, transformer.PosLast, transformer.PosMid, transformer.PosMod, transformer.PosTable:
		default:
			return nil, nil, fmt.Errorf("decompile: position term %d: %w: kind %v is neither a rational sinusoid nor a finite-image position predicate, so Lemma 4.3 (finitely many activation values) does not hold and no B-RASP program can simulate the model", k, ErrInfiniteImage, m.Position[k].Kind)
		}
	}
	if err := m.Validate(); err != nil {
		return nil, nil, fmt.Errorf("decompile: invalid model: %v", err)
	}
	if m.Props != nil {
		return decompileProps(b, m, opts)
	}
	d := &decompiler{m: m, opts: opts, b: b, g: newIR(m.Alphabet), info: &Info{Route: RouteVectors},
		ar: &transformer.Arith{MaxBits: b.Max(transformer.RationalBits)}, maxWork: b.Max(maxWork)}
	p, err := d.run()
	if err != nil {
		return nil, nil, err
	}
	return p, d.info, nil
}

type decompiler struct {
	m    *transformer.Model
	opts Options
	b    *budget.Budget
	g    *ir
	info *Info
	ar   *transformer.Arith // the model's arithmetic, counting its work
	// maxWork is the decompile-work limit on ar.Work.
	maxWork int64
	live    [][]bool // liveCoords
	frozen  [][]bool // frozenCoords, or nil
	err     error    // an internal inconsistency met while synthesising
}

// work reports the first limit the arithmetic exceeded, and the budget's
// context and work.
func (d *decompiler) work() error {
	if err := d.ar.Err(); err != nil {
		return err
	}
	if d.ar.Work > d.maxWork {
		return d.workError("evaluating the model on its reachable values")
	}
	return d.b.Step(1)
}

func (d *decompiler) workError(what string) error {
	return &budget.Error{Limit: maxWork, Value: d.maxWork, Need: d.ar.Work, What: "decompile: " + what}
}

// spend records n operations of work outside the arithmetic and reports
// whether the work limit is exceeded.
func (d *decompiler) spend(n int) bool {
	d.ar.Work += int64(n)
	return d.ar.Work > d.maxWork
}

func (d *decompiler) run() (*brasp.Program, error) {
	if fr, ok := frozenCoords(d.m); ok {
		d.frozen = fr
	} else {
		d.live = liveCoords(d.m)
	}
	lv, err := d.embedding()
	if err != nil {
		return nil, err
	}
	if d.err != nil {
		return nil, d.err
	}
	for l := range d.m.Layers {
		if lv, err = d.layer(l, lv); err != nil {
			return nil, err
		}
		if d.err != nil {
			return nil, d.err
		}
	}
	// The output layer: the acceptor's output, or one output vector per
	// symbol of a transducer.
	points := make([][]bool, len(lv.vecs))
	for a := range lv.vecs {
		points[a] = featureRow(lv.feats, a)
	}
	atLast := func(v int) brasp.Expr { return ref(lv.feats[v].node, brasp.VarI) }
	if t := d.m.Transduction; t != nil {
		outs := make([]int, len(t.Symbols))
		for g := range t.Symbols {
			out := make([]bool, len(lv.vecs))
			for a, x := range lv.vecs {
				s := d.ar.Dot(t.Weight[g], x)
				s.Add(s, t.Bias[g])
				out[a] = s.Sign() >= 0
			}
			outs[g] = d.g.positionwise(outputName(t.Symbols[g], g), d.expr(d.synth(points, out), atLast))
		}
		if d.err != nil {
			return nil, d.err
		}
		return d.g.transducer(t.Symbols, outs)
	}
	out := make([]bool, len(lv.vecs))
	for a, x := range lv.vecs {
		s := d.ar.Dot(d.m.Output.Weight, x)
		s.Add(s, d.m.Output.Bias)
		out[a] = s.Sign() >= 0
	}
	y := d.g.positionwise("Y", d.expr(d.synth(points, out), atLast))
	if d.err != nil {
		return nil, d.err
	}
	return d.g.program(y)
}

// outputName names the output vector of output symbol γ (index g): Y_γ as
// in the paper when γ makes a B-RASP name, Y_g otherwise.
func outputName(sym string, g int) string {
	if s := sanitize(sym); s == sym {
		return "Y_" + s
	}
	return fmt.Sprintf("Y_%d", g)
}
