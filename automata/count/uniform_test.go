package count

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/automata/regex/regextest"
	"github.com/brasp-dev/brasp/internal/testkit"
)

// chiSquare is Pearson's statistic of observed counts against expected
// ones; cells expected fewer than 5 times are pooled into one.
func chiSquare(observed map[string]int, expected map[string]float64) (stat float64, df int) {
	var poolObs, poolExp float64
	cells := 0
	for k, e := range expected {
		o := float64(observed[k])
		if e < 5 {
			poolObs += o
			poolExp += e
			continue
		}
		stat += (o - e) * (o - e) / e
		cells++
	}
	if poolExp > 0 {
		stat += (poolObs - poolExp) * (poolObs - poolExp) / poolExp
		cells++
	}
	for k := range observed {
		if _, ok := expected[k]; !ok {
			return math.Inf(1), cells - 1 // a word that should never be drawn
		}
	}
	return stat, cells - 1
}

// critical1 is the chi-square quantile at 99% for df degrees of freedom
// (Wilson–Hilferty; within 0.1 of the tables for df ≥ 3: 13.28 for 4,
// 38.93 for 21).
func critical1(df int) float64 {
	const z = 2.326348 // the standard normal's 99% quantile
	k := float64(df)
	c := 1 - 2/(9*k) + z*math.Sqrt(2/(9*k))
	return k * c * c * c
}

// key writes a word for the histograms.
func key(w []uint64) string { return fmt.Sprint(w) }

// fiveWords is a language with five words of length 3 whose prefixes
// have 3, 1 and 1 completions: a sampler choosing letters uniformly
// instead of by the counts draws aa? a ninth of the time, not three
// fifths.
func fiveWords(t testing.TB) *Automaton {
	return fromDFA(t, regextest.DFA(t, "a b c", "aa(a|b|c)|bca|cbb"))
}

// uniformTest draws 20,000 words of length n and side s with draw and
// returns the chi-square statistic against the uniform distribution over
// the words of that side, its degrees of freedom and the critical value.
func uniformTest(t *testing.T, a *Automaton, n int, s Side, draw func(*Sampler) []uint64) (float64, int, float64) {
	t.Helper()
	tb := table(t, a, n)
	sp, err := tb.Sampler(nil, NewRand(2026))
	if err != nil {
		t.Fatal(err)
	}
	expected := map[string]float64{}
	const draws = 20000
	total := float64(tb.Words(s, n).Int64())
	if err := a.Enumerate(nil, n, n, func(w []uint64, acc bool) error {
		if acc == (s == Accept) {
			expected[key(w)] = draws / total
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	observed := map[string]int{}
	for range draws {
		observed[key(draw(sp))]++
	}
	stat, df := chiSquare(observed, expected)
	return stat, df, critical1(df)
}

// TestUniformChiSquare: 20,000 draws among the five accepted words of
// length 3 (and among the 22 rejected ones), with a fixed seed, do not
// reject uniformity at the 1% level.
func TestUniformChiSquare(t *testing.T) {
	a := fiveWords(t)
	for s := Accept; s <= Reject; s++ {
		stat, df, crit := uniformTest(t, a, 3, s, func(sp *Sampler) []uint64 {
			w, _ := sp.Draw(s, 3, nil)
			return w
		})
		t.Logf("%s: chi-square %.2f, %d degrees of freedom, 1%% critical value %.2f", s, stat, df, crit)
		if stat > crit {
			t.Errorf("%s: chi-square %.2f > %.2f: uniformity rejected at 1%%", s, stat, crit)
		}
	}
}

// TestChiSquareCatchesBias: the test above rejects a sampler that
// chooses each possible edge with the same chance instead of by the
// counts (the mutation it must catch).
func TestChiSquareCatchesBias(t *testing.T) {
	a := fiveWords(t)
	stat, df, crit := uniformTest(t, a, 3, Accept, func(sp *Sampler) []uint64 {
		var w []uint64
		q := a.start
		for m := 3; m >= 1; m-- {
			c := sp.cells[Accept][m-1][q]
			p := sp.picks[c.off+sp.rng.IntN(int(c.n))]
			e := &a.out[q][p.edge]
			w = append(w, e.pickLetter(sp.rng))
			q = e.to
		}
		return w
	})
	t.Logf("biased: chi-square %.2f, %d degrees of freedom, 1%% critical value %.2f", stat, df, crit)
	if stat <= crit {
		t.Fatalf("the biased sampler passes: chi-square %.2f ≤ %.2f", stat, crit)
	}
}

// prefixTest draws words of length n and side s and compares the
// distribution of their first two letters with the exact one:
// P(xy) = W_s[n-2][δ(start, xy)] / W_s[n][start].
func prefixTest(t *testing.T, d *automata.DFA, n int, s Side, choose func(*Sampler) []uint64) {
	t.Helper()
	a := fromDFA(t, d)
	tb := table(t, a, n)
	if tb.Words(s, n).Sign() == 0 {
		return
	}
	sp, err := tb.Sampler(nil, NewRand(99))
	if err != nil {
		t.Fatal(err)
	}
	const draws = 20000
	expected := map[string]float64{}
	total := new(big.Rat).SetInt(tb.Words(s, n))
	for x := range d.Alphabet {
		for y := range d.Alphabet {
			q := d.Run(d.Start, []int{x, y})
			p := new(big.Rat).SetInt(tb.at(new(big.Int), s, n-2, q))
			if p.Sign() == 0 {
				continue
			}
			f, _ := p.Quo(p, total).Float64()
			expected[key([]uint64{uint64(x), uint64(y)})] = f * draws
		}
	}
	observed := map[string]int{}
	for range draws {
		w := choose(sp)
		observed[key(w[:2])]++
	}
	stat, df := chiSquare(observed, expected)
	if crit := critical1(df); stat > crit {
		t.Errorf("length %d, %s: chi-square %.2f > %.2f (%d degrees of freedom)", n, s, stat, crit, df)
	}
}

// TestUniformBigCounts: at length 100 over four letters, where the counts
// are about 2^200 and the first choices compare the top 64 bits, the first
// two letters are distributed as the exact counts say; and so are they
// when every choice goes through the exact decision on all the bits.
func TestUniformBigCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for i := range 4 {
		d := automata.RandomDFA(rng, testkit.Letters(4), 2+rng.IntN(6))
		for s := Accept; s <= Reject; s++ {
			prefixTest(t, d, 100, s, func(sp *Sampler) []uint64 {
				w, _ := sp.Draw(s, 100, nil)
				return w
			})
			if i == 0 {
				// The exact decisions cost big-number steps: one automaton.
				prefixTest(t, d, 100, s, func(sp *Sampler) []uint64 {
					return exactDraw(sp, s, 100)
				})
			}
		}
	}
}

// exactDraw is the first two letters Draw would draw, each choice made by
// the exact decision on a full-width draw (the path Draw takes when the
// top bits do not decide).
func exactDraw(sp *Sampler, s Side, n int) []uint64 {
	a := sp.t.a
	q := a.start
	var w []uint64
	for m := n; m > n-2; m-- {
		c := &sp.cells[s][m-1][q]
		var i int
		if c.shift < 0 {
			i = sp.choose(s, m, q)
		} else {
			for ok := false; !ok; {
				i, ok = sp.exact(s, m, q, sp.rng.Uint64())
			}
		}
		e := &a.out[q][i]
		w = append(w, e.pickLetter(sp.rng))
		q = e.to
	}
	return w
}

// TestTopBitsAgreeWithExact: wherever the top 64 bits decide the edge,
// the exact decision on the completed draw takes the same one.
func TestTopBitsAgreeWithExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	checked := 0
	for range 5 {
		a := fromDFA(t, automata.RandomDFA(rng, testkit.Letters(3), 3+rng.IntN(5)))
		tb := table(t, a, 90)
		sp, err := tb.Sampler(nil, NewRand(1))
		if err != nil {
			t.Fatal(err)
		}
		for s := Accept; s <= Reject; s++ {
			for m := 60; m <= 90; m++ {
				for q := range a.NumStates() {
					c := &sp.cells[s][m-1][q]
					if c.shift < 0 || c.n == 0 {
						continue
					}
					picks := sp.picks[c.off : c.off+int(c.n)]
					// Draws inside each interval, and at its ends.
					for j, p := range picks {
						lo := uint64(0)
						if j > 0 {
							lo = picks[j-1].upper
						}
						for _, h := range []uint64{lo, lo + 1, p.upper - 1, p.upper, lo + (p.upper-lo)/2} {
							decided := h < p.upper && (j == 0 || h > lo)
							e, ok := sp.exact(s, m, q, h)
							if decided && (!ok || e != int(p.edge)) {
								t.Fatalf("side %s, m %d, q %d, h %d: top bits say edge %d, exact says %d (%v)", s, m, q, h, p.edge, e, ok)
							}
							checked++
						}
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no cell compares top bits")
	}
}

// TestGenerateUniform: Generate's draws (its own source per length) pass
// the same test: 20,000 accepted words of length 3 of the five.
func TestGenerateUniform(t *testing.T) {
	a := fiveWords(t)
	tb := table(t, a, 3)
	observed := map[string]int{}
	err := Generate(nil, tb, Request{Min: 3, Max: 3, Count: 20000, Mode: OnlyAccept, Seed: 2026}, func(w []uint64, _ bool) error {
		observed[key(w)]++
		return nil
	}, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	expected := map[string]float64{}
	if err := a.Enumerate(nil, 3, 3, func(w []uint64, acc bool) error {
		if acc {
			expected[key(w)] = 20000.0 / 5
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	stat, df := chiSquare(observed, expected)
	t.Logf("Generate: chi-square %.2f, %d degrees of freedom, 1%% critical value %.2f", stat, df, critical1(df))
	if stat > critical1(df) {
		t.Errorf("chi-square %.2f > %.2f: uniformity rejected at 1%%", stat, critical1(df))
	}
}
