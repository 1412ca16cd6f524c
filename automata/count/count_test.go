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
	"github.com/brasp-dev/brasp/automata/symbolic"
	"github.com/brasp-dev/brasp/bdd"
	"github.com/brasp-dev/brasp/budget"
	"github.com/brasp-dev/brasp/internal/testkit"
	"github.com/brasp-dev/brasp/ltlf"
)

// fromDFA is FromDFA or the test fails.
func fromDFA(t testing.TB, d *automata.DFA) *Automaton {
	t.Helper()
	a, err := FromDFA(d)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// table is Count up to max or the test fails.
func table(t testing.TB, a *Automaton, max int) *Table {
	t.Helper()
	tb, err := a.Count(nil, max)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

// bruteForce counts the accepted words of each length up to max by running
// d on every word.
func bruteForce(d *automata.DFA, max int) []int64 {
	acc := make([]int64, max+1)
	testkit.EachWord(len(d.Alphabet), 0, max, func(w []int) {
		if d.Accepts(w) {
			acc[len(w)]++
		}
	})
	return acc
}

// checkCounts compares the table's counts with the accepted counts want
// and the totals |Σ|^n.
func checkCounts(t *testing.T, name string, tb *Table, want []int64) {
	t.Helper()
	for n, w := range want {
		acc, rej, total := tb.Words(Accept, n), tb.Words(Reject, n), tb.Total(n)
		if acc.Cmp(big.NewInt(w)) != 0 || new(big.Int).Add(acc, rej).Cmp(total) != 0 {
			t.Fatalf("%s, length %d: accepted %s, rejected %s, total %s; brute force accepts %d", name, n, acc, rej, total, w)
		}
	}
}

// TestCountMatchesBruteForce: on random DFAs, the counts of every length
// up to 12 are those of running the automaton on every word.
func TestCountMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 1))
	for i := range 40 {
		d := automata.RandomDFA(rng, testkit.Letters(1+i%3), 1+rng.IntN(8))
		checkCounts(t, "random DFA", table(t, fromDFA(t, d), 12), bruteForce(d, 12))
	}
}

// TestCountClosedForms: languages whose counts are known in closed form,
// at lengths where they overflow 64 bits.
func TestCountClosedForms(t *testing.T) {
	// (ab)+: one word at every even length.
	tb := table(t, fromDFA(t, regextest.DFA(t, "a b", "(ab)+")), 200)
	for n := 1; n <= 200; n++ {
		want := int64(1 - n%2)
		if tb.Words(Accept, n).Cmp(big.NewInt(want)) != 0 {
			t.Fatalf("(ab)+, length %d: %s words, want %d", n, tb.Words(Accept, n), want)
		}
	}
	// Dyck-1 of depth 2: a word is a sequence of blocks l (lr)^j r, one
	// block of each semilength s ≥ 1, so the words of semilength m are
	// the compositions of m: 2^(m-1); none of odd length.
	tb = table(t, fromDFA(t, regextest.DFA(t, "l r", "(l (lr)* r)*")), 300)
	for n := 1; n <= 300; n++ {
		want := new(big.Int)
		if n%2 == 0 {
			want.Lsh(big.NewInt(1), uint(n/2-1))
		}
		if tb.Words(Accept, n).Cmp(want) != 0 {
			t.Fatalf("Dyck-1 depth 2, length %d: %s words, want %s", n, tb.Words(Accept, n), want)
		}
	}
	// Over four letters, the words without a: 3^n accepted, 4^n - 3^n
	// rejected.
	tb = table(t, fromDFA(t, regextest.DFA(t, "a b c d", "(b|c|d)*")), 100)
	for _, n := range []int{1, 31, 32, 33, 99, 100} {
		three := new(big.Int).Exp(big.NewInt(3), big.NewInt(int64(n)), nil)
		four := new(big.Int).Exp(big.NewInt(4), big.NewInt(int64(n)), nil)
		if tb.Words(Accept, n).Cmp(three) != 0 || tb.Words(Reject, n).Cmp(four.Sub(four, three)) != 0 {
			t.Fatalf("no a, length %d: %s accepted, %s rejected", n, tb.Words(Accept, n), tb.Words(Reject, n))
		}
	}
}

// symbolicOf is the minimal symbolic DFA of an LTLf formula.
func symbolicOf(t testing.TB, src string) *symbolic.DFA {
	t.Helper()
	f, err := ltlf.ParseString(src)
	if err != nil {
		t.Fatal(err)
	}
	d, err := ltlf.ToDFA(nil, f)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

var formulas = []string{
	"G(a -> F b)",
	"a U (b & X[!] c)",
	"F(a & !b) & G(c -> X d)",
	"G F a | F(b & c & d & e)",
	"X[!] X[!] a",
	"G(a | b)",
}

// TestSymbolicCounts: over propositions, the counts from the diagrams
// equal those of the automaton over the 2^k valuation letters (up to
// length 40, far past 64 bits) and, up to length 4, running the automaton
// on every trace.
func TestSymbolicCounts(t *testing.T) {
	for _, src := range formulas {
		d := symbolicOf(t, src)
		a, err := FromSymbolic(nil, d)
		if err != nil {
			t.Fatal(err)
		}
		ld, err := symbolic.ToLetters(nil, d, valName)
		if err != nil {
			t.Fatal(err)
		}
		sym, let := table(t, a, 40), table(t, fromDFA(t, ld), 40)
		for n := 0; n <= 40; n++ {
			if sym.Words(Accept, n).Cmp(let.Words(Accept, n)) != 0 || sym.Words(Reject, n).Cmp(let.Words(Reject, n)) != 0 {
				t.Fatalf("%s, length %d: %s/%s from the diagrams, %s/%s from the letters", src, n,
					sym.Words(Accept, n), sym.Words(Reject, n), let.Words(Accept, n), let.Words(Reject, n))
			}
		}
		if len(d.Props) <= 3 {
			checkCounts(t, src, sym, bruteForce(ld, 4))
		}
	}
}

func valName(v []bool) string {
	var b strings.Builder
	for _, x := range v {
		if x {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	return b.String()
}

// TestDrawsOnTheirSide: every word drawn has the length asked and is on
// the side asked, on random DFAs (small and big counts) and over
// propositions; DrawAny's label is the automaton's verdict.
func TestDrawsOnTheirSide(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var autos []*Automaton
	var runs []func([]uint64) bool
	for range 10 {
		d := automata.RandomDFA(rng, testkit.Letters(1+rng.IntN(4)), 1+rng.IntN(10))
		autos = append(autos, fromDFA(t, d))
		runs = append(runs, func(w []uint64) bool {
			v := make([]int, len(w))
			for i, l := range w {
				v[i] = int(l)
			}
			return d.Accepts(v)
		})
	}
	for _, src := range formulas {
		d := symbolicOf(t, src)
		a, err := FromSymbolic(nil, d)
		if err != nil {
			t.Fatal(err)
		}
		autos = append(autos, a)
		runs = append(runs, func(w []uint64) bool {
			tr := make([][]bool, len(w))
			for i, v := range w {
				tr[i] = make([]bool, len(d.Props))
				for p := range tr[i] {
					tr[i][p] = v>>p&1 == 1
				}
			}
			return d.Accepts(tr)
		})
	}
	for i, a := range autos {
		tb := table(t, a, 120)
		sp, err := tb.Sampler(nil, NewRand(uint64(i)))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, 2, 3, 7, 12, 64, 65, 120} {
			for s := Accept; s <= Reject; s++ {
				for range 20 {
					w, ok := sp.Draw(s, n, nil)
					if ok != (tb.Words(s, n).Sign() != 0) {
						t.Fatalf("automaton %d, length %d, %s: drew %v with %s words", i, n, s, ok, tb.Words(s, n))
					}
					if !ok {
						break
					}
					if len(w) != n || runs[i](w) != (s == Accept) {
						t.Fatalf("automaton %d, length %d, %s: drew %v, which the automaton does not %s", i, n, s, w, s)
					}
				}
			}
			w, acc := sp.DrawAny(n, nil)
			if len(w) != n || runs[i](w) != acc {
				t.Fatalf("automaton %d, length %d: DrawAny %v labelled %v", i, n, w, acc)
			}
		}
	}
}

// TestEnumerateListsEveryWordOnce: Enumerate lists each word of the
// lengths once, with the automaton's verdict, and refuses beyond the
// all-words limit.
func TestEnumerateListsEveryWordOnce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	d := automata.RandomDFA(rng, testkit.Letters(3), 5)
	a := fromDFA(t, d)
	seen := map[string]bool{}
	err := a.Enumerate(nil, 1, 6, func(w []uint64, acc bool) error {
		v := make([]int, len(w))
		for i, l := range w {
			v[i] = int(l)
		}
		key := d.Alphabet.FormatWord(v)
		if seen[key] {
			t.Fatalf("%s listed twice", key)
		}
		seen[key] = true
		if d.Accepts(v) != acc {
			t.Fatalf("%s labelled %v", key, acc)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := 3 + 9 + 27 + 81 + 243 + 729; len(seen) != want {
		t.Fatalf("%d words listed, want %d", len(seen), want)
	}
	b := budget.New(context.Background(), budget.Settings{AllWords.Name: 1000})
	err = a.Enumerate(b, 1, 6, func([]uint64, bool) error { return nil })
	if !errors.Is(err, budget.ErrLimit) || !strings.Contains(err.Error(), "all-words=1000") {
		t.Fatalf("past the limit: %v", err)
	}
}

// TestTableLimit: a table past count-table-bytes is refused before it is
// built, with the limit's name and what it needs.
func TestTableLimit(t *testing.T) {
	a := fromDFA(t, regextest.DFA(t, "a b c d", "(b|c|d)*"))
	b := budget.New(context.Background(), budget.Settings{TableBytes.Name: 1 << 20})
	_, err := a.Count(b, 10000)
	if !errors.Is(err, budget.ErrLimit) || !strings.Contains(err.Error(), "count-table-bytes=1048576") {
		t.Fatalf("got %v", err)
	}
	if _, err := a.Count(b, 100); err != nil {
		t.Fatalf("a small table: %v", err)
	}
	// The sampler's bytes count with the table's.
	b = budget.New(context.Background(), budget.Settings{TableBytes.Name: a.TableSize(100) + 100})
	tb, err := a.Count(b, 100)
	if err != nil {
		t.Fatalf("the table alone: %v", err)
	}
	if _, err := tb.Sampler(b, NewRand(1)); !errors.Is(err, budget.ErrLimit) || !strings.Contains(err.Error(), "count-table-bytes") {
		t.Fatalf("the table and its sampler past the limit: %v", err)
	}
}

// TestStopsWhenCancelled: counting and drawing stop soon after the
// budget's context is cancelled.
func TestStopsWhenCancelled(t *testing.T) {
	a := fromDFA(t, automata.RandomDFA(rand.New(rand.NewPCG(1, 2)), testkit.Letters(4), 30))
	testkit.StopsSoonAfterCancel(t, 3, func(b *budget.Budget) error {
		tb, err := a.Count(b, 200)
		if err != nil {
			return err
		}
		return Generate(b, tb, Request{Min: 1, Max: 200, Count: 20, Mode: Balanced}, func([]uint64, bool) error { return nil }, func(string) {})
	})
}

// manyProps is the formula G p0 over k propositions p0 … p(k-1).
func manyProps(t *testing.T, k int) *Automaton {
	var props []string
	for i := range k {
		props = append(props, "p"+itoa(i))
	}
	a, err := FromSymbolic(nil, symbolicOf(t, "propositions "+strings.Join(props, " ")+"\nG p0"))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestManyPropositions: over 70 propositions the counts are exact (G p0
// accepts 2^(69n) of the 2^(70n) traces of length n) and drawing is
// refused with the bound named; over 62, traces are drawn, uniformly
// valued in the free propositions' bits.
func TestManyPropositions(t *testing.T) {
	tb := table(t, manyProps(t, 70), 5)
	for n := 1; n <= 5; n++ {
		want := new(big.Int).Lsh(big.NewInt(1), uint(69*n))
		total := new(big.Int).Lsh(big.NewInt(1), uint(70*n))
		if tb.Words(Accept, n).Cmp(want) != 0 || tb.Total(n).Cmp(total) != 0 || tb.Words(Reject, n).Cmp(total.Sub(total, want)) != 0 {
			t.Fatalf("length %d: %s accepted of %s", n, tb.Words(Accept, n), tb.Total(n))
		}
	}
	if _, err := tb.Sampler(nil, NewRand(1)); err == nil || !strings.Contains(err.Error(), "at most 62 propositions") {
		t.Fatalf("drawing over 70 propositions: %v", err)
	}
	sp, err := table(t, manyProps(t, 62), 5).Sampler(nil, NewRand(1))
	if err != nil {
		t.Fatal(err)
	}
	var or, and uint64 = 0, 1<<62 - 1
	for range 200 {
		w, ok := sp.Draw(Accept, 5, nil)
		if !ok {
			t.Fatal("no trace drawn")
		}
		for _, v := range w {
			if v&1 == 0 || v >= 1<<62 {
				t.Fatalf("step %b of an accepted trace", v)
			}
			or, and = or|v, and&v
		}
	}
	if or != 1<<62-1 || and != 1 {
		t.Errorf("the free propositions are not all drawn both ways: or %b, and %b", or, and)
	}
}

// TestTwoLeavesOneState: a diagram whose two leaves are one state gives
// that state one edge with every valuation of both: over p, a start that
// stays on either leaf accepts the 2^n traces of each length.
func TestTwoLeavesOneState(t *testing.T) {
	m := bdd.New(nil, 1)
	t0, t2 := m.Terminal(0), m.Terminal(2)
	d := &symbolic.DFA{Props: []string{"p"}, M: m, Accept: []bool{true}, Next: []bdd.Node{m.Mk(0, t0, t2)}, Leaf: map[bdd.Node]int{t0: 0, t2: 0}}
	a, err := FromSymbolic(nil, d)
	if err != nil {
		t.Fatal(err)
	}
	tb := table(t, a, 10)
	for n := 1; n <= 10; n++ {
		if got := tb.Words(Accept, n); got.Cmp(big.NewInt(1<<n)) != 0 {
			t.Fatalf("length %d: %s traces", n, got)
		}
	}
}
