package depth

import (
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/exact"
	"github.com/brasp-dev/brasp/position"
)

// TestPositionClasses: following next from position 1 and reading the
// predicates at rep gives, at every position, the predicates of the
// position itself (MOD and tables with random prefixes and periods).
func TestPositionClasses(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 14))
	bits := func(n int) string {
		b := make([]byte, n)
		for k := range b {
			b[k] = "01"[rng.IntN(2)]
		}
		return string(b)
	}
	for range 200 {
		var a Atoms
		for range 1 + rng.IntN(3) {
			if rng.IntN(3) == 0 {
				m := 1 + rng.IntN(6)
				a.Predicates = append(a.Predicates, brasp.Predicate{Kind: brasp.Mod, R: rng.IntN(m), M: m})
			} else {
				a.Predicates = append(a.Predicates, brasp.Predicate{Kind: brasp.Periodic, Table: position.Periodic{Prefix: bits(rng.IntN(6)), Period: bits(1 + rng.IntN(5))}})
			}
		}
		c := a.classes()
		p := 1
		for i := 1; i <= 200; i++ {
			if p < 1 || p > c.prefix+c.period {
				t.Fatalf("%v: position %d has class %d", a.Predicates, i, p)
			}
			if i > 1 && c.rep(p) == 1 {
				t.Fatalf("%v: position %d is represented by the first one", a.Predicates, i)
			}
			for _, q := range a.Predicates {
				r := c.rep(p)
				if i == 1 {
					r = 1
				}
				if q.Holds(r, r+1) != q.Holds(i, i+1) {
					t.Fatalf("%s at %d: class %d (rep %d) disagrees", q.Name(), i, p, r)
				}
			}
			p = c.next(p)
		}
	}
}

// TestPeriodicDepth: languages read through PERIODIC tables get exact
// bounds in the since fragment, with a program of that depth exactly
// equivalent to the language and a certificate that checks.
func TestPeriodicDepth(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		depth     int
		known     bool // give the program as a known upper bound
	}{
		{"position_only", "Q_a(i)\nQ_b(i)\nPERIODIC_0110_1(i)\nY(i) := PERIODIC_0110_1(i) & Q_b(i)\n", 0, false},
		{"last_marked_b", "Q_a(i)\nQ_b(i)\nPERIODIC_1_01(i)\nY(i) := rightmost [j<i, PERIODIC_1_01(j)] Q_b(j) : 0\n", 1, false},
		{"table_and_mod", "Q_a(i)\nQ_b(i)\nPERIODIC_00_1(i)\nMOD_0_2(i)\nA(i) := rightmost [j<i, PERIODIC_00_1(j) & Q_a(j)] 1 : 0\nY(i) := rightmost [j<i, A(j)] MOD_0_2(j) : 0\n", 2, true},
	} {
		p, err := brasp.Parse(tc.name+".brasp", []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		d, err := exact.ProgramDFA(nil, p)
		if err != nil {
			t.Fatal(err)
		}
		var preds []brasp.Predicate
		for _, v := range p.Vectors {
			if v.Kind == brasp.PredicateVector {
				preds = append(preds, v.Pred)
			}
		}
		lang := Language{Atoms: Atoms{Alphabet: p.Alphabet, Predicates: preds}, DFA: d}
		var known []Known // none: the upper bound comes from the types
		if tc.known {
			known = []Known{{Program: p, Source: "the program"}}
		}
		r, err := Analyze(nil, lang, known, Options{Fragment: Since, MaxDepth: 4})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if (tc.depth > 0 && !tc.known && !r.Exact) || r.Lower != tc.depth || r.Upper != tc.depth {
			t.Fatalf("%s: bounds %d..%d (exact %v, stopped %q), want %d", tc.name, r.Lower, r.Upper, r.Exact, r.Stopped, tc.depth)
		}
		if r.Witness != nil {
			if err := Check(nil, lang, Since, r.Witness.In, r.Witness.Out, r.Witness.Depth); err != nil {
				t.Fatalf("%s: the certificate does not check: %v", tc.name, err)
			}
		}
		pd, err := exact.ProgramDFA(nil, r.Program)
		if err != nil {
			t.Fatal(err)
		}
		if eq, w, _, _ := exact.Equivalent(pd, d); !eq {
			t.Fatalf("%s: the depth-%d program differs on %v:\n%s", tc.name, r.Upper, w, brasp.Format(r.Program))
		}
	}
}
