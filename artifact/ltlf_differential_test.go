package artifact

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// The differential test of LTLf: random formulas with bounded operators,
// past operators and the empty-trace semantics, written as text, against an
// evaluator written here from the definitions (not package ltlf's), on
// every trace of up to 3 steps over two propositions: the formula as loaded
// (.ltlf), its automaton (ltlf → dfa), its program (ltlf → brasp) and its
// transformer (ltlf → transformer).

// dform is a formula of the test: an operator and its operands; lo, hi
// are the bounds of X[lo], F[lo:hi], G[lo:hi] (hi < 0: unbounded, F[lo:]),
// strong their "!".
type dform struct {
	op     string
	args   []*dform
	prop   int
	lo, hi int
	strong bool
}

var dprops = []string{"a", "b"}

// String writes f in Spot's syntax, every operand in parentheses.
func (f *dform) String() string {
	p := func(i int) string { return "(" + f.args[i].String() + ")" }
	switch f.op {
	case "prop":
		return dprops[f.prop]
	case "true", "false":
		return f.op
	case "!", "X", "X[!]", "F", "G", "Y", "Z", "O", "H":
		return f.op + " " + p(0)
	case "X[n]":
		return fmt.Sprintf("X[%d%s] %s", f.lo, bang(f.strong), p(0))
	case "F[n:m]", "G[n:m]":
		hi := ""
		if f.hi >= 0 {
			hi = fmt.Sprint(f.hi)
		}
		return fmt.Sprintf("%s[%d:%s%s] %s", f.op[:1], f.lo, hi, bang(f.strong), p(0))
	}
	return p(0) + " " + f.op + " " + p(1)
}

func bang(strong bool) string {
	if strong {
		return "!"
	}
	return ""
}

// eval is f at step i of the trace t (each step a bit set over dprops);
// every step read is checked to lie in the trace, so that i = 0 on the
// empty trace is the empty-trace semantics (a proposition is false, F is
// false, G is true, a weak next is true, a strong one false, …).
func (f *dform) eval(t []int, i int) bool {
	L := len(t)
	at := func(k, j int) bool { return f.args[k].eval(t, j) }
	switch f.op {
	case "prop":
		return i < L && t[i]>>f.prop&1 == 1
	case "true":
		return true
	case "false":
		return false
	case "!":
		return !at(0, i)
	case "&":
		return at(0, i) && at(1, i)
	case "|":
		return at(0, i) || at(1, i)
	case "->":
		return !at(0, i) || at(1, i)
	case "<->":
		return at(0, i) == at(1, i)
	case "xor":
		return at(0, i) != at(1, i)
	case "X":
		return i+1 >= L || at(0, i+1)
	case "X[!]":
		return i+1 < L && at(0, i+1)
	case "X[n]":
		if i+f.lo >= L {
			return !f.strong
		}
		return at(0, i+f.lo)
	case "F[n:m]", "G[n:m]":
		if f.hi < 0 { // X[lo] F φ, X[lo] G φ
			if i+f.lo >= L {
				return !f.strong
			}
			for j := i + f.lo; j < L; j++ {
				if at(0, j) == (f.op == "F[n:m]") {
					return f.op == "F[n:m]"
				}
			}
			return f.op == "G[n:m]"
		}
		some, every := false, true
		for k := f.lo; k <= f.hi; k++ {
			if i+k < L {
				v := at(0, i+k)
				some, every = some || v, every && v
			}
		}
		past := L-i <= f.hi // the trace ends before the window does
		if f.op == "F[n:m]" {
			return some || !f.strong && past
		}
		return every && (!f.strong || !past)
	case "F":
		for j := i; j < L; j++ {
			if at(0, j) {
				return true
			}
		}
		return false
	case "G":
		for j := i; j < L; j++ {
			if !at(0, j) {
				return false
			}
		}
		return true
	case "U", "W":
		for j := i; j < L; j++ {
			if at(1, j) {
				return true
			}
			if !at(0, j) {
				return false
			}
		}
		return f.op == "W"
	case "R", "M": // φ R ψ: ψ holds up to and including the first φ (R: or forever)
		for j := i; j < L; j++ {
			if !at(1, j) {
				return false
			}
			if at(0, j) {
				return true
			}
		}
		return f.op == "R"
	case "Y":
		return i > 0 && i-1 < L && at(0, i-1)
	case "Z":
		return i == 0 || at(0, i-1)
	case "O":
		for j := min(i, L-1); j >= 0; j-- {
			if at(0, j) {
				return true
			}
		}
		return false
	case "H":
		for j := min(i, L-1); j >= 0; j-- {
			if !at(0, j) {
				return false
			}
		}
		return true
	case "S":
		for j := min(i, L-1); j >= 0; j-- {
			if at(1, j) {
				return true
			}
			if !at(0, j) {
				return false
			}
		}
		return false
	}
	panic("dform: " + f.op)
}

// randomDform is a formula of about size operators; under a past operator
// only past operators and connectives (the automaton construction reads
// past operators over past-only formulas).
func randomDform(r *rand.Rand, size int, pastOnly bool) *dform {
	if size <= 0 {
		switch r.IntN(6) {
		case 0:
			return &dform{op: []string{"true", "false"}[r.IntN(2)]}
		}
		return &dform{op: "prop", prop: r.IntN(len(dprops))}
	}
	future := []string{"X", "X[!]", "F", "G", "U", "R", "W", "M", "X[n]", "F[n:m]", "G[n:m]"}
	past := []string{"Y", "Z", "O", "H", "S"}
	bool1 := []string{"!", "&", "|", "->", "<->", "xor"}
	ops := append(append([]string{}, bool1...), past...)
	if !pastOnly {
		ops = append(ops, future...)
	}
	op := ops[r.IntN(len(ops))]
	f := &dform{op: op}
	po := pastOnly || op == "Y" || op == "Z" || op == "O" || op == "H" || op == "S"
	switch op {
	case "X[n]":
		f.lo, f.strong = 1+r.IntN(3), r.IntN(2) == 0
	case "F[n:m]", "G[n:m]":
		f.lo, f.strong = 1+r.IntN(2), r.IntN(2) == 0
		f.hi = f.lo + r.IntN(3)
		if r.IntN(4) == 0 {
			f.hi = -1
		}
	}
	switch op {
	case "!", "X", "X[!]", "F", "G", "Y", "Z", "O", "H", "X[n]", "F[n:m]", "G[n:m]":
		f.args = []*dform{randomDform(r, size-1, po)}
	default:
		left := r.IntN(size)
		f.args = []*dform{randomDform(r, left, po), randomDform(r, size-1-left, po)}
	}
	return f
}

// dtraces are every trace of 1 to 3 steps over dprops, as steps and as
// written for brasp run.
func dtraces() (steps [][]int, texts []string) {
	for n := 1; n <= 3; n++ {
		for code := range 1 << (2 * n) {
			t := make([]int, n)
			parts := make([]string, n)
			for i := range t {
				t[i] = code >> (2 * i) & 3
				var names []string
				for p, name := range dprops {
					if t[i]>>p&1 == 1 {
						names = append(names, name)
					}
				}
				parts[i] = "{" + strings.Join(names, ",") + "}"
			}
			steps, texts = append(steps, t), append(texts, strings.Join(parts, ";"))
		}
	}
	return steps, texts
}

func TestLTLfDifferential(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 3))
	steps, texts := dtraces()
	rounds := 120
	if testing.Short() {
		rounds = 30
	}
	for n := range rounds {
		f := randomDform(rng, 1+rng.IntN(5), false)
		emptySem := n%3 == 0
		src := "propositions a b\n" + f.String() + "\n"
		if emptySem {
			src = "semantics empty_trace\n" + src
		}
		x, err := Load(nil, "f.ltlf", []byte(src), KindLTLf)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		type runner interface{ RunTrace(string) (bool, error) }
		kinds := map[string]runner{"ltlf": x.(runner)}
		d, err := Convert(nil, x, KindDFA, Options{})
		if err != nil {
			t.Fatalf("%s→ dfa: %v", src, err)
		}
		kinds["dfa"] = d.(runner)
		acceptsEmpty := emptySem && f.eval(nil, 0)
		for _, to := range []Kind{KindBRASP, KindTransformer} {
			y, err := Convert(nil, x, to, Options{})
			if acceptsEmpty {
				if err == nil || !strings.Contains(err.Error(), "holds on the empty trace") {
					t.Fatalf("%s→ %s: %v, want the empty trace refused", src, to, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s→ %s: %v", src, to, err)
			}
			kinds[string(to)] = y.(runner)
		}
		for kind, k := range kinds {
			for i, s := range steps {
				want := f.eval(s, 0)
				got, err := k.RunTrace(texts[i])
				if err != nil || got != want {
					t.Fatalf("%s as %s on %s: %v (%v), the definition says %v", src, kind, texts[i], got, err, want)
				}
			}
			// The empty trace: part of the language under the empty-trace
			// semantics (of the formula and its automaton), refused by the
			// formula otherwise.
			switch {
			case emptySem && (kind == "ltlf" || kind == "dfa"):
				if got, err := k.RunTrace(""); err != nil || got != acceptsEmpty {
					t.Fatalf("%s as %s on the empty trace: %v (%v), want %v", src, kind, got, err, acceptsEmpty)
				}
			case kind == "ltlf":
				if _, err := k.RunTrace(""); err == nil {
					t.Fatalf("%s: the empty trace read without the empty-trace semantics", src)
				}
			}
		}
	}
}
