package symbolic_test

import (
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/ltlf"
)

func TestFormat(t *testing.T) {
	f, err := ltlf.ParseString("G(a -> X b)")
	if err != nil {
		t.Fatal(err)
	}
	d, err := ltlf.ToDFA(nil, f)
	if err != nil {
		t.Fatal(err)
	}
	want := `propositions a b
start 0
accept 1 2
0 1 !a
0 2 a
1 1 !a
1 2 a
2 3 !b
2 1 !a & b
2 2 a & b
3 3 true
`
	if got := symbolic.Format(d); got != want {
		t.Errorf("Format:\n%s\nwant\n%s", got, want)
	}
	if got := symbolic.FormatDiagram(d); !strings.Contains(got, "node 3 a n1 n2\nstate 0 n0\n") {
		t.Errorf("FormatDiagram:\n%s", got)
	}
	if got := symbolic.DOT(d); !strings.Contains(got, `2 -> 1 [label="!a & b"];`) {
		t.Errorf("DOT:\n%s", got)
	}
}

// TestProduct: products of the DFAs of a and b are the DFAs of a ∘ b.
func TestProduct(t *testing.T) {
	for _, c := range []struct {
		op   string
		eval func([]bool) bool
	}{{"&", func(v []bool) bool { return v[0] && v[1] }}, {"|", func(v []bool) bool { return v[0] || v[1] }},
		{"->", func(v []bool) bool { return !v[0] || v[1] }}, {"<->", func(v []bool) bool { return v[0] == v[1] }}} {
		a, _ := ltlf.ParseString("propositions p q\nG(p -> X q)")
		b, _ := ltlf.ParseString("propositions p q\nF(q & X[!] p)")
		ab, _ := ltlf.ParseString("propositions p q\n(G(p -> X q)) " + c.op + " (F(q & X[!] p))")
		da, _ := ltlf.ToDFAUnminimized(nil, a)
		db, _ := ltlf.ToDFAUnminimized(nil, b)
		want, _ := ltlf.ToDFAUnminimized(nil, ab)
		p, err := symbolic.Product(nil, []*symbolic.DFA{da, db}, c.eval)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		if cex, err := symbolic.Compare(nil, p, want); cex != nil || err != nil {
			t.Errorf("%s: product differs on %v (%v)", c.op, cex, err)
		}
		if p.Accept[p.Start] {
			t.Errorf("%s: the product accepts the empty trace", c.op)
		}
	}
}
