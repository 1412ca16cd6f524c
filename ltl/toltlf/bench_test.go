package toltlf_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/exact"
	"github.com/brasp-dev/brasp/internal/testkit"
	"github.com/brasp-dev/brasp/ltl"
	"github.com/brasp-dev/brasp/ltl/toltlf"
)

// valuationSource is a formula in the corpus harness's valuation encoding:
// the letters are the 2^k valuations of k propositions, proposition j is a
// let-bound set of 2^(k-1) letters, and the root is O(first & φ).
func valuationSource(k int, phi string) string {
	var b strings.Builder
	b.WriteString("alphabet")
	for v := range 1 << k {
		fmt.Fprintf(&b, " v%0*b", k, v)
	}
	b.WriteString("\n")
	for j := range k {
		var set []string
		for v := range 1 << k {
			if v>>(k-1-j)&1 == 1 {
				set = append(set, fmt.Sprintf("v%0*b", k, v))
			}
		}
		fmt.Fprintf(&b, "let P%d = (%s) in\n", j, strings.Join(set, " | "))
	}
	fmt.Fprintf(&b, "O (first & (%s))\n", phi)
	return b.String()
}

// BenchmarkRoutes compares the symbolic route with the bimachine on the
// paper's φ2 and on formulas in the harness's valuation encoding.
//
//	go test ./ltl/toltlf -run '^$' -bench Routes
func BenchmarkRoutes(b *testing.B) {
	response := func(k int) string {
		var cs []string
		for j := 0; j+1 < k; j += 2 {
			cs = append(cs, fmt.Sprintf("G (P%d -> F P%d)", j, j+1))
		}
		return strings.Join(cs, " & ")
	}
	cases := []struct {
		name string
		f    *ltl.Formula
	}{
		{"phi2", testkit.Load(b, "../testdata/phi2.ltl", ltl.ParseFile)},
	}
	for _, k := range []int{4, 6, 8} {
		f, err := ltl.ParseFile("v.ltl", []byte(valuationSource(k, response(k))))
		if err != nil {
			b.Fatal(err)
		}
		cases = append(cases, struct {
			name string
			f    *ltl.Formula
		}{fmt.Sprintf("responses-%d-letters", 1<<k), f})
	}
	for _, c := range cases {
		b.Run(c.name+"/symbolic", func(b *testing.B) {
			for b.Loop() {
				if _, err := toltlf.DFA(nil, c.f); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/bimachine", func(b *testing.B) {
			for b.Loop() {
				if _, err := exact.BimachineFormulaDFA(nil, c.f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
