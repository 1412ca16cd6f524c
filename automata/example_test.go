package automata_test

import (
	"fmt"

	"github.com/brasp-dev/brasp/automata"
)

// Classify answers with witnesses: PARITY is neither star-free nor in AC0.
func ExampleClassify() {
	d, _ := automata.Parse("parity.dfa", []byte("alphabet a b\nstart e\naccept o\ne a e\ne b o\no a o\no b e\n"))
	c, err := automata.Classify(nil, d)
	if err != nil {
		panic(err)
	}
	fmt.Print(c.Format())
	// Output:
	// star-free: no
	//   witness: w = "b" counts modulo 2: with u = ε and v = ε, u·w^n·v is rejected for n ≡ 0 and accepted for n ≡ 1 (mod 2)
	// stutter-invariant: no
	//   witness: u = ε, a = "b", v = ε: "b" is accepted, "bb" is rejected
	// ac0: no
	//   witness: w = "b" counts modulo 2 (|w| = 1, the stability index: w^n stays in the stable semigroup, where it generates a group of order 2): with u = ε and v = ε, u·w^n·v is rejected for n ≡ 0 and accepted for n ≡ 1 (mod 2)
	// dfa-states: 2
	// transformer, strict masking, no position embeddings: no (star-free (§4, Thm 5.1))
	// transformer, non-strict masking, no position embeddings: no (stutter-invariant and star-free (§5.2))
	// transformer, strict masking, rational sinusoidal position embeddings: no (regular and in AC0 (§5.3, Cor. 5.4))
}
