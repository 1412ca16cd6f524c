package count

import (
	"context"
	"errors"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/regex/regextest"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/internal/testkit"
)

// rolled is what Counts emits for lo..hi, each length's accepted,
// rejected and total words.
func rolled(t testing.TB, b *budget.Budget, a *Automaton, lo, hi int) [][3]*big.Int {
	t.Helper()
	var got [][3]*big.Int
	err := a.Counts(b, lo, hi, func(n int, acc, rej, total *big.Int) error {
		if n != lo+len(got) {
			t.Fatalf("length %d emitted after %d lengths from %d", n, len(got), lo)
		}
		got = append(got, [3]*big.Int{new(big.Int).Set(acc), new(big.Int).Set(rej), new(big.Int).Set(total)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != hi-lo+1 {
		t.Fatalf("%d lengths emitted for %d:%d", len(got), lo, hi)
	}
	return got
}

// sameAsTable fails unless Counts of lo..hi gives the table's counts.
func sameAsTable(t *testing.T, name string, a *Automaton, tb *Table, lo, hi int) {
	t.Helper()
	for i, c := range rolled(t, nil, a, lo, hi) {
		n := lo + i
		if c[0].Cmp(tb.Words(Accept, n)) != 0 || c[1].Cmp(tb.Words(Reject, n)) != 0 || c[2].Cmp(tb.Total(n)) != 0 {
			t.Fatalf("%s, length %d: rolled %s/%s/%s, table %s/%s/%s", name, n, c[0], c[1], c[2],
				tb.Words(Accept, n), tb.Words(Reject, n), tb.Total(n))
		}
	}
}

// TestCountsMatchTable: the rolling row gives the counts of Count's table
// (itself checked against brute force) for random DFAs over one to five
// letters and symbolic DFAs, on ranges starting at 0, inside the 64-bit
// lengths, across the switch to big counts and far past it.
func TestCountsMatchTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 2))
	for i := range 30 {
		d := automata.RandomDFA(rng, testkit.Letters(1+i%5), 1+rng.IntN(12))
		a := fromDFA(t, d)
		tb := table(t, a, 150)
		for _, r := range [][2]int{{0, 150}, {0, 0}, {3, 3}, {20, 40}, {60, 61}, {149, 150}} {
			sameAsTable(t, "random DFA", a, tb, r[0], r[1])
		}
	}
	for _, src := range formulas {
		a, err := FromSymbolic(nil, symbolicOf(t, src))
		if err != nil {
			t.Fatal(err)
		}
		tb := table(t, a, 40)
		sameAsTable(t, src, a, tb, 0, 40)
		sameAsTable(t, src, a, tb, 33, 37)
	}
}

// TestPowerMatchesTable: the jump by matrix powers reaches the row of
// every length the table counts, on random DFAs (the choice between
// jumping and rolling is a matter of cost, so both are checked apart).
func TestPowerMatchesTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 3))
	for i := range 30 {
		d := automata.RandomDFA(rng, testkit.Letters(1+i%4), 1+rng.IntN(10))
		a := fromDFA(t, d)
		tb := table(t, a, 130)
		for n := 0; n <= 130; n += 1 + rng.IntN(9) {
			v := make([]big.Int, a.NumStates())
			v[a.start].SetInt64(1)
			if err := a.power(nil, v, n); err != nil {
				t.Fatal(err)
			}
			acc := new(big.Int)
			for q, ok := range a.accept {
				if ok {
					acc.Add(acc, &v[q])
				}
			}
			if acc.Cmp(tb.Words(Accept, n)) != 0 {
				t.Fatalf("random DFA, length %d: %s accepted by powers, %s in the table", n, acc, tb.Words(Accept, n))
			}
		}
	}
}

// TestCountsLongLengths: one length of 10^5 and a range past 10^6 on small
// automata, where the row jumps by matrix powers, against closed forms:
// Dyck-1 of depth 2 has 2^(m-1) words of length 2m, (ab)+ one, the
// words over a b c d without a are 3^n.
func TestCountsLongLengths(t *testing.T) {
	pow := func(b, n int) *big.Int { return new(big.Int).Exp(big.NewInt(int64(b)), big.NewInt(int64(n)), nil) }
	dyck := fromDFA(t, regextest.DFA(t, "l r", "(l (lr)* r)*"))
	if dyck.powerCost(100000) >= rollCost(int64(dyck.edges()), 100000, 2) {
		t.Fatal("Dyck-1 at 10^5 rolls instead of jumping")
	}
	for i, c := range rolled(t, nil, dyck, 99999, 100002) {
		n := 99999 + i
		want := new(big.Int)
		if n%2 == 0 {
			want = pow(2, n/2-1)
		}
		if c[0].Cmp(want) != 0 || c[2].Cmp(pow(2, n)) != 0 || new(big.Int).Add(c[0], c[1]).Cmp(c[2]) != 0 {
			t.Fatalf("Dyck-1 depth 2, length %d: %d-bit accepted count, want %d bits", n, c[0].BitLen(), want.BitLen())
		}
	}
	abPlus := fromDFA(t, regextest.DFA(t, "a b", "(ab)+"))
	for i, c := range rolled(t, nil, abPlus, 1<<20-2, 1<<20) {
		if want := int64(1 - i%2); c[0].Cmp(big.NewInt(want)) != 0 {
			t.Fatalf("(ab)+, length %d: %s words, want %d", 1<<20-2+i, c[0], want)
		}
	}
	noA := fromDFA(t, regextest.DFA(t, "a b c d", "(b|c|d)*"))
	c := rolled(t, nil, noA, 300000, 300000)[0]
	if c[0].Cmp(pow(3, 300000)) != 0 || c[2].Cmp(pow(4, 300000)) != 0 {
		t.Fatal("no a, length 300000: not 3^n of 4^n")
	}
}

// TestCountsLimit: the rows are charged to count-table-bytes before they
// are built.
func TestCountsLimit(t *testing.T) {
	a := fromDFA(t, regextest.DFA(t, "a b c d", "(b|c|d)*"))
	b := budget.New(context.Background(), budget.Settings{TableBytes.Name: 1 << 20})
	err := a.Counts(b, 1, 1<<20, func(int, *big.Int, *big.Int, *big.Int) error { t.Fatal("counted past the limit"); return nil })
	if !errors.Is(err, budget.ErrLimit) || !strings.Contains(err.Error(), "count-table-bytes=1048576") {
		t.Fatalf("got %v", err)
	}
	rolled(t, b, a, 1, 1000)
}

// TestCountsStopWhenCancelled: rolling and jumping stop soon after the
// budget's context is cancelled.
func TestCountsStopWhenCancelled(t *testing.T) {
	a := fromDFA(t, automata.RandomDFA(rand.New(rand.NewPCG(1, 2)), testkit.Letters(4), 30))
	testkit.StopsSoonAfterCancel(t, 3, func(b *budget.Budget) error {
		return a.Counts(b, 1, 2000, func(int, *big.Int, *big.Int, *big.Int) error { return nil })
	})
	two := fromDFA(t, regextest.DFA(t, "l r", "(l (lr)* r)*"))
	testkit.StopsSoonAfterCancel(t, 3, func(b *budget.Budget) error {
		return two.Counts(b, 1<<18, 1<<18, func(int, *big.Int, *big.Int, *big.Int) error { return nil })
	})
}
