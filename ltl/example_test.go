package ltl_test

import (
	"fmt"

	"github.com/brasp-dev/brasp/brasp"
	"github.com/brasp-dev/brasp/ltl"
)

// Parse a .ltl file and run the formula on words: φ2 of §3.3 defines Σ*#b*#.
func ExampleParseFile() {
	f, err := ltl.ParseFile("phi2.ltl", []byte(`alphabet a b "#"
"#" & (b since "#")`))
	if err != nil {
		fmt.Println(err)
		return
	}
	ev := ltl.NewEvaluator(f)
	for _, s := range []string{"a#bb#", "#a#", "##"} {
		w, _ := f.Alphabet().ParseWord(s)
		fmt.Println(s, ev.Accepts(w))
	}
	fmt.Println("temporal depth", f.Depth())
	// Output:
	// a#bb# true
	// #a# false
	// ## true
	// temporal depth 1
}

// Errors carry file:line:col positions, all of them at once.
func ExampleParseFile_errors() {
	_, err := ltl.ParseFile("bad.ltl", []byte("alphabet a b\nc & (a since d)"))
	fmt.Println(err)
	// Output:
	// bad.ltl:2:1: unknown symbol c: not in the alphabet {a b}
	// bad.ltl:2:14: unknown symbol d: not in the alphabet {a b}
}

// Theorem 3.2: since becomes rightmost strict future-masked attention.
func ExampleToBRASP() {
	f, _ := ltl.ParseFile("phi2.ltl", []byte(`alphabet a b "#"
"#" & (b since "#")`))
	p, _ := ltl.ToBRASP(f)
	fmt.Print(brasp.Format(p))
	// Output:
	// Q_a(i)
	// Q_b(i)
	// Q_"#"(i)
	// Since(i) := rightmost [j<i, !Q_b(j) | Q_"#"(j)] Q_"#"(j) : 0
	// And(i) := Q_"#"(i) & Since(i)
}

// Theorem 3.3: a B-RASP program becomes a formula; shared subformulas are
// printed once, with let.
func ExampleFromBRASP() {
	p, _ := brasp.Parse("prev_a.brasp", []byte(`Q_a(i)
Q_b(i)
P(i) := rightmost [j<i, 1] Q_a(j) : 0
Y(i) := leftmost [i<j, Q_b(j)] P(j) : 0`))
	f, err := ltl.FromBRASP(nil, p)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ltl.Format(f))
	fmt.Println("depth", f.Depth(), "DAG", f.DAGSize(), "tree", f.TreeSize())
	// Output:
	// (!b until (b & (false since a)))
	// depth 2 DAG 7 tree 8
}
