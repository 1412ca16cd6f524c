package learn

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/brasp-dev/brasp/alphabet"
	"github.com/brasp-dev/brasp/automata"
	"github.com/brasp-dev/brasp/budget"
)

// plainTeacher answers one verdict per word, as a black box without
// prefix answers; asked counts the words it was asked.
type plainTeacher struct {
	d     *automata.DFA
	asked int
}

func (t *plainTeacher) PerPrefix() bool { return false }

func (t *plainTeacher) Query(_ *budget.Budget, words [][]int) ([][]bool, error) {
	out := make([][]bool, len(words))
	for i, w := range words {
		out[i] = []bool{t.d.Accepts(w)}
	}
	t.asked += len(words)
	return out, nil
}

// learnBlackBox learns d through conformance at the default strength of
// brasp learn --command.
func learnBlackBox(t testing.TB, d *automata.DFA, prefix bool) (*Result, int) {
	t.Helper()
	var m Membership = &plainTeacher{d: d}
	if prefix {
		m = &DFATeacher{D: d}
	}
	cache := NewCache(nil, m, d.Alphabet, &Stats{})
	conf := NewConformance(cache, 2, 0, -1, 50, 0)
	res, err := LearnWith(nil, cache, conf, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res, res.Stats.MembershipQueries
}

// TestConformanceRandomDFAs: the default suite learns random minimal
// DFAs exactly from one verdict per word and from prefix answers.
func TestConformanceRandomDFAs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, k := range []int{2, 4} {
		for _, n := range []int{5, 20, 60} {
			d := randomMinimal(rng, n, k)
			for _, prefix := range []bool{false, true} {
				res, words := learnBlackBox(t, d, prefix)
				if !automata.Equivalent(res.DFA, d, automata.SigmaPlus) {
					t.Errorf("%d states, %d letters, prefix %v: the learned DFA (%d states) differs from the target", d.NumStates(), k, prefix, res.DFA.NumStates())
				}
				t.Logf("%d states, %d letters, prefix %v: %d words", d.NumStates(), k, prefix, words)
			}
		}
	}
}

// dyck is the DFA of Dyck-1 words of depth at most depth over a b.
func dyck(depth int) *automata.DFA {
	d := automata.NewDFA(alphabet.Alphabet{"a", "b"}, depth+2)
	sink := depth + 1
	d.Accept[0] = true
	for q := range depth + 1 {
		d.Delta[q][0], d.Delta[q][1] = q+1, q-1
		if q == depth {
			d.Delta[q][0] = sink
		}
		if q == 0 {
			d.Delta[q][1] = sink
		}
	}
	d.Delta[sink][0], d.Delta[sink][1] = sink, sink
	return d
}

// TestConformanceDyck: bounded Dyck-1, which random words almost never
// explore, is learned exactly from one verdict per word: the draws around
// the states found last reach the next depth.
func TestConformanceDyck(t *testing.T) {
	for _, depth := range []int{16, 32} {
		d := dyck(depth)
		res, words := learnBlackBox(t, d, false)
		if !automata.Equivalent(res.DFA, d, automata.SigmaPlus) {
			t.Fatalf("Dyck-1 of depth %d: learned %d states, not the target", depth, res.DFA.NumStates())
		}
		if words > 100000 {
			t.Errorf("Dyck-1 of depth %d: %d words", depth, words)
		}
	}
}

func TestPACWords(t *testing.T) {
	for _, c := range []struct {
		eps, delta float64
		i          int
		want       int64
	}{{0.1, 0.05, 1, 37}, {0.01, 0.01, 3, 669}, {0.5, 0.5, 1, 3}, {1e-300, 0.5, 1, math.MaxInt64}} {
		if got := PACWords(c.eps, c.delta, c.i); got != c.want {
			t.Errorf("PACWords(%g, %g, %d) = %d, want %d", c.eps, c.delta, c.i, got, c.want)
		}
		if want := (math.Log(1/c.delta) + float64(c.i)*math.Ln2) / c.eps; float64(c.want) < want && c.want < math.MaxInt64 {
			t.Errorf("table entry below the bound %g", want)
		}
	}
}

// TestExhaustiveInBatches: the words up to a length are asked in batches
// built as they go, shortest first; the first batch with a disagreement
// gives the shortest one, and no later batch is built.
func TestExhaustiveInBatches(t *testing.T) {
	// The black box accepts the words of length 13 and more that end in
	// b; the hypothesis rejects everything.
	alpha := alphabet.Alphabet{"a", "b"}
	target := automata.NewDFA(alpha, 15)
	for q := range 15 {
		target.Delta[q][0], target.Delta[q][1] = q+1, q+1
		if q >= 12 {
			target.Delta[q][0], target.Delta[q][1] = 13, 14
		}
	}
	target.Accept[14] = true
	teacher := &plainTeacher{d: target}
	cache := NewCache(nil, teacher, alpha, &Stats{})
	conf := NewConformance(cache, 14, 0, 0, 0, 0)
	h := &Hypothesis{DFA: automata.NewDFA(alpha, 1), Access: [][]int{{}}, walk: func() [][][]int { return [][][]int{nil} }}
	ws, err := conf.Counterexamples(nil, h, 1)
	if err != nil || len(ws) != 1 {
		t.Fatalf("found %d, %v", len(ws), err)
	}
	if want := "aaaaaaaaaaaab"; alpha.FormatWord(ws[0]) != want {
		t.Errorf("counterexample %s, want %s", alpha.FormatWord(ws[0]), want)
	}
	if all := WordsUpTo(2, 14); teacher.asked > suiteBatch || int64(teacher.asked) >= all {
		t.Errorf("asked %d words (of %d up to length 14, batches of %d)", teacher.asked, all, suiteBatch)
	}
}

// TestCheckSizes: settings whose suite cannot fit are refused by the
// limit they would pass, before anything is asked.
func TestCheckSizes(t *testing.T) {
	for _, c := range []struct {
		conf  Conformance
		k     int
		limit string
	}{
		{Conformance{Length: 1000, Random: -1, RandomMean: 50}, 2, "learn-queries"},
		{Conformance{Length: 20, Random: -1, RandomMean: 50}, 3, "learn-queries"},
		{Conformance{Extra: 30, Random: -1, RandomMean: 50}, 2, "learn-queries"},
		{Conformance{Random: 1 << 30, RandomMean: 50}, 2, "learn-queries"},
		{Conformance{Random: -1, RandomMean: 1 << 30}, 2, "learn-bytes"},
		{Conformance{Random: -1, Epsilon: 1e-300, Delta: 0.5}, 2, "learn-queries"},
		{Conformance{Random: -1, Epsilon: 0.1, Delta: 0.5, PACMean: 1 << 30}, 2, "learn-bytes"},
	} {
		err := c.conf.Check(nil, c.k)
		var le *budget.Error
		if !errors.As(err, &le) || le.Limit.Name != c.limit {
			t.Errorf("%+v over %d letters: %v, want the limit %s", c.conf, c.k, err, c.limit)
		}
	}
	ok := Conformance{Length: 4, Random: -1, RandomMean: 50, Epsilon: 0.01, Delta: 0.05, PACMean: 10}
	if err := ok.Check(nil, 2); err != nil {
		t.Errorf("the default suite: %v", err)
	}
}

// TestRandomWordSizedFirst: a random word's length is drawn before its
// letters, so a word whose answers could not fit in learn-bytes is refused
// by that limit before it is built (a geometric middle of mean 2^40
// letters here, where the word built letter by letter took the memory).
func TestRandomWordSizedFirst(t *testing.T) {
	alpha := alphabet.Alphabet{"a", "b"}
	cache := NewCache(nil, &plainTeacher{d: automata.NewDFA(alpha, 1)}, alpha, &Stats{})
	conf := NewConformance(cache, 0, 0, 1, 1<<40, 0)
	conf.round = 1
	pac := *conf
	pac.Epsilon, pac.Delta, pac.PACMean = 0.5, 0.5, 1<<40
	h := &Hypothesis{DFA: automata.NewDFA(alpha, 1), Access: [][]int{{}}, walk: func() [][][]int { return [][][]int{nil} }}
	refused := 0
	for range 20 {
		for _, c := range []*Conformance{conf, &pac} {
			_, err := c.random(nil, h, 1)
			var le *budget.Error
			switch {
			case errors.As(err, &le) && le.Limit.Name == "learn-bytes":
				refused++
			case err != nil:
				t.Fatalf("%v, want the limit learn-bytes", err)
			}
		}
	}
	// The PAC words and three in five guided draws have the long middle.
	if refused < 20 {
		t.Errorf("%d of 40 rounds refused a word, want the 20 PAC rounds at least", refused)
	}
}

// xorTarget is a random DFA of 1 to 8 states over k letters XOR one of 1
// to 3 states, as product: the language of a teacher that lies by a
// regular rule (the adversarial-teacher search draws these).
func xorTarget(rng *rand.Rand, k int) *automata.DFA {
	random := func(n int) *automata.DFA {
		d := automata.NewDFA(alphabet.Alphabet{"a", "b", "c"}[:k], n)
		for q := range n {
			d.Accept[q] = rng.IntN(2) == 0
			for a := range k {
				d.Delta[q][a] = rng.IntN(n)
			}
		}
		return d
	}
	t, o := random(1+rng.IntN(8)), random(1+rng.IntN(3))
	n, m := t.NumStates(), o.NumStates()
	d := automata.NewDFA(t.Alphabet, n*m)
	for p := range n {
		for q := range m {
			d.Accept[p*m+q] = t.Accept[p] != o.Accept[q]
			for a := range k {
				d.Delta[p*m+q][a] = t.Delta[p][a]*m + o.Delta[q][a]
			}
		}
	}
	return d
}

// TestShortMiddles: with random middles of mean length 1 most random
// draws repeat words answered before, which cannot be counterexamples
// (stage 1 checked them); the stage counts the new words it asks, so its
// strength does not fall with the middles (counted in draws, 2 of these
// 150 were learned wrong: 6 states for 7, 9 for 11).
func TestShortMiddles(t *testing.T) {
	rng := rand.New(rand.NewPCG(1796613222862080788, 298))
	for i := range 150 {
		d := xorTarget(rng, 2+i%2)
		cache := NewCache(nil, &plainTeacher{d: d}, d.Alphabet, &Stats{})
		res, err := LearnWith(nil, cache, NewConformance(cache, 2, 0, -1, 1, 0), nil)
		if err != nil {
			t.Fatal(err)
		}
		if !automata.Equivalent(res.DFA, d, automata.SigmaPlus) {
			m, _ := automata.Minimize(nil, d)
			t.Errorf("target %d (%d states, %d letters): learned %d states, not the target: %s", i, m.NumStates(), len(d.Alphabet), res.DFA.NumStates(), res.Verdict)
		}
	}
}

// TestRandomDrawsBounded: when the draws can make few new words (middles
// of length 0 around a one-state hypothesis: the 14 words of 1 to 3
// letters, a and b asked before), the stage stops after RandomDraws times
// the words sought and says how few it found.
func TestRandomDrawsBounded(t *testing.T) {
	alpha := alphabet.Alphabet{"a", "b"}
	cache := NewCache(nil, &plainTeacher{d: automata.NewDFA(alpha, 1)}, alpha, &Stats{})
	conf := NewConformance(cache, 0, 0, 100, 0, 0)
	h := &Hypothesis{DFA: automata.NewDFA(alpha, 1), Access: [][]int{{}}, walk: func() [][][]int { return [][][]int{nil} }}
	ws, err := conf.Counterexamples(nil, h, 1)
	if err != nil || ws != nil {
		t.Fatalf("%v, %v", ws, err)
	}
	want := ", 12 new random words of the 100 sought: the draws repeat words answered before (1600 draws"
	if !strings.Contains(conf.Verdict(), want) {
		t.Errorf("verdict %q, want %q", conf.Verdict(), want)
	}
}
