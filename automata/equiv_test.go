package automata

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/internal/testkit"
)

// acceptsOver runs d on w, a word over alpha; a symbol d does not know
// rejects.
func acceptsOver(d *DFA, alpha alphabet.Alphabet, w []int) bool {
	q := d.Start
	for _, k := range w {
		c := d.Alphabet.Index(alpha[k])
		if c < 0 {
			return false
		}
		q = d.Delta[q][c]
	}
	return d.Accept[q]
}

// TestCompareAligned checks the search over merged alphabets against every
// word up to length 7: the same first disagreeing word, on the side the
// Disagreement names, over the alphabet it carries.
func TestCompareAligned(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	alphabets := []alphabet.Alphabet{{"a", "b"}, {"b", "a"}, {"b", "c"}, {"a", "b", "c"}, {"c"}}
	found := 0
	for range 300 {
		var a, b *DFA
		for _, d := range []**DFA{&a, &b} {
			alpha := alphabets[rng.IntN(len(alphabets))]
			*d = randomDFA(rng, 1+rng.IntN(4), len(alpha))
			(*d).Alphabet = alpha
		}
		merged := MergeAlphabets(a.Alphabet, b.Alphabet)
		for _, domain := range []Domain{SigmaStar, SigmaPlus} {
			diff, err := CompareAligned(nil, a, b, domain)
			if err != nil {
				t.Fatal(err)
			}
			var first []int
			testkit.EachWord(len(merged), 0, 7, func(w []int) {
				if first != nil || (domain == SigmaPlus && len(w) == 0) || acceptsOver(a, merged, w) == acceptsOver(b, merged, w) {
					return
				}
				first = slices.Clone(w)
			})
			switch {
			case first == nil && diff != nil:
				t.Fatalf("CompareAligned found %v but no word up to length 7 differs", diff.Word)
			case first != nil && diff == nil:
				t.Fatalf("CompareAligned missed %v", first)
			case first != nil:
				found++
				if !slices.Equal(first, diff.Word) || diff.AcceptedByFirst != acceptsOver(a, merged, first) || !diff.Alphabet.Equal(merged) {
					t.Fatalf("CompareAligned gave %v over {%s} (first accepts: %v), want %v over {%s}", diff.Word, diff.Alphabet, diff.AcceptedByFirst, first, merged)
				}
			}
		}
	}
	if found == 0 {
		t.Fatal("no pair differed: the test checks nothing")
	}
}

// TestDistinguishingSuffix checks the search from two states of one DFA
// against every suffix up to length 7.
func TestDistinguishingSuffix(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for range 200 {
		d := randomDFA(rng, 1+rng.IntN(6), 2)
		p, q := rng.IntN(d.NumStates()), rng.IntN(d.NumStates())
		v, ok := d.DistinguishingSuffix(p, q)
		var first []int
		testkit.EachWord(2, 0, 7, func(w []int) {
			if first == nil && d.Accept[d.Run(p, w)] != d.Accept[d.Run(q, w)] {
				first = slices.Clone(w)
			}
		})
		if ok != (first != nil) || (ok && !slices.Equal(v, first)) {
			t.Fatalf("DistinguishingSuffix(%d, %d) = %v, %v; want %v", p, q, v, ok, first)
		}
	}
}

// TestCompareLimit: a product larger than product-bytes fails with the
// limit's name, and a cancelled budget stops the search.
func TestCompareLimit(t *testing.T) {
	n := 200 // a^(2n-1) is the first difference, after 2n-1 pairs
	a, b := NewDFA(testkit.Letters(1), n), NewDFA(testkit.Letters(1), n+1)
	for q := range n {
		a.Delta[q][0] = (q + 1) % n
	}
	for q := range n + 1 {
		b.Delta[q][0] = (q + 1) % (n + 1)
	}
	a.Accept[n-1] = true
	b.Accept[n-1] = true
	_, err := Compare(budget.New(context.Background(), budget.Settings{"product-bytes": 10 * pairBytes}), a, b, SigmaPlus)
	if !errors.Is(err, budget.ErrLimit) || !strings.Contains(err.Error(), "--limit product-bytes=N") {
		t.Fatalf("Compare under product-bytes=%d: %v, want the limit's error", 10*pairBytes, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Compare(budget.New(ctx, nil), a, b, SigmaPlus); !errors.Is(err, budget.ErrStopped) {
		t.Fatalf("Compare on a cancelled budget: %v", err)
	}
	if d, err := Compare(nil, a, b, SigmaPlus); err != nil || d == nil || len(d.Word) != 2*n-1 || !d.AcceptedByFirst {
		t.Fatalf("Compare with the default limits: %v, %v; want a^%d, accepted by the first", d, err, 2*n-1)
	}
}
