package brasp_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/position"
)

// The paper's running example, Dyck-1 of depth 2 (§3.2): parse the program,
// run it on a word and print the table of Figure 2.
func Example() {
	src := `Q_l(i)
Q_r(i)
P_l(i) := rightmost [j<i, 1] Q_l(j) : 0
S_r(i) := leftmost [i<j, 1] Q_r(j) : 0
I(i) := (Q_l(i) & S_r(i)) | (P_l(i) & Q_r(i))
B_l(i) := rightmost [j<i, !I(j)] Q_l(j) : 0
A_r(i) := leftmost [i<j, !I(j)] Q_r(j) : 0
C(i) := I(i) | (Q_l(i) & A_r(i)) | (Q_r(i) & B_l(i))
Y(i) := rightmost [1, !C(j)] 0 : 1
`
	p, err := brasp.Parse("dyck.brasp", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	w, err := p.Alphabet.ParseWord("llrrllrlrr")
	if err != nil {
		fmt.Println(err)
		return
	}
	t := p.Run(w)
	fmt.Print(brasp.FormatTable(t))
	fmt.Println("accept:", t.Accept())
	// Output:
	// input l l r r l l r l r r
	// Q_l   1 1 0 0 1 1 0 1 0 0
	// Q_r   0 0 1 1 0 0 1 0 1 1
	// P_l   0 1 1 0 0 1 1 0 1 0
	// S_r   0 1 1 0 0 1 0 1 1 0
	// I     0 1 1 0 0 1 1 1 1 0
	// B_l   0 1 1 1 0 1 1 1 1 1
	// A_r   1 1 1 0 1 1 1 1 1 0
	// C     1 1 1 1 1 1 1 1 1 1
	// Y     1 1 1 1 1 1 1 1 1 1
	// accept: true
}

// Parse reports every problem of a program at once, as file:line:col: msg.
func ExampleParse_errors() {
	src := `Q_a(i)
P(i) := Q_a(j)
R(i) := leftmost [1, X(j)] Q_a(j) : 0
R(i) := rightmost [j<i 1] 1 : 0
`
	_, err := brasp.Parse("bad.brasp", []byte(src))
	fmt.Println(err)
	// Output:
	// bad.brasp:2:9: Q_a(j) in a position-wise operation: only (i) is allowed there
	// bad.brasp:3:22: undefined: X
	// bad.brasp:4:24: expected , after the mask, found "1"
}

// A Builder assembles a program operation by operation, as converters do;
// the result is checked like a parsed program and prints as source text.
func ExampleNewBuilder() {
	alpha, _ := alphabet.New("a", "b")
	b := brasp.NewBuilder(alpha)
	qa, qb := b.SymbolVec(0), b.SymbolVec(1)
	// Is there an a somewhere before i?
	seenA := b.Attend("SeenA", position.Rightmost, position.MaskFuture, b.J(qa), brasp.Bool(true), brasp.Bool(false))
	// Accept iff every b has an a before it.
	bad := b.Positionwise("Bad", brasp.And(b.I(qb), brasp.Not(b.I(seenA))))
	b.Attend("Y", position.Leftmost, position.MaskNone, b.J(bad), brasp.Bool(false), brasp.Bool(true))
	p, err := b.Program()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(brasp.Format(p))
	for _, s := range []string{"aab", "ba", "abab"} {
		w, _ := p.Alphabet.ParseWord(s)
		fmt.Println(s, p.Accepts(w))
	}
	// Output:
	// Q_a(i)
	// Q_b(i)
	// SeenA(i) := rightmost [j<i, Q_a(j)] 1 : 0
	// Bad(i) := Q_b(i) & !SeenA(i)
	// Y(i) := leftmost [1, Bad(j)] 0 : 1
	// aab true
	// ba false
	// abab true
}

// UnaryValue rewrites every attention operation whose value reads (i) so
// that all values read only (j) (Prop. B.1); every vector keeps its name.
func ExampleUnaryValue() {
	p, _ := brasp.Parse("ab.brasp", []byte(`Q_a(i)
Q_b(i)
AB(i) := rightmost [j<i, 1] Q_a(j) & Q_b(i) : 0
`))
	fmt.Print(brasp.Format(brasp.UnaryValue(p)))
	// Output:
	// Q_a(i)
	// Q_b(i)
	// AB_A(i) := rightmost [j<i, 1] 1 : 0
	// AB_V1(i) := rightmost [j<i, 1] Q_a(j) : 0
	// AB(i) := AB_A(i) & (AB_V1(i) & Q_b(i))
}

// UnaryScore splits an attention operation by the values of the (i)-atoms
// of its score (Lemma B.2); the construction is exponential, so it takes a
// limit on the number of operations it may add.
func ExampleUnaryScore() {
	p, _ := brasp.Parse("s.brasp", []byte(`Q_a(i)
Q_b(i)
P(i) := leftmost [i<j, Q_a(i) & Q_b(j) | Q_b(i) & Q_a(j)] 1 : 0
`))
	q, err := brasp.UnaryScore(budget.New(context.Background(), budget.Settings{"unary-score-copies": 4}), p)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(brasp.Format(q))
	_, err = brasp.UnaryScore(budget.New(context.Background(), budget.Settings{"unary-score-copies": 3}), p)
	fmt.Println(err)
	fmt.Println(errors.Is(err, budget.ErrLimit))
	// Output:
	// Q_a(i)
	// Q_b(i)
	// P_00(i) := leftmost [i<j, 0] 1 : 0
	// P_01(i) := leftmost [i<j, Q_a(j)] 1 : 0
	// P_10(i) := leftmost [i<j, Q_b(j)] 1 : 0
	// P_11(i) := leftmost [i<j, Q_b(j) | Q_a(j)] 1 : 0
	// P(i) := (P_00(i) & !Q_a(i) & !Q_b(i)) | (P_01(i) & !Q_a(i) & Q_b(i)) | (P_10(i) & Q_a(i) & !Q_b(i)) | (P_11(i) & Q_a(i) & Q_b(i))
	// the unary-score normal form (operation P reads 2 vectors at i: 2^2 copies) exceeds the limit unary-score-copies=3 operations (needs 4) (raise it with --limit unary-score-copies=N)
	// true
}

// ExampleDeadCode shows the clean-up pass: operations the output does not
// read are dropped, symbol vectors stay.
func ExampleDeadCode() {
	p, err := brasp.Parse("d.brasp", []byte(`Q_a(i)
Q_b(i)
last(i)
Unused(i) := leftmost [1, Q_b(j)] 1 : 0
Y(i) := Q_a(i) & last(i)
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(brasp.Format(brasp.DeadCode(p)))
	// Output:
	// Q_a(i)
	// Q_b(i)
	// last(i)
	// Y(i) := Q_a(i) & last(i)
}
