package ltlf

import (
	"fmt"
	"strings"
	"testing"
)

// TestBoundedSugar checks Spot's bounded operators against their
// unfoldings, written out by hand: the same formula (hash-consed DAG), so
// also the same printed form, which reads back the same.
func TestBoundedSugar(t *testing.T) {
	for _, c := range []struct{ sugar, plain string }{
		{"X[3] a", "X X X a"},
		{"X[0] a", "a"},
		{"X[!2] a", "X[!] X[!] a"},
		{"X[2!] a", "X[!] X[!] a"},
		{"X[!][2] a", "X[!] X[!] a"},
		{"F[1:3] a", "X(a | X(a | X a))"},
		{"F[0:0] a", "a"},
		{"G[1:2] a", "X(a & X a)"},
		{"F[2:] a", "X X F a"},
		{"F[2:$] a", "X X F a"},
		{"F[0:inf] a", "F a"},
		{"G[ 1 : ] a", "X G a"},
		{"G[1:2!] a", "X[!](a & X[!] a)"},
		{"F[!1:2] a", "X[!](a | X[!] a)"},
		{"G[1:2] a & b", "(G[1:2] a) & b"},
		{"GF[1:2]a", "G X(a | X a)"},
		{"a U X[2] b", "a U X X b"},
		{"G(req -> F[1:3] grant)", "G(req -> X(grant | X(grant | X grant)))"},
	} {
		f, g := mustParse(t, c.sugar), mustParse(t, c.plain)
		if len(f.Props) == len(g.Props) {
			if h, err := g.WithProps(f.Props); err == nil {
				g = h
			}
		}
		if f.String() != g.String() {
			t.Errorf("%s: %s, want %s", c.sugar, f, g)
		}
		back := mustParse(t, f.String())
		if back.String() != f.String() {
			t.Errorf("%s: printed %s reads back as %s", c.sugar, f, back)
		}
	}
}

// TestBoundedSemantics checks the bounded operators, through Eval, against
// their meaning on traces of length L, for the weak (Spot's X) and strong
// (X[!]) unfoldings:
//
//	F[n:m] a     some k in n..m with k < L has a, or L ≤ m (a weak next ran off the end)
//	F[n:m!] a    some k in n..m with k < L has a
//	G[n:m] a     every k in n..m with k < L has a
//	G[n:m!] a    L > m and every k in n..m has a
//	X[n] a       L ≤ n, or a at n;  X[n!] a: L > n and a at n
func TestBoundedSemantics(t *testing.T) {
	for n := 0; n <= 3; n++ {
		for m := n; m <= 4; m++ {
			for _, strong := range []bool{false, true} {
				bang := map[bool]string{false: "", true: "!"}[strong]
				fF := mustParse(t, fmt.Sprintf("propositions a\nF[%d:%d%s] a", n, m, bang))
				fG := mustParse(t, fmt.Sprintf("propositions a\nG[%d:%d%s] a", n, m, bang))
				fX := mustParse(t, fmt.Sprintf("propositions a\nX[%d%s] a", n, bang))
				allTraces(1, 6, func(tr Trace) {
					L := len(tr)
					some, every := false, true
					for k := n; k <= m; k++ {
						if k < L && tr[k].Has(0) {
							some = true
						}
						if k < L && !tr[k].Has(0) {
							every = false
						}
					}
					wantF, wantG := some || !strong && L <= m, every && (!strong || L > m)
					wantX := n < L && tr[n].Has(0) || !strong && L <= n
					if got := fF.Eval(tr); got != wantF {
						t.Errorf("%s on %s: %v, want %v", fF, FormatTrace(fF.Props, tr), got, wantF)
					}
					if got := fG.Eval(tr); got != wantG {
						t.Errorf("%s on %s: %v, want %v", fG, FormatTrace(fG.Props, tr), got, wantG)
					}
					if got := fX.Eval(tr); got != wantX {
						t.Errorf("%s on %s: %v, want %v", fX, FormatTrace(fX.Props, tr), got, wantX)
					}
				})
			}
		}
	}
}

// TestBoundedPrinted checks that runs of next print as X[k].
func TestBoundedPrinted(t *testing.T) {
	for src, want := range map[string]string{
		"X X X a": "X[3] a", "X[!] X[!] a": "X[2!] a", "X X[!] X[!] a": "X X[2!] a", "X a": "X a",
		"F[1:3] a": "X (a | X (a | X a))", "G[2:] a": "X[2] G a", "X[4!] (a U b)": "X[4!] (a U b)",
	} {
		if got := mustParse(t, src).String(); got != want {
			t.Errorf("%s printed as %s, want %s", src, got, want)
		}
	}
}

// TestBoundedPrintedMaxBound: a run of nexts longer than MaxBound is
// printed as several X[k], each at most MaxBound, and reads back.
func TestBoundedPrintedMaxBound(t *testing.T) {
	f := mustParse(t, "X[16384] X[16384] X[!] X[!] a")
	got := f.String()
	if want := "X[16384] X[16384] X[2!] a"; got != want {
		t.Fatalf("printed as %s, want %s", got, want)
	}
	g := mustParse(t, "X[16384] X[16384] X a")
	if got, want := g.String(), "X[16384] X[16384] X a"; got != want {
		t.Fatalf("printed as %s, want %s", got, want)
	}
	if back := mustParse(t, g.String()); back.String() != g.String() {
		t.Fatalf("read back as %s", back)
	}
}

func TestBoundedErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"X[1:2] a", "1:2: X[1:2]: X takes one number, X[n]"},
		{"F[3:1] a", "1:2: F[3:1]: the upper bound 1 is below the lower bound 3"},
		{"F[2] a", "1:2: F[2]: expected F[n:m] or F[n:]"},
		{"X[99999] a", "1:2: X[99999]: bound 99999 is more than MaxBound = 16384"},
		{"G[1:x] a", `1:2: G[1:x]: "x" is not a number`},
		{"a & [2] b", "1:5: [2] must follow X, F or G"},
		{"F[1:2:3] a", `1:2: F[1:2:3]: "2:3" is not a number`},
		{"F[0:999] a", "1:2: formula nested too deeply"},
	} {
		_, err := ParseString(c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %s", c.src, err, c.want)
		}
	}
}
