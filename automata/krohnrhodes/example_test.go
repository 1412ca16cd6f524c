package krohnrhodes_test

import (
	"fmt"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/krohnrhodes"
	"github.com/brasp-dev/brasp/brasp"
)

// The paper's automaton A_3 (App. B.4) decomposes into the cascade of its
// Figure: three two-state identity–reset levels.
func ExampleDecompose() {
	d, err := automata.Parse("a3.dfa", []byte(`alphabet L R
start 0
accept 3
0 L 0
0 R 1
1 L 0
1 R 2
2 L 1
2 R 3
3 L 2
3 R 3
`))
	if err != nil {
		panic(err)
	}
	c, err := krohnrhodes.Decompose(nil, d)
	if err != nil {
		panic(err)
	}
	fmt.Print(c)
	p, err := krohnrhodes.CascadeToBRASP(c)
	if err != nil {
		panic(err)
	}
	w, _ := d.Alphabet.ParseWord("LRRRLR")
	fmt.Println(len(p.Vectors), "vectors; accepts LRRRLR:", p.Accepts(w), d.Accepts(w))
	_ = brasp.Format(p)
	// Output:
	// cascade of 3 identity-reset levels emulating a 4-state DFA (8 reachable global states)
	// level 1: 2 states
	//   1.0 = {0,1,2} (initial)
	//   1.1 = {1,2,3}
	//   reset to 1.0 on L
	//   reset to 1.1 on R
	// level 2: 2 states
	//   2.0 = {0,1} (initial)
	//   2.1 = {1,2}
	//   reset to 2.0 on L when levels above are (1.0)
	//   reset to 2.1 on R when levels above are (1.1)
	// level 3: 2 states
	//   3.0 = {0} (initial)
	//   3.1 = {1}
	//   reset to 3.0 on L when levels above are (1.0,2.0)
	//   reset to 3.1 on R when levels above are (1.1,2.1)
	// homomorphism:
	//   (1.0,2.0,3.0) -> 0
	//   (1.1,2.0,3.0) -> 1
	//   (1.1,2.1,3.0) -> 2
	//   (1.0,2.1,3.0) -> 1
	//   (1.1,2.1,3.1) -> 3
	//   (1.0,2.1,3.1) -> 2
	//   (1.0,2.0,3.1) -> 1
	//   (1.1,2.0,3.1) -> 2
	// 16 vectors; accepts LRRRLR: true true
}
