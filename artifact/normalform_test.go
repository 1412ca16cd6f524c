package artifact

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/examples"
)

// nonUnary counts the attention operations of p whose value (values) and
// score (scores) read a vector at (i).
func nonUnary(p *brasp.Program) (values, scores int) {
	for _, v := range p.Vectors {
		if v.Kind != brasp.AttentionVector {
			continue
		}
		if brasp.UsesVar(v.Att.Value, brasp.VarI) {
			values++
		}
		if brasp.UsesVar(v.Att.Score, brasp.VarI) {
			scores++
		}
	}
	return values, scores
}

// acceptors returns the example programs as acceptors: each acceptor as it
// is, and each transducer once per output vector, accepting where that
// vector is 1 at the last position (so that the transducers' scores, the
// only examples whose scores read (i), are checked exactly too).
func acceptors(t *testing.T) map[string]*brasp.Program {
	out := map[string]*brasp.Program{}
	for _, name := range examples.Names() {
		p := examples.MustProgram(name)
		if !p.IsTransducer() {
			out[name] = p
			continue
		}
		for s, k := range p.Output.Vectors {
			q := *p
			q.Output = brasp.Output{Explicit: true, Accept: k}
			if err := brasp.Validate(&q); err != nil {
				t.Fatalf("%s as an acceptor of %s: %v", name, p.Vectors[k].Name, err)
			}
			out[name+"@"+p.Output.Symbols[s]] = &q
		}
	}
	return out
}

// TestNormalFormsEquivalent converts every example acceptor to each normal
// form, with and without --simplify, and checks that the result has the
// form and accepts exactly the same words (Equiv, through minimal DFAs). It
// also checks that each form really rewrote some example, so that the test
// is not vacuous.
func TestNormalFormsEquivalent(t *testing.T) {
	progs := acceptors(t)
	rewritten := map[NormalForm]int{}
	for name, p := range progs {
		a := NewProgram(p)
		values, scores := nonUnary(p)
		for _, form := range append(NormalForms(), "") {
			for _, simplify := range []bool{false, true} {
				if form == "" && !simplify {
					continue
				}
				opts := Options{BRASP: BRASPOptions{NormalForm: form, Simplify: simplify}}
				b, err := Convert(nil, a, KindBRASP, opts)
				if err != nil {
					t.Errorf("%s --normal-form %q --simplify=%v: %v", name, form, simplify, err)
					continue
				}
				q := b.(*Program).Prog
				if err := brasp.Validate(q); err != nil {
					t.Errorf("%s --normal-form %q --simplify=%v: invalid result: %v", name, form, simplify, err)
					continue
				}
				v, s := nonUnary(q)
				if (form == UnaryValue || form == Unary) && v > 0 {
					t.Errorf("%s --normal-form %s: %d values still read (i)", name, form, v)
				}
				if (form == UnaryScore || form == Unary) && s > 0 {
					t.Errorf("%s --normal-form %s: %d scores still read (i)", name, form, s)
				}
				if (form == UnaryValue && values > 0) || (form == UnaryScore && scores > 0) || (form == Unary && values+scores > 0) {
					rewritten[form]++
				}
				r, err := Equiv(nil, a, b, Options{})
				if err != nil {
					t.Errorf("%s --normal-form %q --simplify=%v: Equiv: %v", name, form, simplify, err)
					continue
				}
				if !r.Equal {
					t.Errorf("%s --normal-form %q --simplify=%v: not equivalent on %q (original accepts: %v)\n%s",
						name, form, simplify, r.Alphabet.FormatWord(r.Word), r.FirstAccepts, brasp.Format(q))
				}
			}
		}
	}
	for _, form := range NormalForms() {
		if rewritten[form] == 0 {
			t.Errorf("no example needed --normal-form %s: the test checks nothing for it", form)
		}
	}
}

// TestNormalFormsDiscriminate checks that the equivalence check above can
// fail: a wrong unary-score rewriting of induction heads (every (i)-atom of
// the score replaced by 1, one of UnaryScore's copies without the
// selection) is caught.
func TestNormalFormsDiscriminate(t *testing.T) {
	p := acceptors(t)["induction_heads.brasp@a"]
	src := brasp.Format(p)
	for _, x := range []string{"Q_a(i) & ", "Q_b(i) & ", "Q_c(i) & "} {
		src = strings.ReplaceAll(src, x, "")
	}
	wrong, err := brasp.Parse("wrong.brasp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if _, s := nonUnary(wrong); s != 0 {
		t.Fatalf("the wrong rewriting still has %d (i)-scores:\n%s", s, src)
	}
	r, err := Equiv(nil, NewProgram(p), NewProgram(wrong), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Equal {
		t.Errorf("Equiv does not tell induction heads from a wrong unary-score rewriting:\n%s", src)
	}
}

// TestNormalFormsTransduce compares every output vector of the example
// transducers, at every position, before and after each normal form, on
// every word up to a length.
func TestNormalFormsTransduce(t *testing.T) {
	for _, name := range examples.Names() {
		p := examples.MustProgram(name)
		if !p.IsTransducer() {
			continue
		}
		a := NewProgram(p)
		maxLen := 1
		for n := len(p.Alphabet); n < 4000; n *= len(p.Alphabet) {
			maxLen++
		}
		for _, form := range NormalForms() {
			b, err := Convert(nil, a, KindBRASP, Options{BRASP: BRASPOptions{NormalForm: form, Simplify: true}})
			if err != nil {
				t.Fatalf("%s --normal-form %s: %v", name, form, err)
			}
			q := b.(*Program)
			if !q.IsTransducer() || !q.Prog.Output.Symbols.Equal(p.Output.Symbols) {
				t.Fatalf("%s --normal-form %s: output changed to %v", name, form, q.Prog.Output)
			}
			words := 0
			var w []int
			var walk func()
			walk = func() {
				if len(w) > 0 {
					words++
					_, want, _ := a.Vectors(w)
					_, got, _ := q.Vectors(w)
					for s, k := range p.Output.Vectors {
						wv, gv := want[k], got[q.Prog.Output.Vectors[s]]
						for i := range w {
							if wv[i] != gv[i] {
								t.Fatalf("%s --normal-form %s: output %s differs at position %d of %s", name, form, p.Output.Symbols[s], i, p.Alphabet.FormatWord(w))
							}
						}
					}
				}
				if len(w) == maxLen {
					return
				}
				for c := range p.Alphabet {
					w = append(w, c)
					walk()
					w = w[:len(w)-1]
				}
			}
			walk()
			if words < 1000 {
				t.Fatalf("%s: only %d words compared", name, words)
			}
		}
	}
}

// TestNormalFormLimit checks that unary-score stops at the budget's
// unary-score-copies with an error naming that limit.
func TestNormalFormLimit(t *testing.T) {
	a := NewProgram(examples.MustProgram("associative_recall.brasp"))
	copies := func(n int64) *budget.Budget {
		return budget.New(context.Background(), budget.Settings{"unary-score-copies": n})
	}
	// Y_1, Y_2, Y_3 each need 2^3 = 8 copies: 24 in all.
	for _, limit := range []int64{7, 23} {
		_, err := Convert(copies(limit), a, KindBRASP, Options{BRASP: BRASPOptions{NormalForm: Unary}})
		var le *budget.Error
		if !errors.As(err, &le) || le.Limit.Name != "unary-score-copies" || le.Value != limit {
			t.Errorf("limit %d: %v; want a *budget.Error with that limit", limit, err)
		}
	}
	if _, err := Convert(copies(24), a, KindBRASP, Options{BRASP: BRASPOptions{NormalForm: UnaryScore}}); err != nil {
		t.Errorf("limit 24: %v", err)
	}
	if _, err := Convert(nil, a, KindBRASP, Options{BRASP: BRASPOptions{NormalForm: UnaryScore}}); err != nil {
		t.Errorf("default limit: %v", err)
	}
	if _, err := Convert(nil, a, KindBRASP, Options{BRASP: BRASPOptions{NormalForm: "binary"}}); err == nil || !strings.Contains(err.Error(), `unknown normal form "binary"`) {
		t.Errorf("an unknown normal form: %v", err)
	}
	for _, s := range []string{"", "unary-value", "unary-score", "unary"} {
		if f, err := ParseNormalForm(s); err != nil || string(f) != s {
			t.Errorf("ParseNormalForm(%q) = %q, %v", s, f, err)
		}
	}
}
