package playground

import (
	"errors"
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/brasp-dev/brasp/artifact"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
)

// MaxDrawStates is the largest minimal DFA the playground draws.
const MaxDrawStates = 60

// DFARequest is the body of POST /api/dfa.
type DFARequest struct {
	Program string `json:"program"`
}

// DFAResponse is the answer of POST /api/dfa: the minimal DFA of the
// program's language and its classification.
type DFAResponse struct {
	States int `json:"states"`
	// DFA is the minimal DFA in the .dfa format.
	DFA string `json:"dfa"`
	// SVG draws the minimal DFA (absent above MaxDrawStates states).
	SVG string `json:"svg,omitempty"`
	// Note explains what the drawing leaves out.
	Note             string `json:"note,omitempty"`
	StarFree         bool   `json:"starFree"`
	StutterInvariant bool   `json:"stutterInvariant"`
	AC0              bool   `json:"ac0"`
	// AC0Unknown, when not empty, says why AC0 is not decided (a limit):
	// AC0 is then false and means unknown, not no.
	AC0Unknown string `json:"ac0Unknown,omitempty"`
	// Classification is the classification with its witnesses, as
	// `brasp classify` prints it.
	Classification string `json:"classification"`
	// Variants lists which transformer variants of §5 recognise the
	// language.
	Variants []Variant `json:"variants"`
}

// Variant is one transformer variant of §5.
type Variant struct {
	Name       string `json:"name"`
	Recognises bool   `json:"recognises"`
	Reason     string `json:"reason"`
	// Unknown, when not empty, says why the answer is not known.
	Unknown string `json:"unknown,omitempty"`
}

func (a *API) dfa(b *budget.Budget, req *DFARequest) (any, *apiError) {
	p, e := loadProgram(b, req.Program)
	if e != nil {
		return nil, e
	}
	if p.IsTransducer() {
		return nil, badRequest("program", "dfa: the program is a transducer; only acceptors define a language")
	}
	d, err := artifact.ToDFA(b, p, artifact.Options{})
	if err != nil {
		return nil, failed("program", "dfa", err)
	}
	cls, err := artifact.Classify(b, artifact.NewDFA(d), artifact.Options{})
	if err != nil {
		return nil, failed("program", "classify", err)
	}
	return describeDFA(cls), nil
}

// ClassifyLimits are the budget limits in bytes of the constructions on
// automata that Config.MaxClassifyBytes cuts: the subset construction, the
// image orbit, the monoids and the Krohn–Rhodes cascade.
var ClassifyLimits = lookupLimits("subset-bytes", "orbit-bytes", "monoid-bytes", "cascade-bytes")

func lookupLimits(names ...string) []*budget.Limit {
	var out []*budget.Limit
	for _, name := range names {
		l, ok := budget.Lookup(name)
		if !ok {
			panic("playground: no limit " + name)
		}
		out = append(out, l)
	}
	return out
}

// describeDFA draws a classified minimal DFA.
func describeDFA(cls *automata.Classification) *DFAResponse {
	min := cls.Minimal
	res := &DFAResponse{
		States:           min.NumStates(),
		DFA:              automata.Format(min),
		StarFree:         cls.StarFree,
		StutterInvariant: cls.StutterInvariant,
		AC0:              cls.AC0,
		Classification:   cls.Format(),
	}
	if cls.AC0Undecided != nil {
		res.AC0Unknown = cls.AC0Undecided.Error()
	}
	for _, v := range cls.TransformerVariants() {
		res.Variants = append(res.Variants, Variant{v.Name, v.Recognises, v.Reason, v.Unknown})
	}
	if min.NumStates() <= MaxDrawStates {
		res.SVG, res.Note = DrawDFA(min)
	} else {
		res.Note = fmt.Sprintf("%d states are too many to draw (the limit is %d); the .dfa text is below", min.NumStates(), MaxDrawStates)
	}
	return res
}

// AutomatonRequest is the body of POST /api/automaton: a regular
// expression (.re: an alphabet line, then the expression) or an automaton
// (.dfa text).
type AutomatonRequest struct {
	// Kind is "re" or "dfa".
	Kind   string `json:"kind"`
	Source string `json:"source"`
}

// AutomatonResponse is the answer of POST /api/automaton: the minimal DFA
// and its classification, and the B-RASP program of the Krohn–Rhodes
// construction (Lemmas B.6–B.8) when the language is star-free.
type AutomatonResponse struct {
	DFAResponse
	// Program uses only rightmost strict future-masked attention.
	Program string `json:"program,omitempty"`
	// Cascade is the identity–reset cascade the program comes from.
	Cascade string `json:"cascade,omitempty"`
	// ProgramError says why there is no program (for example, the language
	// is not star-free, with a witness).
	ProgramError string `json:"programError,omitempty"`
}

func (a *API) automaton(b *budget.Budget, req *AutomatonRequest) (any, *apiError) {
	var kind artifact.Kind
	switch req.Kind {
	case "re":
		kind = artifact.KindRegex
	case "dfa":
		kind = artifact.KindDFA
	default:
		return nil, badRequest("kind", "kind: %q is not re or dfa", req.Kind)
	}
	if strings.TrimSpace(req.Source) == "" {
		return nil, badRequest("source", "source: empty; write an alphabet line and then the %s", map[string]string{"re": "expression", "dfa": "start, accept and transition lines"}[req.Kind])
	}
	in, err := artifact.Load(b, "input."+req.Kind, []byte(req.Source), kind)
	if err != nil {
		return nil, sourceErrors("source", err)
	}
	d, err := artifact.ToDFA(b, in, artifact.Options{})
	if err != nil {
		return nil, failed("source", "dfa", err)
	}
	opts := artifact.Options{}
	cls, err := artifact.Classify(b, artifact.NewDFA(d), opts)
	if err != nil {
		return nil, failed("source", "classify", err)
	}
	res := &AutomatonResponse{DFAResponse: *describeDFA(cls)}
	min := artifact.NewDFA(cls.Minimal)
	if !cls.StarFree {
		if !cls.AC0 {
			res.ProgramError = "no B-RASP program, even with MOD predicates: the language is not star-free and not in AC0 (Cor. 5.4), see the witnesses above"
			return res, nil
		}
		// In AC0: a program with MOD_r_m predicates only, which compiles to
		// a transformer with rational sinusoidal position embeddings.
		out, err := artifact.Convert(b, min, artifact.KindBRASP, opts)
		if errors.Is(err, budget.ErrStopped) {
			return nil, failed("source", "AC0 block construction", err)
		}
		if err != nil {
			res.ProgramError = "AC0 block construction (Cor. 5.4): " + err.Error()
			return res, nil
		}
		res.Program = brasp.Format(out.(*artifact.Program).Prog)
		return res, nil
	}
	// A stopped budget is the request's deadline, not a property of the
	// language: it is answered as such (503), not as "no program".
	out, err := artifact.Convert(b, min, artifact.KindBRASP, opts)
	if errors.Is(err, budget.ErrStopped) {
		return nil, failed("source", "Krohn–Rhodes", err)
	}
	if err != nil {
		res.ProgramError = "Krohn–Rhodes: " + err.Error()
		return res, nil
	}
	c, err := artifact.Cascade(b, min, opts)
	if errors.Is(err, budget.ErrStopped) {
		return nil, failed("source", "Krohn–Rhodes", err)
	}
	if err != nil {
		res.ProgramError = "Krohn–Rhodes: " + err.Error()
		return res, nil
	}
	var text strings.Builder
	if err := c.Format(b, &text); err != nil {
		return nil, failed("source", "Krohn–Rhodes", err)
	}
	res.Program = brasp.Format(out.(*artifact.Program).Prog)
	res.Cascade = text.String()
	return res, nil
}

// DrawDFA draws a DFA as an SVG picture: states in columns by their
// breadth-first distance from the start state, accepting states as double
// circles, the start state with an incoming arrow, one arrow per pair of
// states labelled with its symbols, self-loops above their state. A
// rejecting sink state is left out when the automaton has other states;
// note says so.
func DrawDFA(d *automata.DFA) (svg, note string) {
	n := d.NumStates()
	sink := -1
	for q := 0; q < n && n > 1; q++ {
		if d.Accept[q] || q == d.Start {
			continue
		}
		loop := true
		for _, t := range d.Delta[q] {
			loop = loop && t == q
		}
		if loop {
			sink = q
			note = fmt.Sprintf("the rejecting sink state %s is not drawn: a missing arrow leads to it", d.States[q])
			break
		}
	}
	// Columns by breadth-first distance.
	depth := make([]int, n)
	for q := range depth {
		depth[q] = -1
	}
	depth[d.Start] = 0
	order := []int{d.Start}
	for k := 0; k < len(order); k++ {
		q := order[k]
		for _, t := range d.Delta[q] {
			if depth[t] < 0 && t != sink {
				depth[t] = depth[q] + 1
				order = append(order, t)
			}
		}
	}
	for q := range depth { // unreachable states (none after minimisation)
		if depth[q] < 0 && q != sink {
			depth[q] = 0
			order = append(order, q)
		}
	}
	const r, dx, dy, mx, my = 20.0, 130.0, 90.0, 70.0, 60.0
	rowOf := make([]int, n)
	count := map[int]int{}
	maxCol, maxRow := 0, 0
	for _, q := range order {
		rowOf[q] = count[depth[q]]
		count[depth[q]]++
		maxCol = max(maxCol, depth[q])
		maxRow = max(maxRow, rowOf[q])
	}
	x := func(q int) float64 { return mx + float64(depth[q])*dx }
	y := func(q int) float64 { return my + float64(rowOf[q])*dy }
	// Group the symbols of each arrow.
	type edge struct{ from, to int }
	labels := map[edge][]string{}
	var edges []edge
	for _, q := range order {
		for a, t := range d.Delta[q] {
			if t == sink {
				continue
			}
			e := edge{q, t}
			if labels[e] == nil {
				edges = append(edges, e)
			}
			labels[e] = append(labels[e], d.Alphabet[a])
		}
	}
	// The bounding box of everything drawn, for the viewBox.
	minX, minY := x(d.Start)-r-40, my-r-45
	maxX, maxY := mx+float64(maxCol)*dx+r+10, my+float64(maxRow)*dy+r+10
	see := func(px, py float64) {
		minX, maxX = math.Min(minX, px-12), math.Max(maxX, px+12)
		minY, maxY = math.Min(minY, py-14), math.Max(maxY, py+8)
	}
	var b strings.Builder
	b.WriteString(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#444"/></marker></defs>`)
	// Start arrow.
	fmt.Fprintf(&b, `<line class="start" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#444" stroke-width="1.5" marker-end="url(#arrow)"/>`, x(d.Start)-r-35, y(d.Start), x(d.Start)-r-1, y(d.Start))
	for _, e := range edges {
		text := html.EscapeString(strings.Join(labels[e], ","))
		if e.from == e.to {
			cx, cy := x(e.from), y(e.from)
			fmt.Fprintf(&b, `<path class="edge" d="M%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="none" stroke="#444" stroke-width="1.3" marker-end="url(#arrow)"/>`,
				cx-8, cy-r+2, cx-25, cy-r-35, cx+25, cy-r-35, cx+8, cy-r+2)
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, cx, cy-r-30, text)
			continue
		}
		x1, y1, x2, y2 := x(e.from), y(e.from), x(e.to), y(e.to)
		// Curve when the reverse arrow exists or other states lie between.
		// Breadth-first columns make every forward arrow span at most one
		// column; longer back arrows bend below the row, away from the
		// self-loops, more the longer they are.
		bend := 0.0
		if labels[edge{e.to, e.from}] != nil {
			bend = 22
		}
		span := abs(depth[e.from] - depth[e.to])
		if depth[e.from] == depth[e.to] || (rowOf[e.from] == rowOf[e.to] && span > 1) {
			bend = 30 + 12*float64(span+abs(rowOf[e.from]-rowOf[e.to]))
			if depth[e.to] < depth[e.from] {
				bend = -bend
			}
		}
		mxp, myp := (x1+x2)/2, (y1+y2)/2
		lx, ly := x2-x1, y2-y1
		l := math.Hypot(lx, ly)
		nx, ny := -ly/l, lx/l // left normal
		cx, cy := mxp+nx*bend*2, myp+ny*bend*2
		// Shorten both ends to the circles, towards the control point.
		sx, sy := toward(x1, y1, cx, cy, r)
		ex, ey := toward(x2, y2, cx, cy, r+1)
		fmt.Fprintf(&b, `<path class="edge" d="M%.1f,%.1f Q%.1f,%.1f %.1f,%.1f" fill="none" stroke="#444" stroke-width="1.3" marker-end="url(#arrow)"/>`, sx, sy, cx, cy, ex, ey)
		tx, ty := 0.25*sx+0.5*cx+0.25*ex, 0.25*sy+0.5*cy+0.25*ey
		side := 8.0
		if bend < 0 {
			side = -8
		}
		lx, ly = tx+nx*side, ty+ny*side+4
		see(tx, ty)
		see(lx, ly)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" paint-order="stroke" stroke="#fff" stroke-width="4">%s</text>`, lx, ly, text)
	}
	for _, q := range order {
		cls := "state"
		if d.Accept[q] {
			cls += " accept"
		}
		fmt.Fprintf(&b, `<g class="%s"><circle cx="%.1f" cy="%.1f" r="%.0f" fill="%s" stroke="#333" stroke-width="1.5"/>`, cls, x(q), y(q), r, map[bool]string{true: "#d8f0d8", false: "#fff"}[d.Accept[q]])
		if d.Accept[q] {
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="%.0f" fill="none" stroke="#333" stroke-width="1.2"/>`, x(q), y(q), r-4)
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text></g>`, x(q), y(q)+4, html.EscapeString(d.States[q]))
	}
	b.WriteString(`</svg>`)
	w, h := maxX-minX, maxY-minY
	head := fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" class="dfa" width="%.0f" height="%.0f" viewBox="%.0f %.0f %.0f %.0f" font-family="sans-serif" font-size="13">`, w, h, minX, minY, w, h)
	return head + b.String(), note
}

// toward returns the point at distance r from (x, y) in the direction of
// (tx, ty).
func toward(x, y, tx, ty, r float64) (float64, float64) {
	dx, dy := tx-x, ty-y
	l := math.Hypot(dx, dy)
	if l == 0 {
		return x, y
	}
	return x + dx/l*r, y + dy/l*r
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}
